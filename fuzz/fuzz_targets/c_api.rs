//! The C API (`bindings/c`) called from Rust as a C program would: any sequence of calls with
//! arbitrary lengths, NULL and non-NULL pointers, output buffers of every capacity (allocated to the
//! exact capacity, so AddressSanitizer sees any write past it) and handles used in any order.
//!
//! Checked on every call: nothing crashes, the status is one the function documents (never
//! FAIRMINES_PANIC), `fairmines_last_error()` explains every failure, outputs are untouched on failure
//! (except the documented needed-size outputs), and successful results equal the core's. Integer
//! arguments are judged whole (a value out of range is refused, never narrowed into range), and no round
//! moves once its seed pair has revealed the server seed (a rotation).
//!
//! To cover a new function: add a variant to `Call`, an arm to `State::call` and its allowed statuses.
#![no_main]

use core::ffi::{CStr, c_char};
use core::ptr;

use arbitrary::Arbitrary;
use fairmines::ErrorKind;
use fairmines_c::*;
use fairmines_fuzz::reference;
use libfuzzer_sys::fuzz_target;

// ------------------------------------------------------------------------------------------ statuses

// Codes 1..=18 are the core's error kinds (the binding's own test holds the C enum to them); 0 and the
// codes from 100 are C's own, read from its enum.
const OK: u32 = fairmines_status::FAIRMINES_OK as u32;
const INVALID_MINES: u32 = ErrorKind::InvalidMines.code();
const INVALID_NONCE: u32 = ErrorKind::InvalidNonce.code();
const INVALID_TILE: u32 = ErrorKind::InvalidTile.code();
const INVALID_HEX: u32 = ErrorKind::InvalidHex.code();
const INVALID_UTF8: u32 = ErrorKind::InvalidUtf8.code();
const RNG_FAILED: u32 = ErrorKind::RngFailed.code();
const BUFFER_TOO_SMALL: u32 = ErrorKind::BufferTooSmall.code();
const TILE_ALREADY_REVEALED: u32 = ErrorKind::TileAlreadyRevealed.code();
const ROUND_FINISHED: u32 = ErrorKind::RoundFinished.code();
const NOTHING_TO_CASH_OUT: u32 = ErrorKind::NothingToCashOut.code();
const INVALID_RTP: u32 = ErrorKind::InvalidRtp.code();
const INVALID_PICKS: u32 = ErrorKind::InvalidPicks.code();
const INVALID_NUMBER: u32 = ErrorKind::InvalidNumber.code();
const INVALID_STATE: u32 = ErrorKind::InvalidState.code();
const ROUNDS_IN_PLAY: u32 = ErrorKind::RoundsInPlay.code();
const ROUND_VOIDED: u32 = ErrorKind::RoundVoided.code();
const ROUND_NOT_IN_PLAY: u32 = ErrorKind::RoundNotInPlay.code();
const NULL_POINTER: u32 = fairmines_status::FAIRMINES_NULL_POINTER as u32;
const LENGTH_TOO_LARGE: u32 = fairmines_status::FAIRMINES_LENGTH_TOO_LARGE as u32;
const PANIC: u32 = fairmines_status::FAIRMINES_PANIC as u32;
const RATIO_TOO_LARGE: u32 = fairmines_status::FAIRMINES_RATIO_TOO_LARGE as u32;
const ROUND_IN_PLAY: u32 = fairmines_status::FAIRMINES_ROUND_IN_PLAY as u32;

/// Asserts that `status` is OK or one of `allowed`, and that a failure left a message.
fn expect(status: fairmines_status, allowed: &[u32], what: &str) -> u32 {
    let code = status as u32;
    let message = unsafe { CStr::from_ptr(fairmines_last_error()) }.to_string_lossy().into_owned();
    assert_ne!(code, PANIC, "{what}: a panic reached the boundary: {message}");
    assert!(code == OK || allowed.contains(&code), "{what}: undocumented status {code} ({message})");
    if code != OK {
        assert!(!message.is_empty(), "{what}: status {code} without a message");
        let described = unsafe { CStr::from_ptr(fairmines_status_str(code)) }.to_str().expect("UTF-8");
        assert_ne!(described, "unknown status", "{what}: status {code} has no description");
        // A core kind is described by the core's summary.
        if let Some(kind) = ErrorKind::from_code(code) {
            assert_eq!(described, kind.summary(), "{what}: status {code}");
        }
    }
    code
}

// ------------------------------------------------------------------------------------------ memory

const CANARY: u8 = 0xA5;

/// An input span: NULL with any length, bytes in an allocation of exactly their length, or a length
/// no object can have (refused before anything is read).
#[derive(Arbitrary, Debug, Clone)]
enum Span {
    Null(u16),
    Bytes(Vec<u8>),
    TooLong(u8),
}

struct InBuf {
    _keep: Box<[u8]>,
    ptr: *const c_char,
    len: usize,
}

impl Span {
    fn of(bytes: &[u8]) -> Span {
        Span::Bytes(bytes.to_vec())
    }

    fn buf(&self) -> InBuf {
        match self {
            Span::Null(len) => InBuf { _keep: Box::new([]), ptr: ptr::null(), len: usize::from(*len) },
            Span::Bytes(bytes) => {
                let keep: Box<[u8]> = bytes.clone().into_boxed_slice();
                let ptr = keep.as_ptr().cast();
                InBuf { len: keep.len(), _keep: keep, ptr }
            }
            Span::TooLong(extra) => {
                let keep: Box<[u8]> = Box::new([b'x']);
                let ptr = keep.as_ptr().cast();
                InBuf { _keep: keep, ptr, len: isize::MAX as usize + 1 + usize::from(*extra) }
            }
        }
    }

    fn is_null(&self) -> bool {
        matches!(self, Span::Null(_))
    }

    /// The text the library sees when it accepts the span.
    fn text(&self) -> Option<&str> {
        match self {
            Span::Bytes(bytes) => core::str::from_utf8(bytes).ok(),
            _ => None,
        }
    }
}

/// An output buffer of bytes: NULL (with any stated capacity) or an allocation of exactly `capacity`.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Out {
    Null(u16),
    Capacity(u16),
}

struct OutBuf {
    bytes: Option<Box<[u8]>>,
    capacity: usize,
}

impl Out {
    /// Capacities up to `limit`, so that large enough buffers are common.
    fn buf(self, limit: u16) -> OutBuf {
        match self {
            Out::Null(capacity) => OutBuf { bytes: None, capacity: usize::from(capacity) },
            Out::Capacity(capacity) => {
                let capacity = usize::from(capacity % (limit + 1));
                OutBuf { bytes: Some(vec![CANARY; capacity].into_boxed_slice()), capacity }
            }
        }
    }
}

impl OutBuf {
    fn ptr(&mut self) -> *mut u8 {
        self.bytes.as_mut().map_or(ptr::null_mut(), |b| b.as_mut_ptr())
    }
    fn untouched(&self) -> bool {
        self.bytes.as_ref().is_none_or(|b| b.iter().all(|&x| x == CANARY))
    }
    fn get(&self) -> &[u8] {
        self.bytes.as_deref().unwrap_or(&[])
    }
}

/// A value output (a struct, a number, a 65-byte hex buffer): NULL or room for exactly one value.
/// The stored bytes start as the canary so that a write on failure shows.
struct Slot {
    bytes: Option<Box<[u8]>>,
}

impl Slot {
    fn new(present: bool, size: usize) -> Slot {
        Slot { bytes: present.then(|| vec![CANARY; size].into_boxed_slice()) }
    }
    fn ptr<T>(&mut self) -> *mut T {
        self.bytes.as_mut().map_or(ptr::null_mut(), |b| b.as_mut_ptr().cast())
    }
    fn untouched(&self) -> bool {
        self.bytes.as_ref().is_none_or(|b| b.iter().all(|&x| x == CANARY))
    }
    /// The value written (unaligned read: the allocation is a byte buffer).
    fn read<T: Copy>(&self) -> T {
        let b = self.bytes.as_ref().expect("present");
        assert_eq!(b.len(), size_of::<T>());
        unsafe { ptr::read_unaligned(b.as_ptr().cast::<T>()) }
    }
    fn hex(&self) -> String {
        let b = self.bytes.as_ref().expect("present");
        assert_eq!(b.len(), FAIRMINES_HEX_SIZE);
        assert_eq!(b[64], 0, "hex output is NUL-terminated");
        String::from_utf8(b[..64].to_vec()).expect("hex is ASCII")
    }
}

/// A nonce-list output: NULL (with any stated capacity) or `uint64_t`s allocated to exactly `capacity`.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum NonceOut {
    Null(u8),
    Capacity(u8),
}

const NONCE_CANARY: u64 = u64::from_ne_bytes([CANARY; 8]);

struct NonceBuf {
    nonces: Option<Vec<u64>>,
    capacity: usize,
}

impl NonceOut {
    fn buf(self) -> NonceBuf {
        match self {
            NonceOut::Null(capacity) => NonceBuf { nonces: None, capacity: usize::from(capacity) },
            NonceOut::Capacity(capacity) => {
                let capacity = usize::from(capacity % 8);
                NonceBuf { nonces: Some(vec![NONCE_CANARY; capacity]), capacity }
            }
        }
    }
}

impl NonceBuf {
    fn ptr(&mut self) -> *mut u64 {
        self.nonces.as_mut().map_or(ptr::null_mut(), |n| n.as_mut_ptr())
    }
    fn untouched(&self) -> bool {
        self.nonces.as_ref().is_none_or(|n| n.iter().all(|&x| x == NONCE_CANARY))
    }

    /// Checks the nonce-list convention after a call (`count` is `out_count`); returns the nonces on OK.
    fn check(&self, code: u32, count: &Slot, what: &str) -> Option<Vec<u64>> {
        match code {
            OK => {
                let k: usize = count.read();
                let nonces = self.nonces.as_ref().expect("present");
                assert!(k <= self.capacity, "{what}: count {k} past the capacity");
                assert!(nonces[k..].iter().all(|&x| x == NONCE_CANARY), "{what}: wrote past the count");
                assert!(nonces[..k].windows(2).all(|w| w[0] < w[1]), "{what}: nonces not ascending");
                Some(nonces[..k].to_vec())
            }
            BUFFER_TOO_SMALL => {
                assert!(count.read::<usize>() > self.capacity, "{what}: too small?");
                assert!(self.untouched(), "{what}: buffer written on BUFFER_TOO_SMALL");
                None
            }
            _ => {
                assert!(self.untouched() && count.untouched(), "{what}: output written on failure");
                None
            }
        }
    }
}

/// An integer argument that C passes as `int64_t` (mines, safe picks, decimal places): mostly near the
/// valid range, sometimes any value, which must be judged whole (257 is not 1).
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Wide {
    Near(u8),
    Any(i64),
}

impl Wide {
    fn get(self) -> i64 {
        match self {
            Wide::Near(n) => i64::from(n % 28) - 1,
            Wide::Any(v) => v,
        }
    }
}

/// A text output: buffer, capacity and `out_needed`, as the library's text-output convention has them.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct TextOutSpec {
    out: Out,
    needed_null: bool,
}

struct TextBuf {
    out: OutBuf,
    needed: Slot,
}

impl TextOutSpec {
    fn buf(self) -> TextBuf {
        TextBuf { out: self.out.buf(2048), needed: Slot::new(!self.needed_null, size_of::<usize>()) }
    }
}

impl TextBuf {
    /// Checks the convention after a call: on OK the text and a NUL with `needed = len + 1`; on
    /// BUFFER_TOO_SMALL only `needed`; otherwise nothing. Returns the text on OK.
    fn check(&self, code: u32, what: &str) -> Option<String> {
        match code {
            OK => {
                let needed: usize = self.needed.read();
                let bytes = self.out.get();
                assert!(needed >= 1 && needed <= self.out.capacity, "{what}: needed {needed}");
                assert_eq!(bytes[needed - 1], 0, "{what}: NUL at needed - 1");
                assert!(bytes[needed..].iter().all(|&b| b == CANARY), "{what}: wrote past the text");
                Some(String::from_utf8(bytes[..needed - 1].to_vec()).expect("UTF-8 text"))
            }
            BUFFER_TOO_SMALL => {
                let needed: usize = self.needed.read();
                assert!(needed > self.out.capacity, "{what}: too small for {needed}?");
                assert!(self.out.untouched(), "{what}: buffer written on BUFFER_TOO_SMALL");
                None
            }
            _ => {
                assert!(self.out.untouched() && self.needed.untouched(), "{what}: output written on failure");
                None
            }
        }
    }
}

fn cstr(bytes: &[c_char]) -> String {
    let bytes: Vec<u8> = bytes.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8(bytes).expect("ASCII")
}

// ------------------------------------------------------------------------------------------ calls

/// Which handle a call uses: NULL, or one of the live ones (by index, modulo their number).
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Handle {
    Null,
    Live(u8),
}

/// A span, or text this run knows to be interesting (a real record, state or revealed seed).
#[derive(Arbitrary, Debug, Clone)]
enum Known {
    Span(Span),
    /// The last text of that kind the run saw, with one byte optionally changed.
    Last { change: Option<(u16, u8)> },
}

#[derive(Arbitrary, Debug)]
enum Call {
    Version,
    StatusStr(u32),
    Commitment { seed: Span, out: bool },
    RoundSignature { server: Span, client: Span, nonce: u64, out: bool },
    MinePositions { server: Span, client: Span, nonce: u64, mines: Wide, out: Out, draw_order: bool },
    Batch { server: Span, client: Span, start: u64, count: u16, huge: bool, mines: Wide, out: Out },
    Verify { server: Span, client: Span, nonce: u64, mines: Wide, commitment: Span, positions: Span, out: bool },
    ServerSeedGenerate { seed: bool, commitment: bool },
    SeedPairNew { client: Span, out: bool },
    SeedPairFromParts { server: Known, hex_seed: Option<[u8; 32]>, client: Span, nonce: u64, out: bool },
    SeedPairFromState { state: Known, out: bool },
    SeedPairToStateJson { pair: Handle, out: TextOutSpec },
    SeedPairPublicJson { pair: Handle, out: TextOutSpec },
    SeedPairCommitment { pair: Handle, out: bool },
    SeedPairClientSeed { pair: Handle, out: TextOutSpec },
    SeedPairNonce { pair: Handle, out: bool },
    StartRound { pair: Handle, mines: Wide, rtp: Rtp, out: bool },
    /// `open`: one of the pair's rounds in play (by index, modulo their number) when it has any, else `nonce`.
    SeedPairRound { pair: Handle, open: Option<u8>, nonce: u64, out: bool },
    Rotate { pair: Handle, client: Option<Span>, out: bool },
    OpenRounds { pair: Handle, out: NonceOut, count: bool },
    VoidOpenRounds { pair: Handle, out: NonceOut, count: bool },
    SeedPairFree(Handle),
    Reveal { round: Handle, tile: i64, safe: Option<u8>, out: bool },
    CashOut { round: Handle, out: bool },
    RecordJson { round: Handle, out: TextOutSpec },
    RoundMinePositions { round: Handle, out: Out },
    RoundPicks { round: Handle, out: Out, count: bool },
    RoundInfo { round: Handle, out: bool },
    RoundFree(Handle),
    VerifyRoundJson { record: Known, server: Known, out: bool, differences: TextOutSpec },
    Multiplier { mines: Wide, safe_picks: Wide, rtp: Rtp, out: bool },
    PayoutTable { rtp: Rtp, out: bool, capacity: u16 },
    RatioToDecimal { numer: u64, denom: u64, places: Wide, out: TextOutSpec },
    RatioParse { text: Span, out: bool },
}

/// An RTP argument: a common valid one, or any span.
#[derive(Arbitrary, Debug, Clone)]
enum Rtp {
    Common(u8),
    Span(Span),
}

impl Rtp {
    fn span(&self) -> Span {
        const COMMON: [&str; 5] = ["0.99", "1", "97/100", "0.965", "999999/1000000"];
        match self {
            Rtp::Common(i) => Span::of(COMMON[usize::from(*i) % COMMON.len()].as_bytes()),
            Rtp::Span(s) => s.clone(),
        }
    }
}

/// A live round with what the test knows of it: the seeds it is played with, and the seed pair (by id)
/// and that pair's epoch (its number of rotations) when it started.
#[derive(Clone)]
struct Played {
    ptr: *mut fairmines_round,
    server: String,
    client: String,
    pair: usize,
    epoch: u64,
}

/// What the run holds between calls.
#[derive(Default)]
struct State {
    /// Live seed pairs with their id (an index into `epochs`, never reused).
    pairs: Vec<(*mut fairmines_seed_pair, usize)>,
    /// Rotations so far of every seed pair the run made, freed ones included.
    epochs: Vec<u64>,
    rounds: Vec<Played>,
    last_state: Option<Vec<u8>>,
    last_record: Option<Vec<u8>>,
    last_revealed: Option<Vec<u8>>,
}

impl Drop for State {
    fn drop(&mut self) {
        for (pair, _) in self.pairs.drain(..) {
            unsafe { fairmines_seed_pair_free(pair) };
        }
        for round in self.rounds.drain(..) {
            unsafe { fairmines_round_free(round.ptr) };
        }
    }
}

fn pick(len: usize, handle: Handle) -> Option<usize> {
    match handle {
        Handle::Live(i) if len > 0 => Some(usize::from(i) % len),
        _ => None,
    }
}

fn known(known: &Known, last: &Option<Vec<u8>>) -> Span {
    match known {
        Known::Span(span) => span.clone(),
        Known::Last { change } => {
            let mut bytes = last.clone().unwrap_or_default();
            if let (Some((at, to)), false) = (change, bytes.is_empty()) {
                let n = bytes.len();
                bytes[usize::from(*at) % n] = *to;
            }
            Span::Bytes(bytes)
        }
    }
}

/// The core's answer for a span pair, when both are valid UTF-8.
fn seeds<'a>(server: &'a Span, client: &'a Span) -> Option<(&'a str, &'a str)> {
    Some((server.text()?, client.text()?))
}

impl State {
    fn pair(&self, handle: Handle) -> *mut fairmines_seed_pair {
        pick(self.pairs.len(), handle).map_or(ptr::null_mut(), |i| self.pairs[i].0)
    }

    fn pair_id(&self, handle: Handle) -> Option<usize> {
        pick(self.pairs.len(), handle).map(|i| self.pairs[i].1)
    }

    fn round(&self, handle: Handle) -> *mut fairmines_round {
        pick(self.rounds.len(), handle).map_or(ptr::null_mut(), |i| self.rounds[i].ptr)
    }

    fn call(&mut self, call: Call) {
        match call {
            Call::Version => {
                let version = unsafe { CStr::from_ptr(fairmines_version()) };
                assert!(!version.to_bytes().is_empty());
            }
            Call::StatusStr(code) => {
                let text = unsafe { CStr::from_ptr(fairmines_status_str(code)) };
                assert!(!text.to_bytes().is_empty());
            }
            Call::Commitment { seed, out } => {
                let s = seed.buf();
                let mut slot = Slot::new(out, FAIRMINES_HEX_SIZE);
                let code = expect(
                    unsafe { fairmines_commitment(s.ptr, s.len, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, LENGTH_TOO_LARGE],
                    "commitment",
                );
                if code == OK {
                    assert_eq!(slot.hex(), reference::commitment(seed.text().expect("accepted")));
                } else {
                    assert!(slot.untouched());
                    if seed.is_null() {
                        assert_eq!(code, NULL_POINTER);
                    }
                }
            }
            Call::RoundSignature { server, client, nonce, out } => {
                let (s, c) = (server.buf(), client.buf());
                let mut slot = Slot::new(out, FAIRMINES_HEX_SIZE);
                let code = expect(
                    unsafe { fairmines_round_signature(s.ptr, s.len, c.ptr, c.len, nonce, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, LENGTH_TOO_LARGE],
                    "round_signature",
                );
                match seeds(&server, &client) {
                    Some((sv, cl)) if out => {
                        assert_eq!(code, OK);
                        assert_eq!(slot.hex(), reference::signature(sv, cl, nonce));
                    }
                    _ => assert!(code != OK && slot.untouched()),
                }
            }
            Call::MinePositions { server, client, nonce, mines, out, draw_order } => {
                let mines = mines.get();
                let (s, c) = (server.buf(), client.buf());
                let mut o = out.buf(30);
                let f = if draw_order { fairmines_draw_order } else { fairmines_mine_positions };
                let code = expect(
                    unsafe { f(s.ptr, s.len, c.ptr, c.len, nonce, mines, o.ptr(), o.capacity) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_MINES, BUFFER_TOO_SMALL, LENGTH_TOO_LARGE],
                    "mine_positions/draw_order",
                );
                if code == OK {
                    let (sv, cl) = seeds(&server, &client).expect("accepted");
                    let m = mine_count(mines);
                    let expected = reference::placement(sv, cl, nonce, m);
                    let want = if draw_order { expected.draw_order } else { expected.positions };
                    assert_eq!(&o.get()[..m], want.as_slice());
                    assert!(o.get()[m..].iter().all(|&b| b == CANARY), "wrote past `mines` bytes");
                } else {
                    assert!(o.untouched(), "output written on failure");
                    if code == BUFFER_TOO_SMALL {
                        assert!(o.capacity < mine_count(mines));
                    }
                    if code == INVALID_MINES {
                        assert!(!(1..=24).contains(&mines), "mines {mines} refused");
                    }
                }
            }
            Call::Batch { server, client, start, count, huge, mines, out } => {
                let mines = mines.get();
                let (s, c) = (server.buf(), client.buf());
                let count = if huge { usize::MAX - usize::from(count) } else { usize::from(count % 64) };
                let mut o = out.buf(64 * 24 + 8);
                let code = expect(
                    unsafe {
                        fairmines_mine_positions_batch(s.ptr, s.len, c.ptr, c.len, start, count, mines, o.ptr(), o.capacity)
                    },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_MINES, INVALID_NONCE, BUFFER_TOO_SMALL, LENGTH_TOO_LARGE],
                    "mine_positions_batch",
                );
                if code == OK {
                    let (sv, cl) = seeds(&server, &client).expect("accepted");
                    let m = mine_count(mines);
                    assert!(count * m <= o.capacity);
                    for i in 0..count {
                        let expected = reference::placement(sv, cl, start + i as u64, m);
                        assert_eq!(&o.get()[i * m..(i + 1) * m], expected.positions.as_slice(), "batch row {i}");
                    }
                    assert!(o.get()[count * m..].iter().all(|&b| b == CANARY), "wrote past the rows");
                } else {
                    assert!(o.untouched(), "output written on failure");
                }
            }
            Call::Verify { server, client, nonce, mines, commitment, positions, out } => {
                let mines = mines.get();
                let (s, c, cm, p) = (server.buf(), client.buf(), commitment.buf(), positions.buf());
                let mut slot = Slot::new(out, size_of::<fairmines_verification>());
                let code = expect(
                    unsafe {
                        fairmines_verify(
                            s.ptr,
                            s.len,
                            c.ptr,
                            c.len,
                            nonce,
                            mines,
                            cm.ptr,
                            cm.len,
                            p.ptr.cast(),
                            p.len,
                            slot.ptr(),
                        )
                    },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_MINES, INVALID_HEX, INVALID_TILE, LENGTH_TOO_LARGE],
                    "verify",
                );
                if code == OK {
                    let v: fairmines_verification = slot.read();
                    let (sv, cl) = seeds(&server, &client).expect("accepted");
                    let m = mine_count(mines);
                    let expected = reference::placement(sv, cl, nonce, m);
                    assert_eq!(i64::from(v.mines), mines);
                    assert_eq!(cstr(&v.commitment), reference::commitment(sv));
                    assert_eq!(cstr(&v.signature), reference::signature(sv, cl, nonce));
                    assert_eq!(&v.positions[..m], expected.positions.as_slice());
                    assert_eq!(&v.draw_order[..m], expected.draw_order.as_slice());
                    assert!(v.positions[m..].iter().chain(&v.draw_order[m..]).all(|&b| b == 0));
                    assert_eq!(v.words_used, expected.words_used);
                    let commitment_check = match &commitment {
                        Span::Null(_) => fairmines_check::FAIRMINES_CHECK_SKIPPED,
                        _ if commitment.text().expect("hex").to_lowercase() == reference::commitment(sv) => {
                            fairmines_check::FAIRMINES_CHECK_PASSED
                        }
                        _ => fairmines_check::FAIRMINES_CHECK_FAILED,
                    };
                    let positions_check = match &positions {
                        Span::Bytes(declared) => {
                            let mut declared = declared.clone();
                            declared.sort_unstable();
                            if declared == expected.positions {
                                fairmines_check::FAIRMINES_CHECK_PASSED
                            } else {
                                fairmines_check::FAIRMINES_CHECK_FAILED
                            }
                        }
                        _ => fairmines_check::FAIRMINES_CHECK_SKIPPED,
                    };
                    assert_eq!(v.commitment_ok, commitment_check);
                    assert_eq!(v.positions_ok, positions_check);
                    // Nothing asked is UNCHECKED (not ok); any failed check a MISMATCH; else OK.
                    let (failed, skipped) =
                        (fairmines_check::FAIRMINES_CHECK_FAILED, fairmines_check::FAIRMINES_CHECK_SKIPPED);
                    let verdict = if commitment_check == skipped && positions_check == skipped {
                        fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED
                    } else if commitment_check == failed || positions_check == failed {
                        fairmines_verdict::FAIRMINES_VERDICT_MISMATCH
                    } else {
                        fairmines_verdict::FAIRMINES_VERDICT_OK
                    };
                    assert_eq!(v.verdict, verdict);
                    assert_eq!(v.ok, verdict == fairmines_verdict::FAIRMINES_VERDICT_OK);
                } else {
                    assert!(slot.untouched(), "output written on failure");
                }
            }
            Call::ServerSeedGenerate { seed, commitment } => {
                let mut s = Slot::new(seed, FAIRMINES_HEX_SIZE);
                let mut c = Slot::new(commitment, FAIRMINES_HEX_SIZE);
                let code = expect(
                    unsafe { fairmines_server_seed_generate(s.ptr(), c.ptr()) },
                    &[NULL_POINTER, RNG_FAILED],
                    "server_seed_generate",
                );
                if code == OK {
                    let seed = s.hex();
                    assert!(seed.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
                    assert_eq!(c.hex(), reference::commitment(&seed));
                } else {
                    assert!(s.untouched() && c.untouched());
                }
            }
            Call::SeedPairNew { client, out } => {
                let c = client.buf();
                let mut slot = Slot::new(out, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_seed_pair_new(c.ptr, c.len, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, LENGTH_TOO_LARGE, RNG_FAILED],
                    "seed_pair_new",
                );
                self.take_pair(code, &slot);
            }
            Call::SeedPairFromParts { server, hex_seed, client, nonce, out } => {
                let server = match hex_seed {
                    Some(bytes) => Span::of(reference::hex(&bytes).as_bytes()),
                    None => known(&server, &self.last_revealed),
                };
                let (s, c) = (server.buf(), client.buf());
                let mut slot = Slot::new(out, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_seed_pair_from_parts(s.ptr, s.len, c.ptr, c.len, nonce, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_HEX, INVALID_NONCE, LENGTH_TOO_LARGE],
                    "seed_pair_from_parts",
                );
                if code == OK {
                    let sv = server.text().expect("accepted");
                    assert!(sv.len() == 64 && sv.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
                }
                self.take_pair(code, &slot);
            }
            Call::SeedPairFromState { state, out } => {
                let state = known(&state, &self.last_state);
                let s = state.buf();
                let mut slot = Slot::new(out, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_seed_pair_from_state_json(s.ptr, s.len, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_STATE, LENGTH_TOO_LARGE],
                    "seed_pair_from_state_json",
                );
                self.take_pair(code, &slot);
            }
            Call::SeedPairToStateJson { pair, out } => {
                let mut t = out.buf();
                let code = expect(
                    unsafe {
                        fairmines_seed_pair_to_state_json(self.pair(pair), t.out.ptr().cast(), t.out.capacity, t.needed.ptr())
                    },
                    &[NULL_POINTER, BUFFER_TOO_SMALL],
                    "seed_pair_to_state_json",
                );
                if let Some(json) = t.check(code, "seed_pair_to_state_json") {
                    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
                    let seed = value["server_seed"].as_str().expect("server_seed");
                    assert_eq!(value["commitment"].as_str(), Some(reference::commitment(seed).as_str()));
                    self.last_state = Some(json.into_bytes());
                }
            }
            Call::SeedPairPublicJson { pair, out } => {
                let mut t = out.buf();
                let code = expect(
                    unsafe {
                        fairmines_seed_pair_public_part_json(self.pair(pair), t.out.ptr().cast(), t.out.capacity, t.needed.ptr())
                    },
                    &[NULL_POINTER, BUFFER_TOO_SMALL],
                    "seed_pair_public_part_json",
                );
                if let Some(json) = t.check(code, "seed_pair_public_part_json") {
                    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
                    assert!(value.get("server_seed").is_none(), "the public JSON shows the server seed");
                }
            }
            Call::SeedPairCommitment { pair, out } => {
                let mut slot = Slot::new(out, FAIRMINES_HEX_SIZE);
                let code = expect(
                    unsafe { fairmines_seed_pair_commitment(self.pair(pair), slot.ptr()) },
                    &[NULL_POINTER],
                    "seed_pair_commitment",
                );
                if code == OK {
                    assert!(slot.hex().bytes().all(|b| b.is_ascii_hexdigit()));
                } else {
                    assert!(slot.untouched());
                }
            }
            Call::SeedPairClientSeed { pair, out } => {
                let mut t = out.buf();
                let code = expect(
                    unsafe {
                        fairmines_seed_pair_client_seed(self.pair(pair), t.out.ptr().cast(), t.out.capacity, t.needed.ptr())
                    },
                    &[NULL_POINTER, BUFFER_TOO_SMALL],
                    "seed_pair_client_seed",
                );
                t.check(code, "seed_pair_client_seed");
            }
            Call::SeedPairNonce { pair, out } => {
                let mut slot = Slot::new(out, size_of::<u64>());
                let code = expect(
                    unsafe { fairmines_seed_pair_nonce(self.pair(pair), slot.ptr()) },
                    &[NULL_POINTER],
                    "seed_pair_nonce",
                );
                if code != OK {
                    assert!(slot.untouched());
                }
            }
            Call::StartRound { pair, mines, rtp, out } => {
                let mines = mines.get();
                let p = self.pair(pair);
                let id = self.pair_id(pair);
                let r = rtp.span();
                let rb = r.buf();
                let mut slot = Slot::new(out, size_of::<usize>());
                // The seeds the round is played with, read through the API before the call.
                let seeds = self.pair_seeds(p);
                let code = expect(
                    unsafe { fairmines_seed_pair_start_round(p, mines, rb.ptr, rb.len, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_MINES, INVALID_RTP, RATIO_TOO_LARGE, INVALID_NONCE, LENGTH_TOO_LARGE],
                    "seed_pair_start_round",
                );
                if code == OK {
                    let round: *mut fairmines_round = slot.read();
                    assert!(!round.is_null());
                    assert!((1..=24).contains(&mines), "a round with {mines} mines");
                    let (server, client) = seeds.expect("a live pair");
                    let pair = id.expect("a live pair");
                    self.rounds.push(Played { ptr: round, server, client, pair, epoch: self.epochs[pair] });
                } else {
                    assert!(slot.untouched());
                }
            }
            Call::SeedPairRound { pair, open, nonce, out } => {
                let p = self.pair(pair);
                let id = self.pair_id(pair);
                let in_play = self.open_rounds(p);
                let nonce = match (open, &in_play) {
                    (Some(i), Some(nonces)) if !nonces.is_empty() => nonces[usize::from(i) % nonces.len()],
                    _ => nonce,
                };
                // A live round of this pair value moving at that nonce: the pair hands it out only once.
                let handed_out = id.is_some_and(|id| {
                    self.in_play_rounds(id).into_iter().any(|r| self.round_info(r).expect("live").nonce == nonce)
                });
                let seeds = self.pair_seeds(p);
                let mut slot = Slot::new(out, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_seed_pair_round(p, nonce, slot.ptr()) },
                    &[NULL_POINTER, ROUND_NOT_IN_PLAY, RATIO_TOO_LARGE],
                    "seed_pair_round",
                );
                if code == OK {
                    let round: *mut fairmines_round = slot.read();
                    assert!(!round.is_null());
                    assert!(!handed_out, "round {nonce} handed out twice");
                    assert!(in_play.as_ref().is_some_and(|n| n.contains(&nonce)), "round {nonce} is not in play");
                    let info = self.round_info(round).expect("live");
                    assert_eq!((info.nonce, info.outcome), (nonce, fairmines_outcome::FAIRMINES_OUTCOME_IN_PLAY));
                    let (server, client) = seeds.expect("a live pair");
                    let pair = id.expect("a live pair");
                    self.rounds.push(Played { ptr: round, server, client, pair, epoch: self.epochs[pair] });
                } else {
                    assert!(slot.untouched());
                    if out && !p.is_null() && (handed_out || !in_play.as_ref().is_some_and(|n| n.contains(&nonce))) {
                        assert_eq!(code, ROUND_NOT_IN_PLAY, "round {nonce}");
                    }
                    assert_eq!(self.open_rounds(p), in_play, "a refused resume changed the rounds in play");
                }
            }
            Call::Rotate { pair, client, out } => {
                let p = self.pair(pair);
                let c = client.as_ref().map(Span::buf);
                let (cp, cl) = c.as_ref().map_or((ptr::null(), 0), |c| (c.ptr, c.len));
                let mut slot = Slot::new(out, size_of::<fairmines_revealed_seed_pair>());
                let before = self.pair_seeds(p);
                let open = self.open_rounds(p);
                let code = expect(
                    unsafe { fairmines_seed_pair_rotate(p, cp, cl, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, LENGTH_TOO_LARGE, ROUNDS_IN_PLAY, RNG_FAILED],
                    "seed_pair_rotate",
                );
                // The seed is revealed exactly when no round of the pair is in play.
                if code == ROUNDS_IN_PLAY {
                    assert!(!open.as_ref().expect("a live pair").is_empty(), "refused with no round in play");
                }
                if code == OK {
                    assert_eq!(open, Some(vec![]), "rotated with rounds in play");
                    let id = self.pair_id(pair).expect("a live pair");
                    self.epochs[id] += 1;
                    let revealed: fairmines_revealed_seed_pair = slot.read();
                    let seed = cstr(&revealed.server_seed);
                    assert_eq!(Some(&seed), before.as_ref().map(|b| &b.0), "rotate reveals the old seed");
                    assert_eq!(cstr(&revealed.commitment), reference::commitment(&seed));
                    self.last_revealed = Some(seed.into_bytes());
                } else {
                    assert!(slot.untouched());
                    assert_eq!(self.pair_seeds(p), before, "a refused rotate changed the pair");
                }
            }
            Call::OpenRounds { pair, out, count } => {
                let p = self.pair(pair);
                let mut o = out.buf();
                let mut n = Slot::new(count, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_seed_pair_open_rounds(p, o.ptr(), o.capacity, n.ptr()) },
                    &[NULL_POINTER, BUFFER_TOO_SMALL],
                    "seed_pair_open_rounds",
                );
                if let Some(nonces) = o.check(code, &n, "seed_pair_open_rounds") {
                    let next = self.next_nonce(p);
                    assert!(nonces.iter().all(|&n| n < next), "an open round at or past the next nonce");
                    for nonce in self.in_play(self.pair_id(pair).expect("a live pair")) {
                        assert!(nonces.contains(&nonce), "round {nonce} is in play but not listed");
                    }
                }
            }
            Call::VoidOpenRounds { pair, out, count } => {
                let p = self.pair(pair);
                let id = self.pair_id(pair);
                let open = self.open_rounds(p);
                let in_play = id.map(|id| self.in_play_rounds(id)).unwrap_or_default();
                let mut o = out.buf();
                let mut n = Slot::new(count, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_seed_pair_void_open_rounds(p, o.ptr(), o.capacity, n.ptr()) },
                    &[NULL_POINTER, BUFFER_TOO_SMALL],
                    "seed_pair_void_open_rounds",
                );
                if let Some(voided) = o.check(code, &n, "seed_pair_void_open_rounds") {
                    assert_eq!(Some(voided), open, "voided other rounds than those in play");
                    assert_eq!(self.open_rounds(p), Some(vec![]), "rounds in play after voiding");
                    for r in in_play {
                        let info = self.round_info(r).expect("live");
                        assert_eq!(info.outcome, fairmines_outcome::FAIRMINES_OUTCOME_VOIDED);
                        assert!(!info.has_multiplier);
                    }
                } else {
                    assert_eq!(self.open_rounds(p), open, "a refused void changed the open rounds");
                }
            }
            Call::SeedPairFree(handle) => {
                if let Some(i) = pick(self.pairs.len(), handle) {
                    let (p, _) = self.pairs.swap_remove(i);
                    unsafe { fairmines_seed_pair_free(p) };
                } else {
                    unsafe { fairmines_seed_pair_free(ptr::null_mut()) };
                }
            }
            Call::Reveal { round, tile, safe, out } => {
                let picked = pick(self.rounds.len(), round).map(|i| self.rounds[i].clone());
                let r = picked.as_ref().map_or(ptr::null_mut(), |r| r.ptr);
                // Often a tile that is safe (or a mine) in the real grid, so rounds go on.
                let tile = match (safe, &picked) {
                    (Some(n), Some(played)) => {
                        let mines = self.round_info(r).map_or(1, |i| i.mines);
                        let nonce = self.round_info(r).expect("live").nonce;
                        let grid = reference::placement(&played.server, &played.client, nonce, usize::from(mines));
                        let safe: Vec<u8> = (1..=25).filter(|t| !grid.positions.contains(t)).collect();
                        i64::from(safe[usize::from(n) % safe.len()])
                    }
                    _ => tile % 40,
                };
                let before = self.round_info(r);
                let mut slot = Slot::new(out, size_of::<fairmines_reveal>());
                let code = expect(
                    unsafe { fairmines_round_reveal(r, tile, slot.ptr()) },
                    &[NULL_POINTER, INVALID_TILE, TILE_ALREADY_REVEALED, ROUND_FINISHED, ROUND_VOIDED],
                    "round_reveal",
                );
                self.check_move(code, picked.as_ref(), before, out, "round_reveal");
                if code == OK {
                    // The core's reveal, field for field: against the reference grid and the round's info.
                    let result: fairmines_reveal = slot.read();
                    let played = picked.expect("a live round");
                    let info = self.round_info(r).expect("live");
                    let grid = reference::placement(&played.server, &played.client, info.nonce, usize::from(info.mines));
                    assert_eq!(i64::from(result.tile), tile, "reveal({tile})");
                    assert_eq!(result.safe, !grid.positions.contains(&result.tile), "reveal({tile})");
                    assert_eq!(result.safe_picks, info.safe_picks);
                    assert_eq!(result.finished, info.finished);
                    assert_eq!((result.has_multiplier, result.multiplier), (info.has_multiplier, info.multiplier));
                    assert_eq!(result.has_multiplier, result.safe);
                } else {
                    assert!(slot.untouched());
                    assert_eq!(self.round_info(r).map(Info::from), before.map(Info::from), "a refused reveal changed the round");
                }
            }
            Call::CashOut { round, out } => {
                let picked = pick(self.rounds.len(), round).map(|i| self.rounds[i].clone());
                let r = picked.as_ref().map_or(ptr::null_mut(), |r| r.ptr);
                let before = self.round_info(r);
                let mut slot = Slot::new(out, size_of::<fairmines_ratio>());
                let code = expect(
                    unsafe { fairmines_round_cash_out(r, slot.ptr()) },
                    &[NULL_POINTER, NOTHING_TO_CASH_OUT, ROUND_FINISHED, ROUND_VOIDED],
                    "round_cash_out",
                );
                self.check_move(code, picked.as_ref(), before, out, "round_cash_out");
                if code == OK {
                    let paid: fairmines_ratio = slot.read();
                    let info = self.round_info(r).expect("live");
                    assert!(info.has_multiplier);
                    assert_eq!(paid, info.multiplier);
                    assert_eq!(info.outcome, fairmines_outcome::FAIRMINES_OUTCOME_CASHED_OUT);
                } else {
                    assert!(slot.untouched());
                    assert_eq!(self.round_info(r).map(Info::from), before.map(Info::from), "a refused cash-out changed the round");
                }
            }
            Call::RecordJson { round, out } => {
                let r = self.round(round);
                let mut t = out.buf();
                let code = expect(
                    unsafe { fairmines_round_record_json(r, t.out.ptr().cast(), t.out.capacity, t.needed.ptr()) },
                    &[NULL_POINTER, ROUND_IN_PLAY, BUFFER_TOO_SMALL],
                    "round_record_json",
                );
                if let Some(json) = t.check(code, "round_record_json") {
                    self.last_record = Some(json.into_bytes());
                }
            }
            Call::RoundMinePositions { round, out } => {
                let picked = pick(self.rounds.len(), round).map(|i| self.rounds[i].clone());
                let r = picked.as_ref().map_or(ptr::null_mut(), |r| r.ptr);
                let mut o = out.buf(30);
                let code = expect(
                    unsafe { fairmines_round_mine_positions(r, o.ptr(), o.capacity) },
                    &[NULL_POINTER, ROUND_IN_PLAY, BUFFER_TOO_SMALL],
                    "round_mine_positions",
                );
                if code == OK {
                    let played = picked.expect("a live round");
                    let info = self.round_info(r).expect("live");
                    let m = usize::from(info.mines);
                    let grid = reference::placement(&played.server, &played.client, info.nonce, m);
                    assert_eq!(&o.get()[..m], grid.positions.as_slice());
                    assert!(o.get()[m..].iter().all(|&b| b == CANARY));
                } else {
                    assert!(o.untouched());
                }
            }
            Call::RoundPicks { round, out, count } => {
                let r = self.round(round);
                let mut o = out.buf(30);
                let mut n = Slot::new(count, size_of::<usize>());
                let code = expect(
                    unsafe { fairmines_round_picks(r, o.ptr(), o.capacity, n.ptr()) },
                    &[NULL_POINTER, BUFFER_TOO_SMALL],
                    "round_picks",
                );
                match code {
                    OK => {
                        let k: usize = n.read();
                        assert_eq!(k, usize::from(self.round_info(r).expect("live").pick_count));
                        assert!(o.get()[..k].iter().all(|t| (1..=25).contains(t)));
                        assert!(o.get()[k..].iter().all(|&b| b == CANARY));
                    }
                    BUFFER_TOO_SMALL => {
                        assert!(n.read::<usize>() > o.capacity);
                        assert!(o.untouched());
                    }
                    _ => assert!(o.untouched() && n.untouched()),
                }
            }
            Call::RoundInfo { round, out } => {
                let r = self.round(round);
                let mut slot = Slot::new(out, size_of::<fairmines_round_info>());
                let code = expect(unsafe { fairmines_round_get_info(r, slot.ptr()) }, &[NULL_POINTER], "round_info");
                if code == OK {
                    let info: fairmines_round_info = slot.read();
                    assert!((1..=24).contains(&info.mines));
                    assert!(info.safe_picks <= info.pick_count && info.pick_count <= 25);
                    assert_eq!(info.finished, info.outcome != fairmines_outcome::FAIRMINES_OUTCOME_IN_PLAY);
                    if info.outcome == fairmines_outcome::FAIRMINES_OUTCOME_VOIDED {
                        assert!(!info.has_multiplier && info.safe_picks == info.pick_count, "a voided round's info");
                    }
                } else {
                    assert!(slot.untouched());
                }
            }
            Call::RoundFree(handle) => {
                if let Some(i) = pick(self.rounds.len(), handle) {
                    let played = self.rounds.swap_remove(i);
                    unsafe { fairmines_round_free(played.ptr) };
                } else {
                    unsafe { fairmines_round_free(ptr::null_mut()) };
                }
            }
            Call::VerifyRoundJson { record, server, out, differences } => {
                let record = known(&record, &self.last_record);
                let server = known(&server, &self.last_revealed);
                let (rb, sb) = (record.buf(), server.buf());
                let mut slot = Slot::new(out, size_of::<fairmines_round_verification>());
                let mut t = differences.buf();
                let code = expect(
                    unsafe {
                        fairmines_verify_round_json(
                            rb.ptr,
                            rb.len,
                            sb.ptr,
                            sb.len,
                            slot.ptr(),
                            t.out.ptr().cast(),
                            t.out.capacity,
                            t.needed.ptr(),
                        )
                    },
                    &[
                        NULL_POINTER,
                        INVALID_UTF8,
                        INVALID_STATE,
                        INVALID_MINES,
                        INVALID_TILE,
                        RATIO_TOO_LARGE,
                        BUFFER_TOO_SMALL,
                        LENGTH_TOO_LARGE,
                    ],
                    "verify_round_json",
                );
                if code != OK {
                    assert!(slot.untouched(), "verification written on failure");
                }
                if let Some(text) = t.check(code, "verify_round_json") {
                    let v: fairmines_round_verification = slot.read();
                    assert_eq!(v.ok, text.is_empty());
                    assert_eq!(v.difference_count, text.lines().count());
                    // The same verdict as the core's own verify_round.
                    let parsed = fairmines::RoundRecord::from_json(record.text().expect("accepted")).expect("parsed");
                    let core = fairmines::verify_round(&parsed, server.text().expect("accepted")).expect("verified");
                    assert_eq!(v.ok, core.is_ok());
                    assert_eq!(&v.mine_positions[..usize::from(v.mines)], &*core.mine_positions);
                }
            }
            Call::Multiplier { mines, safe_picks, rtp, out } => {
                let (mines, safe_picks) = (mines.get(), safe_picks.get());
                let r = rtp.span();
                let rb = r.buf();
                let mut slot = Slot::new(out, size_of::<fairmines_ratio>());
                let code = expect(
                    unsafe { fairmines_multiplier(mines, safe_picks, rb.ptr, rb.len, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_MINES, INVALID_PICKS, INVALID_RTP, RATIO_TOO_LARGE, LENGTH_TOO_LARGE],
                    "multiplier",
                );
                if code == OK {
                    let got: fairmines_ratio = slot.read();
                    let rtp = fairmines::Rtp::parse(r.text().expect("accepted")).expect("valid").factor();
                    // Accepted only whole: in range as given, not after a narrowing.
                    let (m, k) = (
                        u8::try_from(mines).expect("mines in range"),
                        u8::try_from(safe_picks).expect("picks in range"),
                    );
                    let expected = reference::multiplier(m, k, rtp.numer(), rtp.denom()).expect("valid");
                    assert_eq!((u128::from(got.numer), u128::from(got.denom)), expected);
                } else {
                    assert!(slot.untouched());
                    if code == INVALID_MINES {
                        assert!(!(1..=24).contains(&mines));
                    }
                    if code == INVALID_PICKS {
                        assert!(!(1..=25 - mines).contains(&safe_picks));
                    }
                }
            }
            Call::PayoutTable { rtp, out, capacity } => {
                let r = rtp.span();
                let rb = r.buf();
                let capacity = usize::from(capacity % 320);
                let entry = size_of::<fairmines_payout_entry>();
                let mut o = Slot::new(out, capacity * entry);
                let code = expect(
                    unsafe { fairmines_payout_table(rb.ptr, rb.len, o.ptr(), capacity) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_RTP, RATIO_TOO_LARGE, BUFFER_TOO_SMALL, LENGTH_TOO_LARGE],
                    "payout_table",
                );
                if code == OK {
                    assert!(capacity >= FAIRMINES_PAYOUT_TABLE_SIZE);
                    let bytes = o.bytes.as_ref().expect("present");
                    assert!(bytes[FAIRMINES_PAYOUT_TABLE_SIZE * entry..].iter().all(|&b| b == CANARY));
                } else {
                    assert!(o.untouched());
                }
            }
            Call::RatioToDecimal { numer, denom, places, out } => {
                let places = places.get();
                let mut t = out.buf();
                let ratio = fairmines_ratio { numer, denom };
                let code = expect(
                    unsafe { fairmines_ratio_to_decimal(ratio, places, t.out.ptr().cast(), t.out.capacity, t.needed.ptr()) },
                    &[NULL_POINTER, INVALID_NUMBER, BUFFER_TOO_SMALL],
                    "ratio_to_decimal",
                );
                if let Some(text) = t.check(code, "ratio_to_decimal") {
                    assert!(denom != 0);
                    // Rounded down: the integer part is numer / denom, then exactly `places` digits
                    // (0..=18: more is refused, never clamped).
                    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
                    assert_eq!(whole, (numer / denom).to_string());
                    assert!((0..=18).contains(&places), "{places} places accepted");
                    assert!(frac.len() as i64 == places && frac.bytes().all(|b| b.is_ascii_digit()));
                } else if code == INVALID_NUMBER {
                    assert!(denom == 0 || !(0..=18).contains(&places), "refused {numer}/{denom} at {places}");
                }
            }
            Call::RatioParse { text: span, out } => {
                let b = span.buf();
                let mut slot = Slot::new(out, size_of::<fairmines_ratio>());
                let code = expect(
                    unsafe { fairmines_ratio_parse(b.ptr, b.len, slot.ptr()) },
                    &[NULL_POINTER, INVALID_UTF8, INVALID_NUMBER, RATIO_TOO_LARGE, LENGTH_TOO_LARGE],
                    "ratio_parse",
                );
                if code == OK {
                    let got: fairmines_ratio = slot.read();
                    let core: fairmines::Ratio = span.text().expect("accepted").parse().expect("parses");
                    assert_eq!((u128::from(got.numer), u128::from(got.denom)), (core.numer(), core.denom()));
                } else {
                    assert!(slot.untouched());
                }
            }
        }
    }

    fn take_pair(&mut self, code: u32, slot: &Slot) {
        if code == OK {
            let pair: *mut fairmines_seed_pair = slot.read();
            assert!(!pair.is_null());
            self.pairs.push((pair, self.epochs.len()));
            self.epochs.push(0);
        } else {
            assert!(slot.untouched(), "a handle was written on failure");
        }
    }

    /// The server and client seed of a live pair, through the API.
    fn pair_seeds(&self, pair: *mut fairmines_seed_pair) -> Option<(String, String)> {
        if pair.is_null() {
            return None;
        }
        let mut buf = vec![0 as c_char; 4096];
        let mut needed = 0usize;
        let status = unsafe { fairmines_seed_pair_to_state_json(pair, buf.as_mut_ptr(), buf.len(), &mut needed) };
        if status != fairmines_status::FAIRMINES_OK {
            // Only a client seed too long for the buffer; the caller then skips the checks.
            assert_eq!(status, fairmines_status::FAIRMINES_BUFFER_TOO_SMALL);
            buf = vec![0 as c_char; needed];
            let status = unsafe { fairmines_seed_pair_to_state_json(pair, buf.as_mut_ptr(), buf.len(), &mut needed) };
            assert_eq!(status, fairmines_status::FAIRMINES_OK);
        }
        let json = cstr(&buf[..needed - 1]);
        let value: serde_json::Value = serde_json::from_str(&json).expect("state JSON");
        Some((value["server_seed"].as_str()?.to_owned(), value["client_seed"].as_str()?.to_owned()))
    }

    /// The nonces of the pair's open rounds, through the API (room for all of them).
    fn open_rounds(&self, pair: *mut fairmines_seed_pair) -> Option<Vec<u64>> {
        if pair.is_null() {
            return None;
        }
        let mut count = 0usize;
        let mut nonces = vec![0u64; 1];
        let status = unsafe { fairmines_seed_pair_open_rounds(pair, nonces.as_mut_ptr(), 0, &mut count) };
        assert!(matches!(status, fairmines_status::FAIRMINES_OK | fairmines_status::FAIRMINES_BUFFER_TOO_SMALL));
        nonces.resize(count.max(1), 0);
        let status = unsafe { fairmines_seed_pair_open_rounds(pair, nonces.as_mut_ptr(), nonces.len(), &mut count) };
        assert_eq!(status, fairmines_status::FAIRMINES_OK);
        nonces.truncate(count);
        Some(nonces)
    }

    fn next_nonce(&self, pair: *mut fairmines_seed_pair) -> u64 {
        let mut nonce = 0u64;
        assert_eq!(unsafe { fairmines_seed_pair_nonce(pair, &mut nonce) }, fairmines_status::FAIRMINES_OK);
        nonce
    }

    /// The live rounds that pair `id` started since its last rotation and that are in play.
    fn in_play_rounds(&self, id: usize) -> Vec<*mut fairmines_round> {
        self.rounds
            .iter()
            .filter(|r| r.pair == id && r.epoch == self.epochs[id])
            .filter(|r| self.round_info(r.ptr).expect("live").outcome == fairmines_outcome::FAIRMINES_OUTCOME_IN_PLAY)
            .map(|r| r.ptr)
            .collect()
    }

    /// Their nonces.
    fn in_play(&self, id: usize) -> Vec<u64> {
        self.in_play_rounds(id).into_iter().map(|r| self.round_info(r).expect("live").nonce).collect()
    }

    /// The integrity rule for a move (reveal, cash-out) on a live round: accepted only while the round's
    /// seed pair has not rotated since it started (its server seed still secret), and a voided round
    /// refuses every move.
    fn check_move(
        &self,
        code: u32,
        played: Option<&Played>,
        before: Option<fairmines_round_info>,
        out: bool,
        what: &str,
    ) {
        let (Some(played), Some(before)) = (played, before) else { return };
        if code == OK {
            assert_eq!(self.epochs[played.pair], played.epoch, "{what}: a move after the seed pair revealed its seed");
        }
        if out && before.outcome == fairmines_outcome::FAIRMINES_OUTCOME_VOIDED {
            assert_eq!(code, ROUND_VOIDED, "{what}: a voided round");
        }
        if code == ROUND_VOIDED {
            assert_eq!(self.round_info(played.ptr).expect("live").outcome, fairmines_outcome::FAIRMINES_OUTCOME_VOIDED);
        }
    }

    fn round_info(&self, round: *mut fairmines_round) -> Option<fairmines_round_info> {
        if round.is_null() {
            return None;
        }
        let mut info = core::mem::MaybeUninit::<fairmines_round_info>::uninit();
        let status = unsafe { fairmines_round_get_info(round, info.as_mut_ptr()) };
        assert_eq!(status, fairmines_status::FAIRMINES_OK);
        Some(unsafe { info.assume_init() })
    }
}

/// The parts of a round's state that a refused call must leave alone.
#[derive(Debug, PartialEq)]
struct Info {
    picks: u8,
    safe_picks: u8,
    outcome: fairmines_outcome,
}

impl From<fairmines_round_info> for Info {
    fn from(i: fairmines_round_info) -> Info {
        Info { picks: i.pick_count, safe_picks: i.safe_picks, outcome: i.outcome }
    }
}

/// A mine count the library accepted, as a length.
fn mine_count(mines: i64) -> usize {
    assert!((1..=24).contains(&mines), "{mines} mines accepted");
    usize::try_from(mines).expect("1..=24")
}

fuzz_target!(|calls: Vec<Call>| {
    let mut state = State::default();
    for call in calls.into_iter().take(64) {
        state.call(call);
    }
    // `state` is dropped here: every live handle is freed (LeakSanitizer checks nothing is lost).
});
