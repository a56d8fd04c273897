//! Seed pairs through C: an opaque handle around the core's `SeedPair`, behind a lock.

use core::ffi::c_char;

use fairmines::{MineCount, Number, Rtp, SeedPair, ServerSeed};

use crate::boundary::{
    Failure, Handle, free_handle, give_handle, input_str, lock, optional_str, output, put, room, status_call, text_out,
    write_slice, write_value,
};
use crate::{FAIRMINES_HEX_SIZE, fairmines_round, fairmines_status, hex_array, payout::check_round_fits};

/// An operator's seed pair: the secret server seed with its public commitment, the player's client seed, the
/// nonce of the next round and the rounds in play. Opaque; made by `fairmines_seed_pair_new()`,
/// `fairmines_seed_pair_from_parts()` or `fairmines_seed_pair_from_state_json()`, released by
/// `fairmines_seed_pair_free()`. Thread-safe: calls on one pair from several threads take turns.
pub struct fairmines_seed_pair {
    _opaque: [u8; 0],
}

/// The seed pair that `fairmines_seed_pair_rotate()` ended, whose server seed may now be published: a plain
/// value (wipe `server_seed` if it must not linger). Its client seed is the one the pair had before.
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

impl Handle for fairmines_seed_pair {
    type Value = SeedPair;
}

/// Gives the caller a new seed pair handle at `out_pair` (checked for NULL before `make` runs).
fn new_pair(
    out_pair: *mut *mut fairmines_seed_pair,
    make: impl FnOnce() -> Result<SeedPair, Failure>,
) -> fairmines_status {
    status_call(|| {
        let out = output(out_pair, "out_pair")?;
        let pair = make()?;
        // SAFETY: the header's contract: `out_pair` points to a writable pointer.
        unsafe { give_handle(out, pair) };
        Ok(())
    })
}

/// A new seed pair into `*out_pair` (the caller's, see "Ownership"): a fresh server seed from the operating
/// system's CSPRNG, the player's client seed (a UTF-8 span), nonce 0. Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`, `FAIRMINES_RNG_FAILED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_new(
    client_seed: *const c_char,
    client_seed_len: usize,
    out_pair: *mut *mut fairmines_seed_pair,
) -> fairmines_status {
    // SAFETY: the header's contract for the span.
    new_pair(out_pair, || Ok(SeedPair::new(unsafe { input_str(client_seed, client_seed_len, "client_seed") }?)?))
}

/// A seed pair into `*out_pair` from parts the operator already has: the server seed as stored (exactly 64
/// lowercase hex characters), the client seed (UTF-8) and the nonce of the next round. Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_HEX` (server_seed),
/// `FAIRMINES_INVALID_NONCE` (nonce 2^64 - 1 starts no round, as in `fairmines_seed_pair_start_round`),
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
    new_pair(out_pair, || {
        // SAFETY: the header's contract for both spans.
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let client_seed = unsafe { input_str(client_seed, client_seed_len, "client_seed") }?;
        Ok(SeedPair::from_parts(ServerSeed::from_hex(server_seed)?, client_seed, nonce)?)
    })
}

/// Restores a seed pair into `*out_pair` (the caller's, see "Ownership") from the JSON of
/// `fairmines_seed_pair_to_state_json()` (a UTF-8 span): every round in play comes back with its picks, to go on
/// with through `fairmines_seed_pair_round()`. A state that does not hold together is refused whole with
/// `FAIRMINES_INVALID_STATE`, the message naming the field (the commitment is not the seed's, a round at a nonce
/// not below the pair's or listed twice, its mines, RTP or picks impossible; an unknown field). States written
/// before rounds were saved whole (`"open_rounds":[nonces]`) restore too, but their rounds can only be voided.
/// The restored pair does not reach the rounds of the pair the state was saved from: keep one live copy
/// (restore after a restart, not beside the original). Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_INVALID_UTF8`, `FAIRMINES_INVALID_STATE`, `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_from_state_json(
    state: *const c_char,
    state_len: usize,
    out_pair: *mut *mut fairmines_seed_pair,
) -> fairmines_status {
    // SAFETY: the header's contract for the span.
    new_pair(out_pair, || Ok(SeedPair::from_state_json(unsafe { input_str(state, state_len, "state") }?)?))
}

/// Writes text of the pair through the text-output convention. # Safety: the header's contracts.
unsafe fn pair_text(
    handle: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
    text: fn(&SeedPair) -> String,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { lock(handle, "pair") }?;
        // SAFETY: the header's text-output contract.
        unsafe { text_out(out, capacity, out_needed, ["out", "out_needed"], || Ok(text(&pair))) }
    })
}

/// The full state of a seed pair as JSON, for the operator's own storage: the server seed, its commitment, the
/// client seed, the next nonce and every round in play with its mines, RTP and picks so far, e.g.
/// `{"version":2,"server_seed":…,"commitment":…,"client_seed":…,"nonce":3,
/// "rounds":[{"nonce":2,"mines":3,"rtp":"99/100","picks":[7,2]}]}`. A move (start, reveal, cash-out, void,
/// rotation) changes it at once: store it after every move, in the same transaction as the move; after a
/// restart, `fairmines_seed_pair_from_state_json()` and `fairmines_seed_pair_round()` go on from there. It
/// contains the SECRET server seed: store it encrypted or where only the service can read it, wipe the buffer
/// when done, never show it to the player.
///
/// Text output (see "API conventions"). Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_to_state_json(
    pair: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    // SAFETY: the same contract as this function's.
    unsafe { pair_text(pair, out, capacity, out_needed, SeedPair::to_state_json) }
}

/// What the player may see of a seed pair, as JSON: `{"commitment":…,"client_seed":…,"nonce":n}`. Text output
/// (see "API conventions"). Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_public_part_json(
    pair: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    // SAFETY: the same contract as this function's.
    unsafe { pair_text(pair, out, capacity, out_needed, |pair| pair.public_part().to_json()) }
}

/// The client seed, NUL-terminated (its byte length is `*out_needed - 1`; it may contain NUL bytes if it was
/// given with them). Text output (see "API conventions"). Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_client_seed(
    pair: *const fairmines_seed_pair,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    // SAFETY: the same contract as this function's.
    unsafe { pair_text(pair, out, capacity, out_needed, |pair| pair.public_part().client_seed) }
}

/// The commitment of the active server seed (public: show it before play) into `out_hex` (65 bytes: 64
/// lowercase hex characters and a NUL). Errors: `FAIRMINES_NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_commitment(
    pair: *const fairmines_seed_pair,
    out_hex: *mut c_char,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { lock(pair, "pair") }?;
        // SAFETY: the header's contract: `out_hex` has room for 65 bytes.
        unsafe { put(out_hex.cast(), "out_hex", || Ok(hex_array(pair.public_part().commitment.to_hex().as_str()))) }
    })
}

/// The nonce the next round will use. Errors: `FAIRMINES_NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_nonce(
    pair: *const fairmines_seed_pair,
    out_nonce: *mut u64,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (both): the header's contracts for the handle and for `out_nonce`.
        let pair = unsafe { lock(pair, "pair") }?;
        unsafe { put(out_nonce, "out_nonce", || Ok(pair.public_part().nonce)) }
    })
}

/// Starts a round into `*out_round` (the caller's, see "Ownership") with the pair's current nonce, then
/// increments the nonce. The grid is fixed now, before any pick. `mines` is 1..=24; `rtp` is the
/// return-to-player factor as text (a UTF-8 span): "99/100", "0.99" or "1"; above 0 and at most 1. On any error
/// the pair is unchanged. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`,
/// `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_RTP`, `FAIRMINES_RATIO_TOO_LARGE` (an RTP whose multipliers do
/// not fit `fairmines_ratio`), `FAIRMINES_INVALID_NONCE` (the pair has used nonce 2^64 - 1: rotate it),
/// `FAIRMINES_LENGTH_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_start_round(
    pair: *mut fairmines_seed_pair,
    mines: i64,
    rtp: *const c_char,
    rtp_len: usize,
    out_round: *mut *mut fairmines_round,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract, and its contract for the span.
        let mut pair = unsafe { lock(pair, "pair") }?;
        let rtp = unsafe { input_str(rtp, rtp_len, "rtp") }?;
        let out = output(out_round, "out_round")?;
        let mines = MineCount::try_from(Number::from(mines))?;
        let rtp = Rtp::parse(rtp)?;
        check_round_fits(mines, rtp)?;
        let round = pair.start_round(mines, rtp)?;
        // SAFETY: the header's contract: `out_round` points to a writable pointer.
        unsafe { give_handle(out, round) };
        Ok(())
    })
}

/// The round of the pair in play at `nonce`, into `*out_round`, to go on with: after a restart, a pair restored
/// with `fairmines_seed_pair_from_state_json()` gives back each of its rounds (`fairmines_seed_pair_open_rounds()`
/// lists them), and every later reveal, cash-out, record and payout is the same as if the process had never
/// stopped. The round is the caller's, like one from `fairmines_seed_pair_start_round()`: release it with
/// `fairmines_round_free()` (see "Ownership"). The pair hands a round out once while that handle lives: a round
/// freed while in play can be had again. `FAIRMINES_ROUND_NOT_IN_PLAY` (naming `nonce`) when no round at
/// `nonce` is in play (never started, finished or voided), when the state it came from was written before
/// rounds were saved whole (such a round can only be voided), or when its handle is still live;
/// `FAIRMINES_RATIO_TOO_LARGE` for a round whose RTP (from a state written through another binding) gives
/// multipliers that do not fit `fairmines_ratio`. On any error the pair is unchanged and `*out_round`
/// untouched. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_ROUND_NOT_IN_PLAY`, `FAIRMINES_RATIO_TOO_LARGE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_round(
    pair: *const fairmines_seed_pair,
    nonce: u64,
    out_round: *mut *mut fairmines_round,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let pair = unsafe { lock(pair, "pair") }?;
        let out = output(out_round, "out_round")?;
        let round = pair.round(nonce)?;
        // Dropped on failure, so the pair can hand the round out again.
        check_round_fits(round.mines(), round.rtp())?;
        // SAFETY: the header's contract: `out_round` points to a writable pointer.
        unsafe { give_handle(out, round) };
        Ok(())
    })
}

/// Ends the active seed pair and starts a new one in the same handle (a fresh server seed from the OS CSPRNG,
/// nonce 0, and `new_client_seed` as the client seed: a UTF-8 span, or NULL to keep the current one), and
/// writes the old server seed, which may now be published, into `*out_revealed`. A seed is revealed only when
/// no round can move: while a round of the pair is in play the call is refused with `FAIRMINES_ROUNDS_IN_PLAY`
/// (naming their nonces): finish or void them first. On any error the pair is unchanged. Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`, `FAIRMINES_LENGTH_TOO_LARGE`,
/// `FAIRMINES_ROUNDS_IN_PLAY`, `FAIRMINES_RNG_FAILED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_rotate(
    pair: *mut fairmines_seed_pair,
    new_client_seed: *const c_char,
    new_client_seed_len: usize,
    out_revealed: *mut fairmines_revealed_seed_pair,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract, and its contract for the optional span.
        let mut pair = unsafe { lock(pair, "pair") }?;
        let new_client_seed = unsafe { optional_str(new_client_seed, new_client_seed_len, "new_client_seed") }?;
        let out = output(out_revealed, "out_revealed")?;
        let revealed = pair.rotate(new_client_seed)?;
        let mut result = fairmines_revealed_seed_pair {
            server_seed: hex_array(&revealed.server_seed),
            commitment: hex_array(revealed.commitment.to_hex().as_str()),
            rounds: revealed.rounds,
        };
        // SAFETY: the header's contract: `out_revealed` points to a writable struct.
        unsafe { write_value(out, result) };
        // Wipe this copy of the old seed on our stack (the caller publishes the seed; it need not linger).
        result.server_seed.fill(0);
        core::hint::black_box(&result);
        Ok(())
    })
}

/// Writes the nonce-list output: `*out_count = needed`, then, when `needed` nonces fit `capacity`, the nonces
/// that `nonces` gives (at most `needed`) and their number. # Safety: the header's contract.
unsafe fn write_nonces(
    (out_nonces, capacity, out_count): (*mut u64, usize, *mut usize),
    needed: usize,
    nonces: impl FnOnce() -> Vec<u64>,
) -> Result<(), Failure> {
    let (out, count) = (output(out_nonces, "out_nonces")?, output(out_count, "out_count")?);
    // SAFETY: guaranteed by the caller; `room` checks that the nonces fit.
    unsafe {
        write_value(count, needed);
        room::<u64>(capacity, needed, "out_nonces")?;
        let nonces = nonces();
        let nonces = &nonces[..nonces.len().min(needed)]; // never more: the list can only shrink
        write_value(count, nonces.len());
        write_slice(out, nonces);
    }
    Ok(())
}

/// The nonces of the pair's rounds in play, ascending: started and neither finished nor voided (a round freed
/// while in play, and those held by the state the pair was restored from, included). While any is in
/// play, `fairmines_seed_pair_rotate()` is refused. A list output (see "API conventions"): `out_nonces` has
/// room for `capacity` nonces. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_open_rounds(
    pair: *const fairmines_seed_pair,
    out_nonces: *mut u64,
    capacity: usize,
    out_count: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract and its nonce-list contract.
        let pair = unsafe { lock(pair, "pair") }?;
        let open = pair.open_rounds();
        unsafe { write_nonces((out_nonces, capacity, out_count), open.len(), || open) }
    })
}

/// Voids every round of the pair in play and writes their nonces, ascending: each refuses every later reveal
/// and cash-out with `FAIRMINES_ROUND_VOIDED`, its outcome is `FAIRMINES_OUTCOME_VOIDED` and its record says
/// `"outcome":"voided"` with no multiplier (the operator returns the stake). Afterwards the pair can rotate.
/// With no round in play it voids nothing and writes `*out_count = 0`. The list output of
/// `fairmines_seed_pair_open_rounds()`: on `FAIRMINES_BUFFER_TOO_SMALL` nothing is voided. Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_void_open_rounds(
    pair: *mut fairmines_seed_pair,
    out_nonces: *mut u64,
    capacity: usize,
    out_count: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract and its nonce-list contract.
        let mut pair = unsafe { lock(pair, "pair") }?;
        // The room check comes first, so a short buffer voids nothing. Until the void, rounds (other
        // handles, maybe on other threads) can only leave the list by finishing: the voided ones fit.
        let needed = pair.open_rounds().len();
        unsafe { write_nonces((out_nonces, capacity, out_count), needed, || pair.void_open_rounds()) }
    })
}

/// Releases a seed pair (its server seed is wiped from memory). NULL is a no-op. Using `pair` after this call
/// (from any thread), or freeing it twice, is undefined behaviour: the caller's responsibility.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_seed_pair_free(pair: *mut fairmines_seed_pair) {
    // SAFETY: the header's contract: `pair` is NULL or a live handle of this library.
    unsafe { free_handle(pair) }
}
