//! One row of a bet history: parsing from JSON (a line or a `serde_json::Value`) and from CSV, and writing.

use core::fmt;

use fairmines::{Digest, MineCount, Tiles};
use serde_json::{Map, Value};

/// The columns of the CSV format, in the order [`Row::to_csv_line`] writes them.
pub const CSV_HEADER: &str = "round_id,server_seed,commitment,client_seed,nonce,mines,positions";

/// The fields every row must have (`round_id` is optional).
pub const REQUIRED_FIELDS: [&str; 6] = ["server_seed", "commitment", "client_seed", "nonce", "mines", "positions"];

/// One round of a history, as the operator declared it.
///
/// `Debug` hides the server seed, like every type of the project that holds one.
#[derive(Clone, PartialEq, Eq)]
pub struct Row {
    /// The revealed server seed (its text; the operator's are 64 hex characters, any string is accepted).
    pub server_seed: String,
    /// The commitment the operator showed before play.
    pub commitment: Digest,
    /// The player's client seed.
    pub client_seed: String,
    /// The round's nonce.
    pub nonce: u64,
    /// The mine count.
    pub mines: MineCount,
    /// The mine positions the operator declared, sorted, 1-based (duplicates kept, so they fail the check).
    pub positions: Tiles,
    /// The operator's identifier of the round, if the history has one (numbers are kept as their text).
    pub round_id: Option<String>,
}

impl fmt::Debug for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Row")
            .field("server_seed", &"<hidden>")
            .field("commitment", &self.commitment)
            .field("client_seed", &self.client_seed)
            .field("nonce", &self.nonce)
            .field("mines", &self.mines.get())
            .field("positions", &self.positions)
            .field("round_id", &self.round_id)
            .finish()
    }
}

/// Why a row could not be read. The message starts with the field at fault where there is one
/// (`mines: must be an integer in 1..=24, got 25`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowError {
    /// The field at fault, or `None` when the row as a whole is broken (bad JSON, wrong number of CSV fields).
    pub field: Option<&'static str>,
    /// What is wrong, in words.
    pub message: String,
}

impl RowError {
    fn field(field: &'static str, message: String) -> Self {
        RowError { field: Some(field), message }
    }

    fn whole(message: String) -> Self {
        RowError { field: None, message }
    }

    fn core(field: &'static str, error: fairmines::Error) -> Self {
        RowError::field(field, error.to_string())
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RowError {}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn get<'v>(map: &'v Map<String, Value>, field: &'static str) -> Result<&'v Value, RowError> {
    match map.get(field) {
        None | Some(Value::Null) => Err(RowError::field(field, format!("{field}: missing"))),
        Some(value) => Ok(value),
    }
}

fn string<'v>(map: &'v Map<String, Value>, field: &'static str) -> Result<&'v str, RowError> {
    match get(map, field)? {
        Value::String(s) => Ok(s),
        other => Err(RowError::field(field, format!("{field}: must be a string, got {}", type_name(other)))),
    }
}

fn integer(map: &Map<String, Value>, field: &'static str) -> Result<i128, RowError> {
    match get(map, field)? {
        Value::Number(n) => n
            .as_u64()
            .map(i128::from)
            .or_else(|| n.as_i64().map(i128::from))
            .ok_or_else(|| RowError::field(field, format!("{field}: must be an integer, got {n}"))),
        other => Err(RowError::field(field, format!("{field}: must be an integer, got {}", type_name(other)))),
    }
}

fn nonce(value: i128) -> Result<u64, RowError> {
    u64::try_from(value).map_err(|_| {
        RowError::field("nonce", format!("nonce: must be an integer in 0..=18446744073709551615, got {value}"))
    })
}

fn mines(value: i128) -> Result<MineCount, RowError> {
    MineCount::try_from(value).map_err(|e| RowError::core("mines", e))
}

fn commitment(text: &str) -> Result<Digest, RowError> {
    Digest::parse_hex(text.trim(), "commitment").map_err(|e| RowError::core("commitment", e))
}

/// Parses a list of tiles written as text: `7,10,19`, `7 10 19` or `[7, 10, 19]`.
pub fn parse_positions(text: &str) -> Result<Tiles, RowError> {
    let inner = text.trim();
    let inner = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(inner);
    let tiles = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.parse::<i128>()
                .map_err(|_| RowError::field("positions", format!("positions: {part:?} is not a tile number")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Tiles::declared(tiles, "positions").map_err(|e| RowError::core("positions", e))
}

fn positions(value: &Value) -> Result<Tiles, RowError> {
    match value {
        Value::String(text) => parse_positions(text),
        Value::Array(items) => {
            let mut tiles = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item.as_i64() {
                    Some(tile) => tiles.push(i128::from(tile)),
                    None => {
                        return Err(RowError::field(
                            "positions",
                            format!("positions: item {i} must be an integer tile number, got {item}"),
                        ));
                    }
                }
            }
            Tiles::declared(tiles, "positions").map_err(|e| RowError::core("positions", e))
        }
        other => Err(RowError::field(
            "positions",
            format!("positions: must be a string like \"7,10,19\" or an array of integers, got {}", type_name(other)),
        )),
    }
}

/// The round id of a JSON row, as text, where it has a usable one.
pub(crate) fn json_round_id(map: &Map<String, Value>) -> Result<Option<String>, RowError> {
    match map.get("round_id") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(RowError::field(
            "round_id",
            format!("round_id: must be a string or a number, got {}", type_name(other)),
        )),
    }
}

impl Row {
    /// Reads a row from a JSON object (what a JSON Lines line holds, or a Python dict converted to JSON).
    /// Fields not listed in the format are ignored.
    pub fn from_json_value(value: &Value) -> Result<Row, RowError> {
        match value {
            Value::Object(map) => Row::from_json_map(map),
            other => Err(RowError::whole(format!("row: must be a JSON object, got {}", type_name(other)))),
        }
    }

    /// Reads a row from the fields of a JSON object.
    pub fn from_json_map(map: &Map<String, Value>) -> Result<Row, RowError> {
        let round_id = json_round_id(map)?;
        Ok(Row {
            server_seed: string(map, "server_seed")?.to_owned(),
            commitment: commitment(string(map, "commitment")?)?,
            client_seed: string(map, "client_seed")?.to_owned(),
            nonce: nonce(integer(map, "nonce")?)?,
            mines: mines(integer(map, "mines")?)?,
            positions: positions(get(map, "positions")?)?,
            round_id,
        })
    }

    /// Reads a row from one line of JSON Lines.
    pub fn from_json_line(line: &[u8]) -> Result<Row, RowError> {
        parse_json_line(line).map_err(|(e, _)| e)
    }

    /// The row as one line of JSON Lines (no newline), positions as an array.
    pub fn to_json_line(&self) -> String {
        let mut map = Map::new();
        if let Some(id) = &self.round_id {
            map.insert("round_id".into(), Value::String(id.clone()));
        }
        map.insert("server_seed".into(), Value::String(self.server_seed.clone()));
        map.insert("commitment".into(), Value::String(self.commitment.to_string()));
        map.insert("client_seed".into(), Value::String(self.client_seed.clone()));
        map.insert("nonce".into(), Value::from(self.nonce));
        map.insert("mines".into(), Value::from(self.mines.get()));
        map.insert("positions".into(), Value::from(self.positions.to_vec()));
        Value::Object(map).to_string()
    }

    /// The row as one CSV line in the column order of [`CSV_HEADER`] (no newline), positions as `"7,10,19"`.
    pub fn to_csv_line(&self) -> String {
        let positions = self.positions.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        [
            csv_field(self.round_id.as_deref().unwrap_or("")),
            csv_field(&self.server_seed),
            self.commitment.to_string(),
            csv_field(&self.client_seed),
            self.nonce.to_string(),
            self.mines.get().to_string(),
            csv_field(&positions),
        ]
        .join(",")
    }
}

/// Quotes a CSV field when it needs it (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// Parses a JSON line; on failure also returns the round id when the line is an object that has one.
pub(crate) fn parse_json_line(line: &[u8]) -> Result<Row, (RowError, Option<String>)> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        let what = if e.is_eof() { "incomplete JSON (the line ends too early)" } else { "not valid JSON" };
        (RowError::whole(format!("row: {what}: {e}")), None)
    })?;
    parse_value(&value)
}

pub(crate) fn parse_value(value: &Value) -> Result<Row, (RowError, Option<String>)> {
    Row::from_json_value(value).map_err(|e| {
        let id = match value {
            Value::Object(map) => json_round_id(map).ok().flatten(),
            _ => None,
        };
        (e, id)
    })
}

/// Where each field is in the records of a CSV history.
#[derive(Clone, Debug)]
pub(crate) struct CsvHeader {
    columns: [usize; 6],
    round_id: Option<usize>,
    width: usize,
}

impl CsvHeader {
    /// Finds the columns by name (any order, surrounding spaces and case ignored; other columns are ignored).
    pub(crate) fn new(names: &csv::ByteRecord) -> Result<Self, String> {
        let find = |wanted: &str| {
            names.iter().position(|name| String::from_utf8_lossy(name).trim().eq_ignore_ascii_case(wanted))
        };
        let mut columns = [0; 6];
        let mut missing = Vec::new();
        for (slot, field) in columns.iter_mut().zip(REQUIRED_FIELDS) {
            match find(field) {
                Some(i) => *slot = i,
                None => missing.push(field),
            }
        }
        if !missing.is_empty() {
            return Err(format!(
                "header: the CSV header must name the columns {}; missing: {}",
                REQUIRED_FIELDS.join(", "),
                missing.join(", ")
            ));
        }
        Ok(CsvHeader { columns, round_id: find("round_id"), width: names.len() })
    }

    fn text<'r>(&self, record: &'r csv::ByteRecord, column: usize, field: &'static str) -> Result<&'r str, RowError> {
        let bytes = record.get(column).unwrap_or_default();
        core::str::from_utf8(bytes).map_err(|_| RowError::field(field, format!("{field}: is not valid UTF-8")))
    }

    pub(crate) fn round_id(&self, record: &csv::ByteRecord) -> Option<String> {
        let id = self.round_id.and_then(|i| record.get(i))?;
        let id = String::from_utf8_lossy(id).trim().to_owned();
        (!id.is_empty()).then_some(id)
    }

    pub(crate) fn parse(&self, record: &csv::ByteRecord) -> Result<Row, RowError> {
        if record.len() != self.width {
            return Err(RowError::whole(format!("row: has {} fields, the header has {}", record.len(), self.width)));
        }
        let [server, commit, client, nonce_at, mines_at, positions_at] = self.columns;
        let number = |column, field: &'static str| -> Result<i128, RowError> {
            let text = self.text(record, column, field)?.trim();
            if text.is_empty() {
                return Err(RowError::field(field, format!("{field}: missing")));
            }
            text.parse::<i128>()
                .map_err(|_| RowError::field(field, format!("{field}: must be an integer, got {text:?}")))
        };
        let required = |column, field: &'static str| -> Result<&str, RowError> {
            let text = self.text(record, column, field)?;
            if text.is_empty() { Err(RowError::field(field, format!("{field}: missing"))) } else { Ok(text) }
        };
        Ok(Row {
            // Seeds are text, and the empty text is a seed (as in JSON Lines): an empty column is not missing.
            server_seed: self.text(record, server, "server_seed")?.to_owned(),
            commitment: commitment(required(commit, "commitment")?)?,
            client_seed: self.text(record, client, "client_seed")?.to_owned(),
            nonce: nonce(number(nonce_at, "nonce")?)?,
            mines: mines(number(mines_at, "mines")?)?,
            positions: parse_positions(required(positions_at, "positions")?)?,
            round_id: self.round_id(record),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    const COMMITMENT: &str = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";

    fn example() -> Value {
        json!({"server_seed": SERVER, "commitment": COMMITMENT, "client_seed": "c", "nonce": 1, "mines": 3,
               "positions": "7,10,19", "round_id": 42})
    }

    #[test]
    fn json_rows_parse_and_name_the_field_at_fault() {
        let row = Row::from_json_value(&example()).unwrap();
        assert_eq!(&*row.positions, &[7, 10, 19]);
        assert_eq!(row.round_id.as_deref(), Some("42"));
        assert!(!format!("{row:?}").contains(SERVER));
        for (field, value, says) in [
            ("mines", json!(25), "mines: must be an integer in 1..=24, got 25"),
            ("mines", json!("3"), "mines: must be an integer, got a string"),
            ("nonce", json!(-1), "nonce: must be an integer in 0..=18446744073709551615, got -1"),
            ("nonce", json!(1.5), "nonce: must be an integer, got 1.5"),
            ("commitment", json!("xyz"), "commitment: must be 64 hexadecimal characters"),
            ("positions", json!([7, "10"]), "positions: item 1 must be an integer tile number"),
            ("positions", json!("7,x"), "positions: \"x\" is not a tile number"),
            ("positions", json!([26]), "positions: tile 26"),
            ("server_seed", json!(5), "server_seed: must be a string, got a number"),
            ("client_seed", Value::Null, "client_seed: missing"),
            ("round_id", json!([1]), "round_id: must be a string or a number"),
        ] {
            let mut row = example();
            row[field] = value;
            let error = Row::from_json_value(&row).unwrap_err();
            assert_eq!(error.field, Some(field));
            assert!(error.message.starts_with(says), "{field}: {}", error.message);
        }
    }

    #[test]
    fn positions_parse_in_every_written_form() {
        for text in ["7,10,19", "19, 10, 7", "[7, 10, 19]", " 7 10 19 "] {
            assert_eq!(&*parse_positions(text).unwrap(), &[7, 10, 19], "{text}");
        }
    }

    #[test]
    fn written_rows_read_back() {
        let mut row = Row::from_json_value(&example()).unwrap();
        row.client_seed = "a, \"quoted\" seed".into();
        assert_eq!(Row::from_json_line(row.to_json_line().as_bytes()).unwrap(), row);
        let text = format!("{CSV_HEADER}\n{}\n", row.to_csv_line());
        let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        let header = CsvHeader::new(reader.byte_headers().unwrap()).unwrap();
        let record = reader.byte_records().next().unwrap().unwrap();
        assert_eq!(header.parse(&record).unwrap(), row);
    }
}
