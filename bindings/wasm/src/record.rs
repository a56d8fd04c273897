//! Round records as plain objects, read by the core's record parser (`RoundRecord::from_input`); a bad
//! field is reported with `argument: 'record'` and a message that starts with it (`record.nonce: …`).

use fairmines::{Exact, RecordInput};
use wasm_bindgen::prelude::*;

use crate::{
    Converted, Failure, NUMBER, RATIO_EXPECTED, Ratio, TILES, Thrown, as_object, exact, known_keys, member, number,
    object, or_null, text, text_in, tiles,
};

/// The fields of a round record: functions that take a record refuse any other key.
const RECORD_FIELDS: [&str; 8] =
    ["commitment", "clientSeed", "nonce", "mines", "rtp", "picks", "outcome", "multiplier"];

/// A JavaScript record as the core's `RoundRecord`: each field converted, then judged by the core.
fn record(value: &JsValue) -> Converted<fairmines::RoundRecord> {
    as_object(value, "record")?;
    known_keys(value, "record", "a round record", &RECORD_FIELDS)?;
    let field = |name, expected| member(value, "record", name, expected);
    let commitment = text_in(&field("commitment", "a string")?, "record", "record.commitment")?;
    let client_seed = text_in(&field("clientSeed", "a string")?, "record", "record.clientSeed")?;
    let nonce = number(&field("nonce", NUMBER)?, "record", "record.nonce")?;
    let mines = number(&field("mines", NUMBER)?, "record", "record.mines")?;
    let rtp = exact(&field("rtp", RATIO_EXPECTED)?, "record", "record.rtp")?;
    let picks = tiles(&field("picks", TILES)?, "record", "record.picks")?;
    let outcome = text_in(&field("outcome", "a string")?, "record", "record.outcome")?;
    let multiplier = field("multiplier", "a Ratio, a string or null")?;
    let multiplier = if multiplier.is_null() { None } else { Some(exact(&multiplier, "record", "record.multiplier")?) };
    fairmines::RoundRecord::from_input(RecordInput {
        commitment: &commitment,
        client_seed: &client_seed,
        nonce,
        mines,
        rtp: Exact::Text(&rtp),
        picks: &picks,
        outcome: &outcome,
        multiplier: multiplier.as_deref().map(Exact::Text),
    })
    .map_err(|e| Failure::field(e, "record"))
}

/// The core's JSON of a round record: the same text every fairmines package writes.
#[wasm_bindgen(js_name = recordToJson)]
pub fn record_to_json(
    #[wasm_bindgen(unchecked_param_type = "RoundRecordInput")] record: JsValue,
) -> Result<String, Thrown> {
    Ok(self::record(&record)?.to_json())
}

/// Reads a round record from the core's JSON (written by `recordToJson` or any fairmines package).
#[wasm_bindgen(js_name = recordFromJson, unchecked_return_type = "RoundRecord")]
pub fn record_from_json(#[wasm_bindgen(unchecked_param_type = "string")] json: JsValue) -> Result<JsValue, Thrown> {
    let json = text(&json, "json")?;
    let record = fairmines::RoundRecord::from_json(&json).map_err(|e| Failure::at(e, "json", "json"))?;
    Ok(object(vec![
        ("commitment", record.commitment.to_string().into()),
        ("clientSeed", record.client_seed.into()),
        ("nonce", record.nonce.into()),
        ("mines", record.mines.into()),
        ("rtp", Ratio::from(record.rtp.factor()).into()),
        ("picks", crate::tile_list(&record.picks)),
        ("outcome", record.outcome.as_str().into()),
        ("multiplier", or_null(record.multiplier.map(Ratio::from))),
    ]))
}

/// Replays a finished round from its record and the server seed revealed after rotation, and says what
/// differs: `{ commitmentOk, minePositions, expectedOutcome, expectedMultiplier, differences, ok }`.
#[wasm_bindgen(js_name = verifyRound, unchecked_return_type = "RoundVerification")]
pub fn verify_round(
    #[wasm_bindgen(unchecked_param_type = "RoundRecordInput")] record: JsValue,
    #[wasm_bindgen(js_name = serverSeed, unchecked_param_type = "string")] server_seed: JsValue,
) -> Result<JsValue, Thrown> {
    let record = self::record(&record)?;
    let server = text(&server_seed, "serverSeed")?;
    let replay = fairmines::verify_round(&record, &server).map_err(|e| Failure::field(e, "record"))?;
    let differences: js_sys::Array = replay.differences.iter().map(|d| JsValue::from(d.as_str())).collect();
    Ok(object(vec![
        ("commitmentOk", replay.commitment_ok.into()),
        ("minePositions", crate::tile_list(&replay.mine_positions)),
        ("expectedOutcome", replay.expected_outcome.as_str().into()),
        ("expectedMultiplier", or_null(replay.expected_multiplier.map(Ratio::from))),
        ("differences", differences.into()),
        ("ok", replay.is_ok().into()),
    ]))
}
