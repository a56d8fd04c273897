//! Rounds through C: an opaque handle around the core's `Round`, behind a lock, and the replay of a finished
//! round's published record.

use core::ffi::c_char;

use fairmines::{Outcome, Round, RoundRecord};

use crate::boundary::{
    Failure, Handle, free_handle, input_str, lock, output, put, room, status_call, text_out, write_slice, write_value,
};
use crate::payout::{ZERO, c_ratio, fairmines_ratio};
use crate::{FAIRMINES_HEX_SIZE, FAIRMINES_TILES, fairmines_status, hex_array};

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
    /// Voided by its seed pair while in play: no more moves, no multiplier; the operator returns the stake.
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

/// One round in play or finished. Opaque; made by `fairmines_seed_pair_start_round()` or
/// `fairmines_seed_pair_round()`, released by `fairmines_round_free()`. Either the round or its seed pair may be
/// freed first; while both live, voiding the pair's open rounds reaches the round, and each move is in the
/// pair's state at once. A round freed while in play stays in play for its pair: `fairmines_seed_pair_round()`
/// gives it back, and the pair refuses to rotate until it has finished or is voided. Thread-safe: a second move
/// on one round from another thread waits for the first, then is judged on the round as the first left it.
pub struct fairmines_round {
    _opaque: [u8; 0],
}

/// What `fairmines_round_reveal()` found: the core's reveal, field for field.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct fairmines_reveal {
    /// The tile revealed, 1-based.
    pub tile: u8,
    /// False when the tile was a mine: the round is lost.
    pub safe: bool,
    /// Safe tiles revealed so far in the round.
    pub safe_picks: u8,
    /// False after a mine; then `multiplier` is 0/1.
    pub has_multiplier: bool,
    /// What a cash-out pays now (paid, when the last safe tile finished the round).
    pub multiplier: fairmines_ratio,
    /// Whether the round has now ended: a mine, or the last safe tile (which pays out).
    pub finished: bool,
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
    /// Tiles revealed so far (safe ones and, in a lost round, the mine): `fairmines_round_picks()` lists them.
    pub pick_count: u8,
    /// Safe tiles revealed so far.
    pub safe_picks: u8,
    /// Whether the round has ended (lost, cashed out or voided).
    pub finished: bool,
    /// In play, lost, cashed out or voided.
    pub outcome: fairmines_outcome,
    /// False before the first safe pick, after a mine and once voided; then `multiplier` is 0/1.
    pub has_multiplier: bool,
    /// What a cash-out pays now, or paid.
    pub multiplier: fairmines_ratio,
    /// The return-to-player factor the multipliers include.
    pub rtp: fairmines_ratio,
}

/// The replay of a finished round's record, from `fairmines_verify_round_json()`: a plain value.
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
    /// The outcome the picks lead to (never IN_PLAY): LOST, CASHED_OUT, or VOIDED for a voided record whose
    /// picks are all safe and leave a safe tile closed.
    pub expected_outcome: fairmines_outcome,
    /// False when the picks lose or the round was voided; then `expected_multiplier` is 0/1.
    pub has_expected_multiplier: bool,
    /// The multiplier the picks lead to.
    pub expected_multiplier: fairmines_ratio,
    /// How many differences were found (lines in the differences text).
    pub difference_count: usize,
}

impl Handle for fairmines_round {
    type Value = Round;
}

/// A multiplier as the C pair `has_multiplier`, `multiplier` (0/1 when there is none).
fn optional_ratio(ratio: Option<fairmines::Ratio>, argument: &str) -> Result<(bool, fairmines_ratio), Failure> {
    Ok(ratio.map(|m| c_ratio(m, argument)).transpose()?.map_or((false, ZERO), |m| (true, m)))
}

fn in_play(what: &str) -> Failure {
    let message = format!("round: is still in play; its {what} exists once it has finished");
    Failure { status: fairmines_status::FAIRMINES_ROUND_IN_PLAY, message }
}

/// Reveals `tile` (1..=25, row-major: 1 = top-left, 25 = bottom-right) and writes what it was into
/// `*out_reveal`. A mine ends the round (lost); revealing the last safe tile ends it too (cashed out,
/// `finished` set). On any error the round is unchanged and `*out_reveal` untouched. Errors:
/// `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_TILE` (outside 1..=25), `FAIRMINES_TILE_ALREADY_REVEALED`,
/// `FAIRMINES_ROUND_FINISHED`, `FAIRMINES_ROUND_VOIDED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_reveal(
    round: *mut fairmines_round,
    tile: i64,
    out_reveal: *mut fairmines_reveal,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (both): the header's contracts for the handle and for `out_reveal`.
        let mut round = unsafe { lock(round, "round") }?;
        let out = output(out_reveal, "out_reveal")?;
        let fairmines::Reveal { tile, safe, safe_picks, multiplier, finished } = round.reveal(tile)?;
        // Cannot fail: start_round checked that every multiplier of the round fits.
        let (has_multiplier, multiplier) = optional_ratio(multiplier, "multiplier")?;
        unsafe { write_value(out, fairmines_reveal { tile, safe, safe_picks, has_multiplier, multiplier, finished }) };
        Ok(())
    })
}

/// Ends the round and writes the multiplier to pay into `*out_multiplier`. Needs at least one safe pick. On any
/// error the round is unchanged. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_NOTHING_TO_CASH_OUT`,
/// `FAIRMINES_ROUND_FINISHED`, `FAIRMINES_ROUND_VOIDED`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_cash_out(
    round: *mut fairmines_round,
    out_multiplier: *mut fairmines_ratio,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (both): the header's contracts for the handle and for `out_multiplier`.
        let mut round = unsafe { lock(round, "round") }?;
        // Cannot fail after the cash-out: start_round checked that every multiplier of the round fits.
        unsafe { put(out_multiplier, "out_multiplier", || c_ratio(round.cash_out()?, "multiplier")) }
    })
}

/// The public record of a finished (or voided) round as JSON, the form operators publish and
/// `fairmines_verify_round_json()` reads: `{"commitment":…,"client_seed":…,"nonce":n,"mines":m,
/// "rtp":"99/100","picks":[…],"outcome":"lost"|"cashed_out"|"voided","multiplier":"num/den"|null}` (null after
/// a mine and for a voided round). Text output (see "API conventions"). Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_ROUND_IN_PLAY`, `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_record_json(
    round: *const fairmines_round,
    out: *mut c_char,
    capacity: usize,
    out_needed: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let round = unsafe { lock(round, "round") }?;
        let record = || round.record().map(|r| r.to_json()).ok_or_else(|| in_play("record"));
        // SAFETY: the header's text-output contract.
        unsafe { text_out(out, capacity, out_needed, ["out", "out_needed"], record) }
    })
}

/// The mine positions of a finished (or voided) round (sorted, 1-based): exactly `mines` bytes into
/// `out_positions`, which must have room for `capacity >= mines` bytes. While the round is in play the grid
/// stays hidden: `FAIRMINES_ROUND_IN_PLAY`. Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_ROUND_IN_PLAY`,
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_mine_positions(
    round: *const fairmines_round,
    out_positions: *mut u8,
    capacity: usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let round = unsafe { lock(round, "round") }?;
        let out = output(out_positions, "out_positions")?;
        let positions = round.mine_positions().ok_or_else(|| in_play("grid"))?;
        room::<u8>(capacity, positions.len(), "out_positions")?;
        // SAFETY: `out` has `capacity >= positions.len()` writable bytes (checked above).
        unsafe { write_slice(out, &positions) };
        Ok(())
    })
}

/// The tiles picked so far, in order (1-based): a list output (see "API conventions") of `*out_count` bytes
/// into `out_picks` (`FAIRMINES_TILES` is always enough). Errors: `FAIRMINES_NULL_POINTER`,
/// `FAIRMINES_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_picks(
    round: *const fairmines_round,
    out_picks: *mut u8,
    capacity: usize,
    out_count: *mut usize,
) -> fairmines_status {
    status_call(|| {
        // SAFETY: the header's handle contract.
        let round = unsafe { lock(round, "round") }?;
        let (out, count) = (output(out_picks, "out_picks")?, output(out_count, "out_count")?);
        let picks = round.picks();
        // SAFETY: the header's contract: a writable `*out_count`, and `out_picks` has room (checked by `room`).
        unsafe {
            write_value(count, picks.len());
            room::<u8>(capacity, picks.len(), "out_picks")?;
            write_slice(out, picks);
        }
        Ok(())
    })
}

/// The state of a round into `*out_info`: commitment, nonce, mines, picks, outcome, multiplier and RTP. Errors:
/// `FAIRMINES_NULL_POINTER`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_get_info(
    round: *const fairmines_round,
    out_info: *mut fairmines_round_info,
) -> fairmines_status {
    status_call(|| {
        // SAFETY (both): the header's contracts for the handle and for `out_info`.
        let round = unsafe { lock(round, "round") }?;
        let out = output(out_info, "out_info")?;
        let (has_multiplier, multiplier) = optional_ratio(round.multiplier(), "multiplier")?;
        let info = fairmines_round_info {
            commitment: hex_array(round.commitment().to_hex().as_str()),
            nonce: round.nonce(),
            mines: round.mines().get(),
            pick_count: round.picks().len() as u8,
            safe_picks: round.safe_picks(),
            finished: round.is_finished(),
            outcome: round.outcome().into(),
            has_multiplier,
            multiplier,
            rtp: c_ratio(round.rtp().factor(), "rtp")?,
        };
        unsafe { write_value(out, info) };
        Ok(())
    })
}

/// Releases a round. NULL is a no-op. Using `round` after this call (from any thread), or freeing it twice, is
/// undefined behaviour: the caller's responsibility.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fairmines_round_free(round: *mut fairmines_round) {
    // SAFETY: the header's contract: `round` is NULL or a live handle of this library.
    unsafe { free_handle(round) }
}

/// Replays a finished round from its published record (the JSON of `fairmines_round_record_json()`, a UTF-8
/// span) and the server seed revealed after rotation (a UTF-8 span), and says what differs. A voided record
/// verifies when its picks are all safe and leave a safe tile closed; it pays nothing. A record with an unknown
/// field is refused (`FAIRMINES_INVALID_STATE`, naming the field). A record that does not verify is not an
/// error: on `FAIRMINES_OK`, `out->ok` is the verdict and the differences are text, one per line ending in
/// '\n', in `differences` (a text output, see "API conventions", with `capacity` and `differences_needed`; 4096
/// bytes is plenty; "" when the record verifies). Errors: `FAIRMINES_NULL_POINTER`, `FAIRMINES_INVALID_UTF8`,
/// `FAIRMINES_INVALID_STATE` (not a record), `FAIRMINES_INVALID_MINES`, `FAIRMINES_INVALID_TILE` (picks),
/// `FAIRMINES_RATIO_TOO_LARGE`, `FAIRMINES_BUFFER_TOO_SMALL`, `FAIRMINES_LENGTH_TOO_LARGE`.
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
        // SAFETY (the spans and outputs): the header's contract.
        let record_json = unsafe { input_str(record_json, record_json_len, "record_json") }?;
        let server_seed = unsafe { input_str(server_seed, server_seed_len, "server_seed") }?;
        let (out, names) = (output(out, "out")?, ["differences", "differences_needed"]);
        output(differences, names[0]).and(output(differences_needed, names[1]))?; // checked before the replay
        let record = RoundRecord::from_json(record_json)?;
        let verdict = fairmines::verify_round(&record, server_seed)?;
        let (has_expected_multiplier, expected_multiplier) =
            optional_ratio(verdict.expected_multiplier, "expected_multiplier")?;
        let mut mine_positions = [0u8; FAIRMINES_TILES];
        mine_positions[..verdict.mine_positions.len()].copy_from_slice(&verdict.mine_positions);
        let text = verdict.differences.iter().map(|d| format!("{d}\n")).collect();
        unsafe { text_out(differences, capacity, differences_needed, names, || Ok(text)) }?;
        let result = fairmines_round_verification {
            ok: verdict.is_ok(),
            commitment_ok: verdict.commitment_ok,
            mines: record.mines,
            mine_positions,
            expected_outcome: Some(verdict.expected_outcome).into(),
            has_expected_multiplier,
            expected_multiplier,
            difference_count: verdict.differences.len(),
        };
        unsafe { write_value(out, result) };
        Ok(())
    })
}
