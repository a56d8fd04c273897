//! The C API of fairmines: `libfairmines.a`, `libfairmines.so` and `include/fairmines.h` (whose banner states
//! the conventions). Thin: every function converts C arguments into the core's types, calls the core (which
//! holds every rule, message and error kind) and converts the result back, inside the panic boundary of
//! `boundary.rs`, which holds the unsafe pointer handling.
#![deny(unsafe_op_in_unsafe_fn)]
#![allow(non_camel_case_types)]
// The header, not rustdoc, documents the exported functions' safety contract for C callers.
#![allow(clippy::missing_safety_doc)]

mod boundary;
mod pair;
mod payout;
mod round;

pub use pair::*;
pub use payout::*;
pub use round::*;

use core::ffi::{CStr, c_char};
use core::ptr::NonNull;
use std::ffi::CString;
use std::sync::OnceLock;

use boundary::{Failure, input_bytes, input_str, optional_str, output, output_slice, room, status_call, value_call};
use boundary::{write_slice, write_value};
use fairmines::{Digest, ErrorKind, MineCount, Nonces, Number, Placement, Published, ServerSeed, Tiles};

/// Tiles on the board (5 x 5). Positions are 1..=25, draw order indices 0..=24.
pub const FAIRMINES_TILES: usize = 25;
/// Bytes of a hex output buffer: 64 lowercase hex characters and a terminating NUL.
pub const FAIRMINES_HEX_SIZE: usize = 65;

/// The result of every call. `FAIRMINES_OK` is 0; codes 1..=18 are the core library's error kinds (code, name
/// after `FAIRMINES_` and summary as in every binding); codes from 100 are specific to C.
/// `fairmines_last_error()` gives the message of the last failure on the thread, naming the argument.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_status {
    /// Success: the outputs were written.
    FAIRMINES_OK = 0,
    /// The mine count is not a whole number from 1 to 24.
    FAIRMINES_INVALID_MINES = 1,
    /// A nonce is not a whole number from 0 to 2^64 - 1.
    FAIRMINES_INVALID_NONCE = 2,
    /// A tile is not between 1 and 25, or a list of tiles cannot be a board.
    FAIRMINES_INVALID_TILE = 3,
    /// A digest or server seed is not 64 hexadecimal characters.
    FAIRMINES_INVALID_HEX = 4,
    /// A string is not valid UTF-8 (or, from UTF-16, holds a lone surrogate).
    FAIRMINES_INVALID_UTF8 = 5,
    /// A finite word source ran out before every mine was placed.
    FAIRMINES_STREAM_EXHAUSTED = 6,
    /// The operating system's random number generator failed.
    FAIRMINES_RNG_FAILED = 7,
    /// An output buffer is too small for the result.
    FAIRMINES_BUFFER_TOO_SMALL = 8,
    /// The tile was already revealed in this round.
    FAIRMINES_TILE_ALREADY_REVEALED = 9,
    /// The round has finished (a mine, or a cash-out): no more moves.
    FAIRMINES_ROUND_FINISHED = 10,
    /// A cash-out before the first safe pick.
    FAIRMINES_NOTHING_TO_CASH_OUT = 11,
    /// A return-to-player factor that is not a fraction in (0, 1].
    FAIRMINES_INVALID_RTP = 12,
    /// A number of safe picks that the round cannot have.
    FAIRMINES_INVALID_PICKS = 13,
    /// A number that does not parse or is out of range (a ratio, decimal places).
    FAIRMINES_INVALID_NUMBER = 14,
    /// Saved state or a round record that does not parse or does not hold together.
    FAIRMINES_INVALID_STATE = 15,
    /// The seed pair has rounds in play, so its server seed cannot be revealed.
    FAIRMINES_ROUNDS_IN_PLAY = 16,
    /// The round was voided so its server seed could be revealed: no more moves.
    FAIRMINES_ROUND_VOIDED = 17,
    /// No round of the seed pair to go on with at that nonce: none in play, one saved without its picks, or one already handed out.
    FAIRMINES_ROUND_NOT_IN_PLAY = 18,
    /// A required pointer argument is NULL.
    FAIRMINES_NULL_POINTER = 100,
    /// A length larger than any object can be (more than PTRDIFF_MAX).
    FAIRMINES_LENGTH_TOO_LARGE = 101,
    /// A bug: a Rust panic was caught at the boundary. Outputs are unspecified; please report it.
    FAIRMINES_PANIC = 102,
    /// An error kind of the core library that this C library does not know.
    FAIRMINES_UNKNOWN_ERROR = 103,
    /// An exact ratio whose numerator or denominator does not fit in 64 bits (`fairmines_ratio`).
    FAIRMINES_RATIO_TOO_LARGE = 104,
    /// The round is still in play: its mine positions and record exist once it has finished (or was voided).
    /// Not `FAIRMINES_ROUNDS_IN_PLAY` (16), a refused rotation.
    FAIRMINES_ROUND_IN_PLAY = 105,
}

/// The status of each core kind, in the order of `ErrorKind::ALL`: a kind added to the core does not compile
/// here until the enum has it, and a test checks every code, name and description.
#[rustfmt::skip]
const CORE_STATUSES: [fairmines_status; ErrorKind::ALL.len()] = {
    use fairmines_status::*;
    [
        FAIRMINES_INVALID_MINES, FAIRMINES_INVALID_NONCE, FAIRMINES_INVALID_TILE, FAIRMINES_INVALID_HEX,
        FAIRMINES_INVALID_UTF8, FAIRMINES_STREAM_EXHAUSTED, FAIRMINES_RNG_FAILED, FAIRMINES_BUFFER_TOO_SMALL,
        FAIRMINES_TILE_ALREADY_REVEALED, FAIRMINES_ROUND_FINISHED, FAIRMINES_NOTHING_TO_CASH_OUT,
        FAIRMINES_INVALID_RTP, FAIRMINES_INVALID_PICKS, FAIRMINES_INVALID_NUMBER, FAIRMINES_INVALID_STATE,
        FAIRMINES_ROUNDS_IN_PLAY, FAIRMINES_ROUND_VOIDED, FAIRMINES_ROUND_NOT_IN_PLAY,
    ]
};

impl From<ErrorKind> for fairmines_status {
    fn from(kind: ErrorKind) -> Self {
        ErrorKind::ALL.iter().position(|&k| k == kind).map_or(Self::FAIRMINES_UNKNOWN_ERROR, |i| CORE_STATUSES[i])
    }
}

/// The outcome of one check in `fairmines_verify()`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_check {
    /// Not requested (the declared value was NULL).
    FAIRMINES_CHECK_SKIPPED = 0,
    /// The declared value equals the recomputed one.
    FAIRMINES_CHECK_PASSED = 1,
    /// The declared value differs from the recomputed one.
    FAIRMINES_CHECK_FAILED = 2,
}

impl From<Option<bool>> for fairmines_check {
    fn from(ok: Option<bool>) -> Self {
        ok.map_or(Self::FAIRMINES_CHECK_SKIPPED, |ok| {
            if ok { Self::FAIRMINES_CHECK_PASSED } else { Self::FAIRMINES_CHECK_FAILED }
        })
    }
}

/// What `fairmines_verify()` concluded. UNCHECKED is 0, so a zeroed struct never reads as OK.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_verdict {
    /// No check was requested (neither a commitment nor positions): the round was only recomputed.
    FAIRMINES_VERDICT_UNCHECKED = 0,
    /// At least one check was requested, and every requested one PASSED.
    FAIRMINES_VERDICT_OK = 1,
    /// A requested check FAILED.
    FAIRMINES_VERDICT_MISMATCH = 2,
}

impl From<fairmines::Verdict> for fairmines_verdict {
    fn from(verdict: fairmines::Verdict) -> Self {
        match verdict {
            fairmines::Verdict::Ok => fairmines_verdict::FAIRMINES_VERDICT_OK,
            fairmines::Verdict::Mismatch => fairmines_verdict::FAIRMINES_VERDICT_MISMATCH,
            fairmines::Verdict::Unchecked => fairmines_verdict::FAIRMINES_VERDICT_UNCHECKED,
        }
    }
}

/// What `fairmines_verify()` recomputes and concludes: a plain value the caller owns (on the stack is fine).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fairmines_verification {
    /// SHA3-256 of the server seed: 64 lowercase hex characters and a NUL.
    pub commitment: [c_char; FAIRMINES_HEX_SIZE],
    /// The round signature: 64 lowercase hex characters and a NUL.
    pub signature: [c_char; FAIRMINES_HEX_SIZE],
    /// The mine count; the first `mines` entries of `positions` and `draw_order` are set.
    pub mines: u8,
    /// The recomputed mine positions: sorted, 1-based; entries past `mines` are 0.
    pub positions: [u8; FAIRMINES_TILES],
    /// The recomputed draw order: 0-based tile indices as drawn; entries past `mines` are 0.
    pub draw_order: [u8; FAIRMINES_TILES],
    /// How many 32-bit words of the SHAKE256 stream the placement read (rejected ones included).
    pub words_used: u32,
    /// The commitment check (SKIPPED when no commitment was given).
    pub commitment_ok: fairmines_check,
    /// The positions check (SKIPPED when no positions were given).
    pub positions_ok: fairmines_check,
    /// OK, MISMATCH, or UNCHECKED when no check was requested.
    pub verdict: fairmines_verdict,
    /// True exactly when `verdict` is OK (so false when nothing was checked).
    pub ok: bool,
}

/// The library's version, e.g. "0.1.0": a static string, never NULL, never to be freed. Compare it with
/// `FAIRMINES_VERSION_STRING` to catch a header that does not match the library.
#[unsafe(no_mangle)]
pub extern "C" fn fairmines_version() -> *const c_char {
    value_call(c"".as_ptr(), || concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast())
}

/// One sentence that describes a status (for codes 1..=18 the core's summary of the kind): a static string,
/// never NULL, never to be freed. Any other number gives "unknown status".
#[unsafe(no_mangle)]
pub extern "C" fn fairmines_status_str(status: u32) -> *const c_char {
    value_call(c"unknown status".as_ptr(), || {
        static SUMMARIES: OnceLock<Vec<CString>> = OnceLock::new();
        if let Some(i) = ErrorKind::ALL.iter().position(|kind| kind.code() == status) {
            let summaries = SUMMARIES.get_or_init(|| {
                ErrorKind::ALL.iter().map(|kind| CString::new(kind.summary()).expect("no NUL in a summary")).collect()
            });
            return summaries[i].as_ptr();
        }
        let text: &CStr = match status {
            0 => c"Success: the outputs were written.",
            100 => c"A required pointer argument is NULL.",
            101 => c"A length larger than any object can be.",
            102 => c"A bug: a Rust panic was caught at the boundary; please report it.",
            103 => c"An error kind of the core library that this C library does not know.",
            104 => c"An exact ratio too large for a 64-bit numerator and denominator.",
            105 => c"The round is still in play: its grid and record exist once it has finished.",
            _ => c"unknown status",
        };
        text.as_ptr()
    })
}

/// The message of the last failed call on the calling thread, naming the argument at fault, e.g. "client_seed:
/// is not valid UTF-8". Never NULL ("" before any failure). The string belongs to the library and stays valid
/// until the next failing fairmines call on the same thread; successful calls do not change it (like errno).
#[unsafe(no_mangle)]
pub extern "C" fn fairmines_last_error() -> *const c_char {
    value_call(c"".as_ptr(), boundary::last_error)
}

/// Writes `hex` and a NUL into the caller's 65-byte buffer.
/// # Safety: `out` must be valid for 65 bytes of writes.
pub(crate) unsafe fn write_hex(out: NonNull<c_char>, digest: &Digest) {
    // One copy of the 64 ASCII bytes and the NUL, no local buffer: this is on the path of every hex result.
    let hex = digest.to_hex();
    let out = out.cast::<u8>();
    // SAFETY: the caller guarantees 65 writable bytes: 64 here and the NUL at offset 64.
    unsafe {
        write_slice(out, hex.as_bytes());
        write_value(out.add(FAIRMINES_HEX_SIZE - 1), 0);
    }
}

/// 64 hex characters (a digest's, or a server seed's) and a NUL, as a struct field.
pub(crate) fn hex_array(text: &str) -> [c_char; FAIRMINES_HEX_SIZE] {
    let mut out = [0 as c_char; FAIRMINES_HEX_SIZE];
    for (d, s) in out.iter_mut().zip(text.bytes().take(FAIRMINES_HEX_SIZE - 1)) {
        *d = s as c_char;
    }
    out
}

/// The commitment of a server seed (a UTF-8 span): SHA3-256 of its text, as 64 lowercase hex characters and a
/// NUL into `out_hex`, which has room for `FAIRMINES_HEX_SIZE` (65) bytes. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_commitment(
    server_seed: *const c_char,
    server_seed_len: usize,
    out_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract: a non-NULL pointer has `server_seed_len` readable bytes.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let out_hex = output(out_hex, "out_hex")?;
        // SAFETY: the header's contract: `out_hex` has room for 65 bytes.
        unsafe { write_hex(out_hex, &fairmines::commitment(server_seed)) };
        Ok(())
    })
}

/// The round signature: SHA3-256 of `server_seed + ":" + client_seed + ":" + decimal(nonce)` (both seeds UTF-8
/// spans), as 64 lowercase hex characters and a NUL into `out_hex` (65 bytes). Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_signature(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    out_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let out_hex = output(out_hex, "out_hex")?;
        // SAFETY: the header's contract: `out_hex` has room for 65 bytes.
        unsafe { write_hex(out_hex, &fairmines::round_signature(server_seed, client_seed, nonce)) };
        Ok(())
    })
}

/// The body of `fairmines_mine_positions` and `fairmines_draw_order`; `out` is (buffer, capacity, name).
/// # Safety: the header's contract for the spans and the buffer.
unsafe fn tiles_call(
    server_seed: (*const c_char, usize),
    client_seed: (*const c_char, usize),
    nonce: u64,
    mines: i64,
    out: (*mut u8, usize, &'static str),
    pick: fn(&Placement) -> Tiles,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed.0, server_seed.1, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed.0, client_seed.1, "client_seed") }?;
        let buf = output(out.0, out.2)?;
        let mines = MineCount::try_from(Number::from(mines))?;
        room::<u8>(out.1, usize::from(mines.get()), out.2)?;
        let tiles = pick(&fairmines::placement(server_seed, client_seed, nonce, mines));
        // SAFETY: `buf` has `capacity >= mines == tiles.len()` writable bytes (checked above).
        unsafe { write_slice(buf, &tiles) };
        Ok(())
    })
}

/// The mine positions of a round: `mines` (1..=24) tile numbers, sorted ascending, 1-based and row-major (1 =
/// top-left, 5 = top-right, 25 = bottom-right). `out_positions` has room for `out_capacity >= mines` bytes;
/// exactly `mines` bytes are written. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`,
/// `FAIRMINES_INVALID_MINES`, `FAIRMINES_BUFFER_TOO_SMALL`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_mine_positions(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    out_positions: *mut u8,
    out_capacity: usize,
) -> fairmines_status {
    let (server, client, out) = (
        (server_seed, server_seed_len),
        (client_seed, client_seed_len),
        (out_positions, out_capacity, "out_positions"),
    );
    // SAFETY: the same contract as this function's.
    unsafe { tiles_call(server, client, nonce, mines, out, Placement::positions) }
}

/// The tiles of a round in the order they were drawn: `mines` 0-based tile indices (0..=24), unsorted. Same
/// arguments, buffer rule and errors as `fairmines_mine_positions()`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_draw_order(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    out_draw_order: *mut u8,
    out_capacity: usize,
) -> fairmines_status {
    let (server, client, out) = (
        (server_seed, server_seed_len),
        (client_seed, client_seed_len),
        (out_draw_order, out_capacity, "out_draw_order"),
    );
    // SAFETY: the same contract as this function's.
    unsafe { tiles_call(server, client, nonce, mines, out, Placement::draw_order) }
}

/// The mine positions of `count` consecutive rounds `nonce_start, nonce_start + 1, ...` of one seed pair, row
/// after row: `count * mines` bytes, each row as `fairmines_mine_positions()` writes it, using every core for
/// large batches. `out_positions` has room for `out_capacity >= count * mines` bytes and does not overlap the
/// seeds. `count` may be 0; a range whose last nonce would pass 2^64 - 1 is refused, and so is a batch of more
/// than 4 GiB (`count * mines > 2^32`: split it). Errors: as `fairmines_mine_positions()`, plus
/// `FAIRMINES_INVALID_NONCE` and `FAIRMINES_INVALID_NUMBER` (argument `nonces`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_mine_positions_batch(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce_start: u64,
    count: usize,
    mines: i64,
    out_positions: *mut u8,
    out_capacity: usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let buf = output(out_positions, "out_positions")?;
        let mines = MineCount::try_from(Number::from(mines))?;
        // The range first, so that "outputs only on success" does not hang on the core's order of checks.
        fairmines::input::nonce_range(nonce_start, count as u64)?;
        // SAFETY: the header's contract: `out_capacity` writable bytes (at most isize::MAX), not the seeds'.
        let out = unsafe { output_slice(buf, out_capacity.min(isize::MAX as usize)) };
        let nonces = Nonces::Range { start: nonce_start, count };
        fairmines::mine_positions_batch(server_seed, client_seed, nonces, mines, out).map_err(|error| {
            // The core names its buffer `out`.
            if error.argument() == Some("out") { Failure::named(error, "out_positions") } else { error.into() }
        })
    })
}

/// Verifies a finished round: recomputes commitment, signature and placement from the seeds and compares them
/// with what the operator declared. `commitment` (a span of 64 hex characters, either case) and `positions`
/// (`positions_len` 1-based tiles, any order) are optional: NULL skips that check. A failed check is not an
/// error: read `out->verdict` (or `out->ok`), `out->commitment_ok` and `out->positions_ok`. With both NULL
/// nothing is checked: the verdict is UNCHECKED and `ok` false. Errors: `FAIRMINES_NULL_POINTER` (seeds or
/// `out`), `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_HEX` (commitment),
/// `FAIRMINES_INVALID_TILE` (positions), `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_verify(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    mines: i64,
    commitment: *const c_char,
    commitment_len: usize,
    positions: *const u8,
    positions_len: usize,
    out: *mut fairmines_verification,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (the spans and `out`): the header's contract; NULL optional spans are `None`.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let out = output(out, "out")?;
        let commitment = unsafe { optional_str(commitment, commitment_len, "commitment") }?;
        let mut published = Published::parse(server_seed, client_seed, nonce, mines, commitment, None)?;
        if !positions.is_null() {
            // Bytes are tiles as they are: the core's rule for declared positions, without a copy.
            let tiles = unsafe { input_bytes(positions, positions_len, "positions") }?;
            published.positions = Some(Tiles::declared(tiles.iter().copied(), "positions")?);
        }
        let verdict = fairmines::verify(&published);
        let (placement, mut positions, mut draw_order) =
            (verdict.placement, [0; FAIRMINES_TILES], [0; FAIRMINES_TILES]);
        positions[..usize::from(placement.mines())].copy_from_slice(&placement.positions());
        draw_order[..usize::from(placement.mines())].copy_from_slice(&placement.draw_order());
        let result = fairmines_verification {
            commitment: hex_array(verdict.commitment.to_hex().as_str()),
            signature: hex_array(verdict.signature.to_hex().as_str()),
            mines: placement.mines(),
            positions,
            draw_order,
            words_used: placement.words_used(),
            commitment_ok: verdict.commitment_ok().into(),
            positions_ok: verdict.positions_ok().into(),
            verdict: verdict.verdict().into(),
            ok: verdict.is_ok(),
        };
        unsafe { write_value(out, result) };
        Ok(())
    })
}

/// A fresh server seed from the operating system's CSPRNG (32 random bytes as 64 lowercase hex characters) and
/// its commitment, into `out_seed_hex` and `out_commitment_hex` (65 bytes each). The seed is secret until its
/// seed pair is rotated out: wipe the buffer when done. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_RNG_FAILED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_server_seed_generate(
    out_seed_hex: *mut c_char,
    out_commitment_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        let out_seed = output(out_seed_hex, "out_seed_hex")?;
        let out_commitment = output(out_commitment_hex, "out_commitment_hex")?;
        // The core wipes its copy of the seed when `seed` is dropped.
        let seed = ServerSeed::generate()?;
        let mut text = hex_array(seed.reveal());
        // SAFETY: the header's contract: both buffers have room for 65 bytes.
        unsafe {
            write_slice(out_seed, &text);
            write_hex(out_commitment, &seed.commitment());
        }
        text.fill(0);
        // Keep the wipe of the local copy from being optimised away.
        core::hint::black_box(&text);
        Ok(())
    })
}

#[cfg(test)]
#[path = "../tests/rust/unit.rs"]
mod tests;
