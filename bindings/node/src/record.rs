//! Round records as plain objects, read by the core's record parser (`RoundRecord::from_input`); a bad
//! field is reported with `argument: 'record'` and a message that starts with it (`record.nonce: …`).

use fairmines::RecordInput;
use napi::bindgen_prelude::{BigInt, Either, Env, Null, Result, Unknown};
use napi_derive::napi;

use crate::ratio::{RATIO_EXPECTED, Ratio, RatioArg, exact, ratio_or_null};
use crate::{
    Converted, Failure, NUMBER, NumberArg, ObjectArg, StringArg, TILES, guard, known_keys, member, number, object,
    record_with_json, text, text_in, tiles,
};

/// The public record of a finished round, as the operator publishes it. Functions that take a record take
/// a {@link RoundRecordInput} (numbers may be `number`s, ratios strings) and refuse any other key.
#[napi(object, object_from_js = false)]
pub struct RoundRecord {
    /// The commitment of the seed pair, shown before play (64 hex characters).
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The round's nonce.
    #[napi(ts_type = "bigint")]
    pub nonce: BigInt,
    /// The mine count.
    pub mines: u32,
    /// The return-to-player factor the multipliers were computed with.
    pub rtp: Ratio,
    /// The tiles picked, in order (1-based).
    pub picks: Vec<u32>,
    /// How the round ended (`'voided'`: its seed pair voided it while in play; the stake is returned).
    #[napi(ts_type = "'lost' | 'cashed_out' | 'voided'")]
    pub outcome: String,
    /// The multiplier paid; `null` when the round was lost or voided.
    pub multiplier: Either<Ratio, Null>,
}

impl From<fairmines::RoundRecord> for RoundRecord {
    fn from(record: fairmines::RoundRecord) -> Self {
        RoundRecord {
            commitment: record.commitment.to_string(),
            client_seed: record.client_seed,
            nonce: BigInt::from(record.nonce),
            mines: u32::from(record.mines),
            rtp: record.rtp.factor().into(),
            picks: record.picks.iter().copied().map(u32::from).collect(),
            outcome: record.outcome.as_str().to_owned(),
            multiplier: ratio_or_null(record.multiplier),
        }
    }
}

/// The fields of a [`RoundRecord`]: functions that take a record refuse any other key.
const RECORD_FIELDS: [&str; 8] =
    ["commitment", "clientSeed", "nonce", "mines", "rtp", "picks", "outcome", "multiplier"];

/// A JavaScript record as the core's `RoundRecord`: each field converted, then judged by the core.
fn record(value: ObjectArg) -> Converted<fairmines::RoundRecord> {
    let object = object(value, "record")?;
    known_keys(&object, "record", "a round record", &RECORD_FIELDS)?;
    let commitment = text_in(member(&object, "record", "commitment", "a string")?, "record", "record.commitment")?;
    let client_seed = text_in(member(&object, "record", "clientSeed", "a string")?, "record", "record.clientSeed")?;
    let nonce = number(member(&object, "record", "nonce", NUMBER)?, "record", "record.nonce")?;
    let mines = number(member(&object, "record", "mines", NUMBER)?, "record", "record.mines")?;
    let rtp = exact(member(&object, "record", "rtp", RATIO_EXPECTED)?, "record", "record.rtp")?;
    let picks = tiles(member(&object, "record", "picks", TILES)?, "record", "record.picks")?;
    let outcome = text_in(member(&object, "record", "outcome", "a string")?, "record", "record.outcome")?;
    let multiplier =
        match member::<Either<Null, RatioArg>>(&object, "record", "multiplier", "a Ratio, a string or null")? {
            Either::A(Null) => None,
            Either::B(value) => Some(exact(value, "record", "record.multiplier")?),
        };
    fairmines::RoundRecord::from_input(RecordInput {
        commitment: &commitment,
        client_seed: &client_seed,
        nonce,
        mines,
        rtp: rtp.get(),
        picks: &picks,
        outcome: &outcome,
        multiplier: multiplier.as_ref().map(|m| m.get()),
    })
    .map_err(|e| Failure::field(e, "record"))
}

/// The core's JSON of a round record: the same text every fairmines package writes.
/// @throws {TypeError} `record` is not an object, a field has the wrong type, or `record` has a key
/// that is not a field (`argument: 'record'`, the message names the field: `record.nonce: …`)
/// @throws {RangeError} a field the core refuses, e.g. `record.commitment` not 64 hex characters
/// (`'FAIRMINES_INVALID_HEX'`), `record.rtp` outside (0, 1] (`'FAIRMINES_INVALID_RTP'`), `record.mines`
/// outside 1..=24 (`'FAIRMINES_INVALID_MINES'`), a pick outside 1..=25 or more than 25 picks
/// (`'FAIRMINES_INVALID_TILE'`), an unknown `record.outcome` (`'FAIRMINES_INVALID_STATE'`)
#[napi(catch_unwind, ts_args_type = "record: RoundRecordInput", ts_return_type = "string")]
pub fn record_to_json(env: Env, record: ObjectArg) -> Result<String> {
    guard(&env, || Ok(self::record(record)?.to_json()))
}

/// Reads a round record from the core's JSON (written by {@link recordToJson} or any fairmines package).
/// @throws {TypeError} `json` is not a string
/// @throws {RangeError} `json` is not a round record, or has a field a record does not have (the
/// message names it; `code: 'FAIRMINES_INVALID_STATE'`)
#[napi(catch_unwind, ts_args_type = "json: string", ts_return_type = "RoundRecord")]
pub fn record_from_json<'env>(env: &'env Env, json: StringArg) -> Result<Unknown<'env>> {
    let record = guard(env, || {
        let json = text(json, "json")?;
        fairmines::RoundRecord::from_json(&json).map_err(|e| Failure::at(e, "json", "json"))
    })?;
    record_with_json(env, RoundRecord::from(record))
}

/// The replay of a finished round against its revealed server seed.
#[napi(object, object_from_js = false)]
pub struct RoundVerification {
    /// SHA3-256 of the revealed server seed equals the record's commitment.
    pub commitment_ok: bool,
    /// Where the mines were: sorted, 1-based.
    pub mine_positions: Vec<u32>,
    /// The outcome the picks lead to: `'voided'` only for a voided record whose picks are all safe and
    /// leave a safe tile closed.
    #[napi(ts_type = "'lost' | 'cashed_out' | 'voided'")]
    pub expected_outcome: String,
    /// The multiplier the picks lead to; `null` when they hit a mine or the round was voided.
    pub expected_multiplier: Either<Ratio, Null>,
    /// Each way the record differs from the replay, in words (`'multiplier: the record says …'`);
    /// empty when it holds.
    pub differences: Vec<String>,
    /// `true` when the record is exactly what the seeds and picks give (`differences` is empty).
    pub ok: bool,
}

/// Replays a finished round from its record and the server seed revealed after rotation, and says what
/// differs. A voided record holds when its picks are all safe and leave a safe tile closed.
/// @param serverSeed - the revealed server seed (any string: a wrong one is a difference, not an error)
/// @throws {TypeError} `record` is not an object, a field has the wrong type, `record` has a key that is
/// not a field, or `serverSeed` is not a string
/// @throws {RangeError} a record that cannot describe a round: the range errors of {@link recordToJson}
#[napi(
    catch_unwind,
    ts_args_type = "record: RoundRecordInput, serverSeed: string",
    ts_return_type = "RoundVerification"
)]
pub fn verify_round(env: Env, record: ObjectArg, server_seed: StringArg) -> Result<RoundVerification> {
    guard(&env, || {
        let record = self::record(record)?;
        let server = text(server_seed, "serverSeed")?;
        let replay = fairmines::verify_round(&record, &server).map_err(|e| Failure::field(e, "record"))?;
        Ok(RoundVerification {
            ok: replay.is_ok(),
            commitment_ok: replay.commitment_ok,
            mine_positions: replay.mine_positions.iter().copied().map(u32::from).collect(),
            expected_outcome: replay.expected_outcome.as_str().to_owned(),
            expected_multiplier: ratio_or_null(replay.expected_multiplier),
            differences: replay.differences,
        })
    })
}

/// What a finished round pays back for `stake` (in minor units, stake included): 0 when lost, the stake when
/// voided, `floor(stake × multiplier)` with the record's exact multiplier when cashed out. The core's rule,
/// the one `fairmines verify-history` checks payouts with.
/// @param stake - an integer in 0..=2^53 − 1 (`Number.MAX_SAFE_INTEGER`)
/// @throws {TypeError} `stake` is neither a number nor a bigint, or `record` is not a record (see
/// {@link recordToJson})
/// @throws {RangeError} `stake` is not an integer in 0..=2^53 − 1 (`'FAIRMINES_INVALID_NUMBER'`, argument
/// `'stake'`), or a field of `record` the core refuses
#[napi(catch_unwind, ts_args_type = "record: RoundRecordInput, stake: number | bigint", ts_return_type = "bigint")]
pub fn payout(env: Env, record: ObjectArg, stake: NumberArg) -> Result<BigInt> {
    guard(&env, || {
        let record = self::record(record)?;
        let stake = number(stake, "stake", "stake")?;
        Ok(BigInt::from(record.payout(stake).map_err(Failure::core)?))
    })
}
