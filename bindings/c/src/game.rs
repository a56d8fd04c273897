//! The game through C: seed pairs and rounds as opaque handles, exact payouts, and the replay of a
//! finished round's record. Every function converts arguments, calls the core and converts back.

use core::ffi::c_char;
use core::ptr::NonNull;

use fairmines::{MineCount, Outcome, Places, Ratio, RoundRecord, Rtp, SeedPair, ServerSeed, max_safe_picks};

use crate::boundary::{
    Failure, TextOut, free_handle, give_handle, handle_mut, handle_ref, input_str, output, output_buffer, status_call,
    write_bytes, write_value,
};
use crate::{FAIRMINES_HEX_SIZE, FAIRMINES_TILES, fairmines_status, write_hex};

/// The number of entries `fairmines_payout_table()` writes: every mine count 1..=24 with every number of
/// safe picks 1..=25 - mines (24 + 23 + ... + 1).
pub const FAIRMINES_PAYOUT_TABLE_SIZE: usize = 300;

/// An exact non-negative fraction `numer / denom` in lowest terms (`denom` is never 0 in a result).
///
/// The core computes with 128-bit fractions; a result whose numerator or denominator does not fit in
/// 64 bits is refused with `FAIRMINES_RATIO_TOO_LARGE` instead of being rounded. Every RTP factor whose
/// denominator in lowest terms is at most 10^12 (any decimal with up to 12 places, e.g. "0.99") gives
/// multipliers that always fit. `fairmines_ratio_decimal()` writes the decimal shown to users.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct fairmines_ratio {
    /// The numerator.
    pub numer: u64,
    /// The denominator.
    pub denom: u64,
}

/// How a round stands.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum fairmines_outcome {
    /// Still in play: more reveals or a cash-out may follow.
    FAIRMINES_OUTCOME_IN_PLAY = 0,
    /// A mine was revealed: the stake is lost.
    FAIRMINES_OUTCOME_LOST = 1,
    /// Cashed out (or every safe tile revealed): the multiplier is paid.
    FAIRMINES_OUTCOME_CASHED_OUT = 2,
    /// Voided by its seed pair (`fairmines_seed_pair_void_open_rounds()`) while in play: no more moves, no
    /// multiplier; the operator returns the stake.
    FAIRMINES_OUTCOME_VOIDED = 3,
}

impl From<Option<Outcome>> for fairmines_outcome {
    fn from(outcome: Option<Outcome>) -> Self {
        match outcome {
            None => fairmines_outcome::FAIRMINES_OUTCOME_IN_PLAY,
            Some(Outcome::Lost) => fairmines_outcome::FAIRMINES_OUTCOME_LOST,
            Some(Outcome::CashedOut) => fairmines_outcome::FAIRMINES_OUTCOME_CASHED_OUT,
            Some(Outcome::Voided) => fairmines_outcome::FAIRMINES_OUTCOME_VOIDED,
        }
    }
}

/// An operator's seed pair: the secret server seed with its public commitment, the player's client
/// seed, the nonce of the next round and the rounds in play. Opaque; made by `fairmines_seed_pair_new()`,
/// `fairmines_seed_pair_from_parts()` or `fairmines_seed_pair_from_state_json()`, released by
/// `fairmines_seed_pair_free()`.
pub struct fairmines_seed_pair {
    pair: SeedPair,
}

/// One round in play or finished. Opaque; made by `fairmines_seed_pair_start_round()`, released by
/// `fairmines_round_free()`. Either the round or its seed pair may be freed first; while both live,
/// voiding the pair's open rounds reaches the round. A round freed while in play stays in play for
/// its pair (which then refuses to rotate until it is voided).
pub struct fairmines_round {
    round: fairmines::Round,
}

/// The seed pair that `fairmines_seed_pair_rotate()` ended. Its server seed may now be published.
/// A plain value: the caller owns it; wipe `server_seed` if it must not linger in memory.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fairmines_revealed_seed_pair {
    /// The old server seed: 64 lowercase hex characters and a NUL.
    pub server_seed: [c_char; FAIRMINES_HEX_SIZE],
    /// Its commitment (SHA3-256 of the seed text), as published before play: 64 hex characters and a NUL.
    pub commitment: [c_char; FAIRMINES_HEX_SIZE],
    /// How many rounds the old pair played: nonces 0 .. rounds - 1 (when it started at nonce 0).
    pub rounds: u64,
}

/// What `fairmines_round_reveal()` found.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct fairmines_reveal {
    /// True when the tile was a mine: the round is lost.
    pub is_mine: bool,
    /// True when the round has now ended: a mine, or the last safe tile (which cashes out).
    pub is_finished: bool,
    /// Safe tiles revealed so far in the round.
    pub safe_picks: u8,
    /// The multiplier a cash-out pays now (paid, when the last safe tile finished the round); 0/1 on a mine.
    pub multiplier: fairmines_ratio,
}

/// The state of a round, from `fairmines_round_get_info()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fairmines_round_info {
    /// The commitment of the seed pair the round is played with: 64 hex characters and a NUL.
    pub commitment: [c_char; FAIRMINES_HEX_SIZE],
    /// The nonce the round uses.
    pub nonce: u64,
    /// The mine count.
    pub mines: u8,
    /// Tiles revealed so far (safe ones and, in a lost round, the mine).
    pub picks: u8,
    /// Safe tiles revealed so far.
    pub safe_picks: u8,
    /// In play, lost, cashed out or voided.
    pub outcome: fairmines_outcome,
    /// False before the first safe pick, after a mine and once voided; then `multiplier` is 0/1.
    pub has_multiplier: bool,
    /// What a cash-out pays now, or paid.
    pub multiplier: fairmines_ratio,
    /// The return-to-player factor the multipliers include.
    pub rtp: fairmines_ratio,
}

/// The replay of a finished round's record, from `fairmines_verify_round_json()`.
/// A plain value: the caller owns it, nothing inside needs freeing.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct fairmines_round_verification {
    /// True when the record is exactly what the seeds and picks give (no differences).
    pub ok: bool,
    /// True when SHA3-256 of the revealed server seed equals the record's commitment.
    pub commitment_ok: bool,
    /// The record's mine count; the first `mines` entries of `mine_positions` are set.
    pub mines: u8,
    /// Where the mines were: sorted, 1-based; entries past `mines` are 0.
    pub mine_positions: [u8; FAIRMINES_TILES],
    /// The outcome the picks lead to (never IN_PLAY): LOST, CASHED_OUT, or VOIDED for a voided record
    /// whose picks are all safe and leave a safe tile closed.
    pub expected_outcome: fairmines_outcome,
    /// False when the picks lose or the round was voided; then `expected_multiplier` is 0/1.
    pub has_expected_multiplier: bool,
    /// The multiplier the picks lead to.
    pub expected_multiplier: fairmines_ratio,
    /// How many differences were found (lines in the differences text).
    pub difference_count: usize,
}

/// One entry of `fairmines_payout_table()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct fairmines_payout_entry {
    /// Mines in the round, 1..=24.
    pub mines: u8,
    /// Safe picks made, 1..=25 - mines.
    pub safe_picks: u8,
    /// The exact multiplier.
    pub multiplier: fairmines_ratio,
}

const ZERO: fairmines_ratio = fairmines_ratio { numer: 0, denom: 1 };

/// A core ratio as a C ratio, or `FAIRMINES_RATIO_TOO_LARGE` naming `argument`.
pub(crate) fn c_ratio(ratio: Ratio, argument: &str) -> Result<fairmines_ratio, Failure> {
    match (u64::try_from(ratio.numer()), u64::try_from(ratio.denom())) {
        (Ok(numer), Ok(denom)) => Ok(fairmines_ratio { numer, denom }),
        _ => Err(Failure::new(
            fairmines_status::FAIRMINES_RATIO_TOO_LARGE,
            format!("{argument}: the exact value {ratio} does not fit in a 64-bit numerator and denominator"),
        )),
    }
}

/// Every multiplier a round with `mines` and `rtp` can reach must fit a `fairmines_ratio`, so that
/// reveals and cash-outs never fail after they changed the round.
fn check_round_fits(mines: MineCount, rtp: Rtp) -> Result<(), Failure> {
    c_ratio(rtp.factor(), "rtp")?;
    for safe_picks in 1..=max_safe_picks(mines) {
        c_ratio(fairmines::multiplier(mines, safe_picks, rtp)?, "rtp")?;
    }
    Ok(())
}

fn hex_array(text: &str) -> [c_char; FAIRMINES_HEX_SIZE] {
    let mut out = [0 as c_char; FAIRMINES_HEX_SIZE];
    for (d, s) in out.iter_mut().zip(text.bytes().take(FAIRMINES_HEX_SIZE - 1)) {
        *d = s as c_char;
    }
    out
}

fn in_play(what: &str) -> Failure {
    Failure::new(
        fairmines_status::FAIRMINES_ROUND_IN_PLAY,
        format!("round: is still in play; its {what} exists once it has finished"),
    )
}

// ---------------------------------------------------------------------------------------- seed pairs

/// A new seed pair: a fresh server seed from the operating system's CSPRNG, the player's client seed
/// (a UTF-8 span), nonce 0.
///
/// On `FAIRMINES_OK`, `*out_pair` receives a new handle that the caller owns and must release with
/// `fairmines_seed_pair_free()`. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`,
/// `FAIRMINES_LENGTH_TOO_LARGE`, `FAIRMINES_RNG_FAILED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_new(
    client_seed: *const c_char,
    client_seed_len: usize,
    out_pair: *mut *mut fairmines_seed_pair,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let out = output(out_pair, "out_pair")?;
        let pair = SeedPair::new(client_seed)?;
        // SAFETY: the header's contract: `out_pair` points to a writable pointer.
        unsafe { give_handle(out, fairmines_seed_pair { pair }) };
        Ok(())
    })
}

/// A seed pair from parts the operator already has: the server seed as stored (exactly 64 lowercase hex
/// characters), the client seed (UTF-8) and the nonce of the next round.
///
/// On `FAIRMINES_OK`, `*out_pair` receives a new handle owned by the caller (`fairmines_seed_pair_free()`).
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_HEX` (server_seed),
/// `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_from_parts(
    server_seed: *const c_char,
    server_seed_len: usize,
    client_seed: *const c_char,
    client_seed_len: usize,
    nonce: u64,
    out_pair: *mut *mut fairmines_seed_pair,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        let out = output(out_pair, "out_pair")?;
        let pair = SeedPair::from_parts(ServerSeed::from_hex(server_seed)?, client_seed, nonce);
        // SAFETY: the header's contract: `out_pair` points to a writable pointer.
        unsafe { give_handle(out, fairmines_seed_pair { pair }) };
        Ok(())
    })
}

/// Restores a seed pair from the JSON of `fairmines_seed_pair_state_json()` (a UTF-8 span), checking
/// that the commitment belongs to the server seed and that the open rounds are distinct nonces the pair
/// has used. An unknown field is refused, naming it.
///
/// The rounds listed as open stay open in the restored pair: it refuses to rotate
/// (`FAIRMINES_ROUNDS_IN_PLAY`) until they are voided (`fairmines_seed_pair_void_open_rounds()`). The
/// restored pair is a new value that does not reach the rounds of the pair the state was saved from:
/// keep one live copy of a seed pair (restore after a restart, not beside the original).
///
/// On `FAIRMINES_OK`, `*out_pair` receives a new handle owned by the caller (`fairmines_seed_pair_free()`).
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_STATE`,
/// `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_from_state_json(
    state: *const c_char,
    state_len: usize,
    out_pair: *mut *mut fairmines_seed_pair,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let state = unsafe { input_str(state, state_len, "state") }?;
        let out = output(out_pair, "out_pair")?;
        let pair = SeedPair::from_state_json(state)?;
        // SAFETY: the header's contract: `out_pair` points to a writable pointer.
        unsafe { give_handle(out, fairmines_seed_pair { pair }) };
        Ok(())
    })
}

/// Writes `text` through the text-output convention, after checking every pointer.
///
/// # Safety
/// The header's text-output contract for `out`, `capacity` and `out_needed`.
unsafe fn text_call(
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
    text: impl FnOnce() -> Result<String, Failure>,
) -> Result<(), Failure> {
    let sink = TextOut::new(out, capacity, out_needed, "out", "out_needed")?;
    let text = text()?;
    // SAFETY: the header's contract for the buffer and `out_needed`.
    unsafe { sink.put(text.as_bytes()) }
}

/// The full state of a seed pair as JSON, for the operator's own storage:
/// `{"server_seed":…,"commitment":…,"client_seed":…,"nonce":n,"open_rounds":[nonces in play]}`. It
/// contains the SECRET server seed: wipe the buffer when done, never show it to the player.
///
/// Text output: see "API conventions" (`out`, `capacity`, `out_needed`). Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_state_json(
    pair: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_ref(pair, "pair") }?;
        // SAFETY: the header's text-output contract.
        unsafe { text_call(out, capacity, out_needed, || Ok(pair.pair.to_state_json())) }
    })
}

/// What the player may see of a seed pair, as JSON: `{"commitment":…,"client_seed":…,"nonce":n}`.
///
/// Text output: see "API conventions". Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_public_json(
    pair: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_ref(pair, "pair") }?;
        // SAFETY: the header's text-output contract.
        unsafe { text_call(out, capacity, out_needed, || Ok(pair.pair.public().to_json())) }
    })
}

/// The commitment of the active server seed (public: show it before play) into `out_hex`
/// (`FAIRMINES_HEX_SIZE` bytes: 64 lowercase hex characters and a NUL).
/// Errors: `FAIRMINES_NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_commitment(
    pair: *const fairmines_seed_pair,
    out_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_ref(pair, "pair") }?;
        let out_hex = output(out_hex, "out_hex")?;
        // SAFETY: the header's contract: `out_hex` has room for 65 bytes.
        unsafe { write_hex(out_hex, &pair.pair.public().commitment) };
        Ok(())
    })
}

/// The client seed, NUL-terminated (its byte length is `*out_needed - 1`; it may contain NUL bytes if it
/// was given with them).
///
/// Text output: see "API conventions". Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_client_seed(
    pair: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_ref(pair, "pair") }?;
        // SAFETY: the header's text-output contract.
        unsafe { text_call(out, capacity, out_needed, || Ok(pair.pair.public().client_seed)) }
    })
}

/// The nonce the next round will use. Errors: `FAIRMINES_NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_nonce(
    pair: *const fairmines_seed_pair,
    out_nonce: *mut u64,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_ref(pair, "pair") }?;
        let out = output(out_nonce, "out_nonce")?;
        // SAFETY: the header's contract: `out_nonce` points to a writable uint64_t.
        unsafe { write_value(out, pair.pair.public().nonce) };
        Ok(())
    })
}

/// Starts a round with the pair's current nonce, then increments the nonce. The grid is fixed now,
/// before any pick.
///
/// `mines` is 1..=24 (any other value gives `FAIRMINES_INVALID_MINES`); `rtp` is the return-to-player
/// factor as text (a UTF-8 span): a fraction such as "99/100", a decimal such as "0.99", or "1"; above 0
/// and at most 1. On `FAIRMINES_OK`, `*out_round` receives a new handle owned by the caller
/// (`fairmines_round_free()`); on any error the pair is unchanged. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_RTP`,
/// `FAIRMINES_RATIO_TOO_LARGE` (an RTP whose multipliers do not fit `fairmines_ratio`),
/// `FAIRMINES_INVALID_NONCE` (the pair has used nonce 2^64 - 1: rotate it), `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_start_round(
    pair: *mut fairmines_seed_pair,
    mines: i64,
    rtp: *const c_char,
    rtp_len: usize,
    out_round: *mut *mut fairmines_round,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_mut(pair, "pair") }?;
        // SAFETY: the header's contract for the span.
        let rtp = unsafe { input_str(rtp, rtp_len, "rtp") }?;
        let out = output(out_round, "out_round")?;
        let mines = MineCount::try_from(mines)?;
        let rtp = Rtp::parse(rtp)?;
        check_round_fits(mines, rtp)?;
        let round = pair.pair.start_round(mines, rtp)?;
        // SAFETY: the header's contract: `out_round` points to a writable pointer.
        unsafe { give_handle(out, fairmines_round { round }) };
        Ok(())
    })
}

/// Ends the active seed pair and starts a new one in the same handle: a fresh server seed from the
/// OS CSPRNG, a new commitment, nonce 0, and `new_client_seed` as the client seed (a UTF-8 span; pass
/// NULL to keep the current one, the length is then ignored). `*out_revealed` receives the old server
/// seed, which may now be published so that the player can verify the rounds of the old pair.
/// Changing the client seed is a rotation too (it reveals the old server seed).
///
/// The server seed is revealed only when no round can move: while a round started from the pair is in
/// play (neither finished nor voided, a round freed while in play or listed as open in a restored state
/// included) the call is refused with `FAIRMINES_ROUNDS_IN_PLAY`, whose message lists their nonces.
/// Finish those rounds, or void them with `fairmines_seed_pair_void_open_rounds()`, then rotate.
///
/// On any error the pair is unchanged and `*out_revealed` untouched. Errors: `FAIRMINES_NULL_POINTER`
/// (pair, out_revealed), `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`,
/// `FAIRMINES_ROUNDS_IN_PLAY`, `FAIRMINES_RNG_FAILED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_rotate(
    pair: *mut fairmines_seed_pair,
    new_client_seed: *const c_char,
    new_client_seed_len: usize,
    out_revealed: *mut fairmines_revealed_seed_pair,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_mut(pair, "pair") }?;
        let new_client_seed = if new_client_seed.is_null() {
            None
        } else {
            // SAFETY: the header's contract for the span.
            Some(unsafe { input_str(new_client_seed, new_client_seed_len, "new_client_seed") }?)
        };
        let out = output(out_revealed, "out_revealed")?;
        let revealed = pair.pair.rotate(new_client_seed)?;
        let mut result = fairmines_revealed_seed_pair {
            server_seed: hex_array(&revealed.server_seed),
            commitment: hex_array(revealed.commitment.to_hex().as_str()),
            rounds: revealed.rounds,
        };
        // SAFETY: the header's contract: `out_revealed` points to a writable struct.
        unsafe { write_value(out, result) };
        // Wipe the local copy of the old seed (the core's `String` in `revealed` is the caller's to
        // publish anyway; this copy on our stack need not linger).
        result.server_seed.fill(0);
        core::hint::black_box(&result);
        Ok(())
    })
}

/// Writes `*out_count = n` and checks that `capacity` nonces make room for `n`.
///
/// # Safety
/// `count` must be valid for a write of one `size_t`.
unsafe fn nonce_room(count: NonNull<usize>, capacity: usize, n: usize) -> Result<(), Failure> {
    // SAFETY: guaranteed by the caller.
    unsafe { write_value(count, n) };
    if capacity < n {
        return Err(Failure::new(
            fairmines_status::FAIRMINES_BUFFER_TOO_SMALL,
            format!("out_nonces: {n} rounds are in play, the buffer has room for {capacity} nonces"),
        ));
    }
    Ok(())
}

/// The nonces of the pair's rounds in play, ascending: started and neither finished nor voided (a
/// round freed while in play, and those listed as open in the state the pair was restored from,
/// included). While any is in play, `fairmines_seed_pair_rotate()` is refused.
///
/// Nonce-list output (the caller's buffer; nothing is allocated): `out_nonces` has room for `capacity`
/// nonces (`uint64_t`). `*out_count` receives the number of rounds in play on `FAIRMINES_OK`, and on
/// `FAIRMINES_BUFFER_TOO_SMALL`, when `out_nonces` is untouched: call again with room for that many.
/// `out_nonces` must be non-NULL even with capacity 0. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_open_rounds(
    pair: *const fairmines_seed_pair,
    out_nonces: *mut u64,
    capacity: usize,
    out_count: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_ref(pair, "pair") }?;
        let out = output(out_nonces, "out_nonces")?;
        let count = output(out_count, "out_count")?;
        let nonces = pair.pair.open_rounds();
        // SAFETY: the header's contract: `out_count` points to a writable size_t, and `out_nonces` has
        // room for `capacity >= nonces.len()` nonces (checked by `nonce_room`).
        unsafe {
            nonce_room(count, capacity, nonces.len())?;
            write_bytes(out, &nonces);
        }
        Ok(())
    })
}

/// Voids every round of the pair in play and writes their nonces, ascending: each refuses every later
/// reveal and cash-out with `FAIRMINES_ROUND_VOIDED`, its outcome is `FAIRMINES_OUTCOME_VOIDED` and its
/// record says `"outcome":"voided"` with no multiplier (the operator returns the stake). Afterwards the
/// pair can rotate. With no round in play it voids nothing and writes `*out_count = 0`.
///
/// The same nonce-list output as `fairmines_seed_pair_open_rounds()`. On `FAIRMINES_BUFFER_TOO_SMALL`
/// nothing is voided: `*out_count` receives the number of rounds in play and `out_nonces` is untouched.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_void_open_rounds(
    pair: *mut fairmines_seed_pair,
    out_nonces: *mut u64,
    capacity: usize,
    out_count: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { handle_mut(pair, "pair") }?;
        let out = output(out_nonces, "out_nonces")?;
        let count = output(out_count, "out_count")?;
        // SAFETY: the header's contract: `out_count` points to a writable size_t.
        unsafe { nonce_room(count, capacity, pair.pair.open_rounds().len()) }?;
        // Between the two calls only rounds (other handles, maybe on other threads) can change the list,
        // and they can only leave it by finishing: `voided` fits the room checked above.
        let voided = pair.pair.void_open_rounds();
        // SAFETY: as above; `out_nonces` has room for `capacity >= voided.len()` nonces.
        unsafe {
            write_value(count, voided.len());
            write_bytes(out, &voided);
        }
        Ok(())
    })
}

/// Releases a seed pair (its server seed is wiped from memory). NULL is a no-op. Using `pair` after
/// this call, or freeing it twice, is undefined behaviour: the caller's responsibility.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_free(pair: *mut fairmines_seed_pair) {
    // SAFETY: the header's contract: `pair` is NULL or a live handle of this library.
    crate::boundary::value_call((), || unsafe { free_handle(pair) })
}

// ---------------------------------------------------------------------------------------- rounds

/// Reveals `tile` (1..=25, row-major: 1 = top-left, 25 = bottom-right) and writes what it was into
/// `*out_result`. A mine ends the round (lost); revealing the last safe tile ends it too (cashed out,
/// `is_finished` set).
///
/// On any error the round is unchanged and `*out_result` untouched. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_TILE` (outside 1..=25), `FAIRMINES_TILE_ALREADY_REVEALED`,
/// `FAIRMINES_ROUND_FINISHED`, `FAIRMINES_ROUND_VOIDED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_reveal(
    round: *mut fairmines_round,
    tile: i64,
    out_result: *mut fairmines_reveal,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let handle = unsafe { handle_mut(round, "round") }?;
        let out = output(out_result, "out_result")?;
        let result = match handle.round.reveal(tile)? {
            fairmines::Reveal::Mine => fairmines_reveal {
                is_mine: true,
                is_finished: true,
                safe_picks: handle.round.safe_picks(),
                multiplier: ZERO,
            },
            fairmines::Reveal::Safe { safe_picks, multiplier } => fairmines_reveal {
                is_mine: false,
                is_finished: handle.round.is_finished(),
                safe_picks,
                // Cannot fail: start_round checked that every multiplier of the round fits.
                multiplier: c_ratio(multiplier, "multiplier")?,
            },
        };
        // SAFETY: the header's contract: `out_result` points to a writable struct.
        unsafe { write_value(out, result) };
        Ok(())
    })
}

/// Ends the round and writes the multiplier to pay into `*out_multiplier`. Needs at least one safe pick.
///
/// On any error the round is unchanged. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_NOTHING_TO_CASH_OUT`,
/// `FAIRMINES_ROUND_FINISHED`, `FAIRMINES_ROUND_VOIDED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_cash_out(
    round: *mut fairmines_round,
    out_multiplier: *mut fairmines_ratio,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let handle = unsafe { handle_mut(round, "round") }?;
        let out = output(out_multiplier, "out_multiplier")?;
        // Cannot fail after the cash-out: start_round checked that every multiplier of the round fits.
        let multiplier = c_ratio(handle.round.cash_out()?, "multiplier")?;
        // SAFETY: the header's contract: `out_multiplier` points to a writable struct.
        unsafe { write_value(out, multiplier) };
        Ok(())
    })
}

/// The public record of a finished (or voided) round as JSON, the form operators publish and
/// `fairmines_verify_round_json()` reads: `{"commitment":…,"client_seed":…,"nonce":n,"mines":m,
/// "rtp":"99/100","picks":[…],"outcome":"lost"|"cashed_out"|"voided","multiplier":"num/den"|null}`
/// (null after a mine and for a voided round).
///
/// Text output: see "API conventions". Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_ROUND_IN_PLAY`,
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_record_json(
    round: *const fairmines_round,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let handle = unsafe { handle_ref(round, "round") }?;
        // SAFETY: the header's text-output contract.
        unsafe {
            text_call(out, capacity, out_needed, || {
                handle.round.record().map(|r| r.to_json()).ok_or_else(|| in_play("record"))
            })
        }
    })
}

/// The mine positions of a finished (or voided) round (sorted, 1-based): exactly `mines` bytes into
/// `out_positions`, which must have room for `capacity >= mines` bytes. While the round is in play the
/// grid stays hidden: `FAIRMINES_ROUND_IN_PLAY`.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_ROUND_IN_PLAY`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_mine_positions(
    round: *const fairmines_round,
    out_positions: *mut u8,
    capacity: usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let handle = unsafe { handle_ref(round, "round") }?;
        output(out_positions, "out_positions")?;
        let positions = handle.round.mine_positions().ok_or_else(|| in_play("grid"))?;
        let out = output_buffer(out_positions, capacity, positions.len(), "out_positions")?;
        // SAFETY: `out` has `capacity >= positions.len()` writable bytes (checked above).
        unsafe { write_bytes(out, &positions) };
        Ok(())
    })
}

/// The tiles picked so far, in order (1-based): `*out_count` (0..=25) bytes into `out_picks`, which
/// has room for `capacity` bytes (`FAIRMINES_TILES` is always enough). `*out_count` is written on
/// `FAIRMINES_OK` and on `FAIRMINES_BUFFER_TOO_SMALL` (then the buffer is untouched).
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_picks(
    round: *const fairmines_round,
    out_picks: *mut u8,
    capacity: usize,
    out_count: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let handle = unsafe { handle_ref(round, "round") }?;
        let out = output(out_picks, "out_picks")?;
        let count = output(out_count, "out_count")?;
        let picks = handle.round.picks();
        // SAFETY: the header's contract: `out_count` points to a writable size_t.
        unsafe { write_value(count, picks.len()) };
        output_buffer(out.as_ptr(), capacity, picks.len(), "out_picks")?;
        // SAFETY: `out` has `capacity >= picks.len()` writable bytes (checked above).
        unsafe { write_bytes(out, picks) };
        Ok(())
    })
}

/// The state of a round into `*out_info`: commitment, nonce, mines, picks, outcome, multiplier and RTP.
/// Errors: `FAIRMINES_NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_get_info(
    round: *const fairmines_round,
    out_info: *mut fairmines_round_info,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let handle = unsafe { handle_ref(round, "round") }?;
        let out = output(out_info, "out_info")?;
        let round = &handle.round;
        let multiplier = round.multiplier().map(|m| c_ratio(m, "multiplier")).transpose()?;
        let info = fairmines_round_info {
            commitment: hex_array(round.commitment().to_hex().as_str()),
            nonce: round.nonce(),
            mines: round.mines().get(),
            picks: round.picks().len() as u8,
            safe_picks: round.safe_picks(),
            outcome: round.outcome().into(),
            has_multiplier: multiplier.is_some(),
            multiplier: multiplier.unwrap_or(ZERO),
            rtp: c_ratio(round.rtp().factor(), "rtp")?,
        };
        // SAFETY: the header's contract: `out_info` points to a writable struct.
        unsafe { write_value(out, info) };
        Ok(())
    })
}

/// Releases a round. NULL is a no-op. Using `round` after this call, or freeing it twice, is undefined
/// behaviour: the caller's responsibility.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_free(round: *mut fairmines_round) {
    // SAFETY: the header's contract: `round` is NULL or a live handle of this library.
    crate::boundary::value_call((), || unsafe { free_handle(round) })
}

// ---------------------------------------------------------------------------------------- replay, payouts

/// Replays a finished round from its published record (the JSON of `fairmines_round_record_json()`, a
/// UTF-8 span) and the server seed revealed after rotation (a UTF-8 span), and says what differs.
///
/// A voided record verifies when its picks are all safe and leave a safe tile closed; it pays nothing.
/// A record with an unknown field is refused (`FAIRMINES_INVALID_STATE`, naming the field).
/// A record that does not verify is not an error: on `FAIRMINES_OK`, `out->ok` is the verdict and the
/// differences are written into `differences` as text, one per line, each ending in '\n', then a NUL
/// ("" when the record verifies). `differences` follows the text-output convention (`capacity`,
/// `differences_needed`; 4096 bytes is plenty for any record). On `FAIRMINES_BUFFER_TOO_SMALL` only
/// `*differences_needed` is written.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_STATE` (not a record),
/// `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_TILE` (picks), `FAIRMINES_RATIO_TOO_LARGE`,
/// `FAIRMINES_BUFFER_TOO_SMALL`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)] // the shape of the C API
pub unsafe extern "C" fn fairmines_verify_round_json(
    record_json: *const c_char,
    record_json_len: usize,
    server_seed: *const c_char,
    server_seed_len: usize,
    out: *mut fairmines_round_verification,
    differences: *mut c_char,
    capacity: usize,
    differences_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for both spans.
        let record_json = unsafe { input_str(record_json, record_json_len, "record_json") }?;
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let out = output(out, "out")?;
        let sink = TextOut::new(differences, capacity, differences_needed, "differences", "differences_needed")?;
        let record = RoundRecord::from_json(record_json)?;
        let verdict = fairmines::verify_round(&record, server_seed)?;
        let expected = verdict.expected_multiplier.map(|m| c_ratio(m, "expected_multiplier")).transpose()?;
        let mut mine_positions = [0u8; FAIRMINES_TILES];
        mine_positions[..verdict.mine_positions.len()].copy_from_slice(&verdict.mine_positions);
        let result = fairmines_round_verification {
            ok: verdict.is_ok(),
            commitment_ok: verdict.commitment_ok,
            mines: record.mines,
            mine_positions,
            expected_outcome: Some(verdict.expected_outcome).into(),
            has_expected_multiplier: expected.is_some(),
            expected_multiplier: expected.unwrap_or(ZERO),
            difference_count: verdict.differences.len(),
        };
        let text: String = verdict.differences.iter().map(|d| format!("{d}\n")).collect();
        // SAFETY: the header's contract for `differences`, `differences_needed` and `out`.
        unsafe {
            sink.reserve(text.as_bytes())?;
            sink.write(text.as_bytes());
            write_value(out, result);
        }
        Ok(())
    })
}

/// The exact multiplier after `safe_picks` safe picks with `mines` mines: C(25, k) / C(25 - m, k) x RTP,
/// into `*out_ratio`. `mines` is 1..=24 and `safe_picks` 1..=25 - mines (any other value is refused,
/// never narrowed); `rtp` as in `fairmines_seed_pair_start_round()`.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_MINES`,
/// `FAIRMINES_INVALID_PICKS` (outside 1..=25 - mines), `FAIRMINES_INVALID_RTP`,
/// `FAIRMINES_RATIO_TOO_LARGE`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_multiplier(
    mines: i64,
    safe_picks: i64,
    rtp: *const c_char,
    rtp_len: usize,
    out_ratio: *mut fairmines_ratio,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let rtp = unsafe { input_str(rtp, rtp_len, "rtp") }?;
        let out = output(out_ratio, "out_ratio")?;
        let mines = MineCount::try_from(mines)?;
        let rtp = Rtp::parse(rtp)?;
        let ratio = c_ratio(fairmines::multiplier(mines, safe_picks, rtp)?, "multiplier")?;
        // SAFETY: the header's contract: `out_ratio` points to a writable struct.
        unsafe { write_value(out, ratio) };
        Ok(())
    })
}

/// The whole payout table for an RTP factor: `FAIRMINES_PAYOUT_TABLE_SIZE` (300) entries, by mine count
/// 1..=24 and then safe picks 1..=25 - mines, into `out_entries`, which must have room for `capacity >=
/// FAIRMINES_PAYOUT_TABLE_SIZE` entries.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_RTP`,
/// `FAIRMINES_RATIO_TOO_LARGE`, `FAIRMINES_BUFFER_TOO_SMALL`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_payout_table(
    rtp: *const c_char,
    rtp_len: usize,
    out_entries: *mut fairmines_payout_entry,
    capacity: usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let rtp = unsafe { input_str(rtp, rtp_len, "rtp") }?;
        let out = output(out_entries, "out_entries")?;
        let rtp = Rtp::parse(rtp)?;
        let entries = fairmines::payout_table(rtp)
            .into_iter()
            .map(|e| {
                Ok(fairmines_payout_entry {
                    mines: e.mines,
                    safe_picks: e.safe_picks,
                    multiplier: c_ratio(e.multiplier, "multiplier")?,
                })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        if capacity < entries.len() {
            return Err(Failure::new(
                fairmines_status::FAIRMINES_BUFFER_TOO_SMALL,
                format!("out_entries: the table has {} entries, the buffer has room for {capacity}", entries.len()),
            ));
        }
        // SAFETY: the header's contract: `out_entries` has room for `capacity >= entries.len()` entries.
        unsafe { write_bytes(out, &entries) };
        Ok(())
    })
}

/// The decimal shown to users: `ratio` rounded DOWN (toward zero) to `places` decimal places, 0..=18,
/// so a displayed multiplier never promises more than the exact one, e.g. 9/8 with 2 places is "1.12".
/// The ratio need not be in lowest terms. `places` outside 0..=18 is refused, never clamped.
///
/// Text output: see "API conventions". Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_NUMBER`
/// (denominator 0, naming `ratio`; `places` outside 0..=18, naming `places`), `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_ratio_decimal(
    ratio: fairmines_ratio,
    places: i64,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's text-output contract.
        unsafe {
            text_call(out, capacity, out_needed, || {
                let exact = Ratio::new(u128::from(ratio.numer), u128::from(ratio.denom)).ok_or_else(|| {
                    fairmines::Error::InvalidNumber { argument: "ratio", detail: "the denominator is 0".to_owned() }
                })?;
                Ok(exact.to_decimal(Places::new(places)?))
            })
        }
    })
}

/// Parses an exact ratio from text (a UTF-8 span): "num/den", a whole number, or a decimal such as
/// "0.99" (exactly 99/100), as records write multipliers and RTP factors. The result is in lowest terms.
/// Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_NUMBER`,
/// `FAIRMINES_RATIO_TOO_LARGE`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_ratio_parse(
    ratio: *const c_char,
    ratio_len: usize,
    out_ratio: *mut fairmines_ratio,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's contract for the span.
        let text = unsafe { input_str(ratio, ratio_len, "ratio") }?;
        let out = output(out_ratio, "out_ratio")?;
        let parsed = c_ratio(text.parse::<Ratio>()?, "ratio")?;
        // SAFETY: the header's contract: `out_ratio` points to a writable struct.
        unsafe { write_value(out, parsed) };
        Ok(())
    })
}
