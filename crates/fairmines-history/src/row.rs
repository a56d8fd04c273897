//! One row of a bet history: parsing from JSON (a line or a `serde_json::Value`) and from CSV, and writing.

use core::fmt;
use std::borrow::Cow;
use std::collections::BTreeMap;

use fairmines::input::Number;
use fairmines::{Digest, MineCount, Outcome, Ratio, Rtp, Tiles};
use serde_json::{Map, Value};

use crate::error::HistoryError;

/// The columns of the CSV format, in the order [`Row::to_csv_line`] writes them.
pub const CSV_HEADER: &str = "round_id,server_seed,commitment,client_seed,nonce,mines,positions";

/// The fields every row must have (`round_id` is optional).
pub const REQUIRED_FIELDS: [&str; 6] = ["server_seed", "commitment", "client_seed", "nonce", "mines", "positions"];

/// Every field of the format: the required ones, `round_id`, then the optional play fields ([`Play`]).
pub const FIELDS: [&str; 11] = [
    "server_seed",
    "commitment",
    "client_seed",
    "nonce",
    "mines",
    "positions",
    "round_id",
    "rtp",
    "picks",
    "outcome",
    "multiplier",
];

/// How the player played a round, where a history row says (the fields of the core's
/// [`RoundRecord`](fairmines::RoundRecord), in the same text forms), checked against the replay with
/// [`fairmines::verify_play`].
///
/// A row has a play when it has any of `rtp`, `picks`, `outcome`, `multiplier`; it then needs `picks` and
/// `outcome`. `multiplier` (absent or null: none, as for a lost round) is checked only with the `rtp` it was
/// computed with: a multiplier without an `rtp` makes the row malformed (field `rtp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play {
    /// The tiles picked, in order (1-based; repeats kept, so they fail the check).
    pub picks: Tiles,
    /// How the round ended.
    pub outcome: Outcome,
    /// The return-to-player factor; `None`: the multiplier is not checked.
    pub rtp: Option<Rtp>,
    /// The multiplier paid.
    pub multiplier: Option<Ratio>,
}

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
    /// The picks, outcome and multiplier, where the history has them.
    pub play: Option<Play>,
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
            .field("play", &self.play)
            .finish()
    }
}

/// A row as a worker checks it: its text borrowed from the input where it can be (a JSON line or CSV record
/// whose strings have no escapes), so that no seed is copied per row.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct RowRef<'a> {
    pub(crate) server_seed: Cow<'a, str>,
    pub(crate) commitment: Digest,
    pub(crate) client_seed: Cow<'a, str>,
    pub(crate) nonce: u64,
    pub(crate) mines: MineCount,
    pub(crate) positions: Tiles,
    pub(crate) round_id: Option<Cow<'a, str>>,
    /// Boxed: most histories have none, and a small row keeps the chunks small.
    pub(crate) play: Option<Box<Play>>,
}

impl From<Row> for RowRef<'_> {
    fn from(row: Row) -> Self {
        RowRef {
            server_seed: Cow::Owned(row.server_seed),
            commitment: row.commitment,
            client_seed: Cow::Owned(row.client_seed),
            nonce: row.nonce,
            mines: row.mines,
            positions: row.positions,
            round_id: row.round_id.map(Cow::Owned),
            play: row.play.map(Box::new),
        }
    }
}

impl RowRef<'_> {
    pub(crate) fn into_owned(self) -> Row {
        Row {
            server_seed: self.server_seed.into_owned(),
            commitment: self.commitment,
            client_seed: self.client_seed.into_owned(),
            nonce: self.nonce,
            mines: self.mines,
            positions: self.positions,
            round_id: self.round_id.map(Cow::into_owned),
            play: self.play.map(|play| *play),
        }
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

    fn missing(field: &'static str) -> Self {
        RowError::field(field, format!("{field}: missing"))
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RowError {}

/// What could be read of a row that cannot be: its round id, and its seed pair and nonce (so that a
/// malformed row's nonce is not also reported missing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Partial {
    pub(crate) round_id: Option<String>,
    /// The server seed, client seed and nonce.
    pub(crate) round: Option<Box<(String, String, u64)>>,
}

impl Partial {
    /// The seeds and nonce from their cells, when all three read.
    fn round<'a>(cell: impl Fn(usize) -> Cell<'a>) -> Option<Box<(String, String, u64)>> {
        let server = seed(cell(0), "server_seed").ok()?;
        let client = seed(cell(2), "client_seed").ok()?;
        Some(Box::new((server, client, nonce(number(cell(3), "nonce").ok()?).ok()?)))
    }
}

/// Where each field of [`FIELDS`] is found in the input: under its own name, or under the name a column
/// mapping gives it (`{"serverSeed": "server_seed"}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Names([Cow<'static, str>; 11]);

impl Default for Names {
    fn default() -> Self {
        Names(FIELDS.map(Cow::Borrowed))
    }
}

impl Names {
    /// The names a column mapping gives (the input's name → the field it holds); the other fields keep theirs.
    pub(crate) fn new(columns: &BTreeMap<String, String>) -> Result<Names, HistoryError> {
        let mut names = Names::default();
        let mut given: [Option<&str>; 11] = [None; 11];
        for (name, field) in columns {
            let Some(i) = FIELDS.iter().position(|f| f == field) else {
                return Err(HistoryError::Argument(format!(
                    "columns: {name:?} is mapped to {field:?}, which is not a field of the format ({})",
                    FIELDS.join(", ")
                )));
            };
            if let Some(before) = given[i].replace(name) {
                return Err(HistoryError::Argument(format!(
                    "columns: {before:?} and {name:?} are both mapped to {field}"
                )));
            }
            names.0[i] = Cow::Owned(name.clone());
        }
        Ok(names)
    }

    /// The name of field `i` of [`FIELDS`] in the input.
    pub(crate) fn get(&self, i: usize) -> &str {
        &self.0[i]
    }

    /// The position of each field among the columns named in `header` (compared trimmed, ignoring case); a
    /// required field that is not there is an error naming every one missing (`what`: `the CSV header`).
    pub(crate) fn locate(&self, header: &[String], what: &str) -> Result<[Option<usize>; 11], String> {
        let found: [Option<usize>; 11] =
            core::array::from_fn(|i| header.iter().position(|name| name.trim().eq_ignore_ascii_case(self.0[i].trim())));
        let missing: Vec<&str> = (0..6).filter(|&i| found[i].is_none()).map(|i| self.get(i)).collect();
        if missing.is_empty() {
            return Ok(found);
        }
        let wanted: Vec<&str> = (0..6).map(|i| self.get(i)).collect();
        Err(format!(
            "header: {what} must name the columns {}; missing: {} (its columns: {})",
            wanted.join(", "),
            missing.join(", "),
            header.join(", ")
        ))
    }
}

/// A field's value as an input holds it (a JSON value, a column's cell), before the format's rules judge it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cell<'a> {
    /// Absent, null, or NaN (how pandas marks a missing value).
    Missing,
    Text(&'a str),
    Number(Number),
    Bool,
    /// Tile numbers (a JSON array, a list column); an item that is not a number, as it is shown.
    List(Vec<Result<Number, String>>),
    /// Anything else, named (`an object`).
    Other(&'a str),
}

impl Cell<'_> {
    fn kind(&self) -> &str {
        match self {
            Cell::Missing => "null",
            Cell::Text(_) => "a string",
            Cell::Number(_) => "a number",
            Cell::Bool => "a boolean",
            Cell::List(_) => "an array",
            Cell::Other(name) => name,
        }
    }
}

/// A seed is text; a number that is an exact integer is read as its decimal digits (what a CSV reader such as
/// pandas makes of a column of digits).
fn seed(cell: Cell<'_>, field: &'static str) -> Result<String, RowError> {
    match cell {
        Cell::Text(text) => Ok(text.to_owned()),
        Cell::Number(n) => n.integer().map(|i| i.to_string()).ok_or_else(|| {
            RowError::field(field, format!("{field}: must be a string, got {n} (a number is read as its digits only when it is an exact integer)"))
        }),
        Cell::Missing => Err(RowError::missing(field)),
        other => Err(RowError::field(field, format!("{field}: must be a string, got {}", other.kind()))),
    }
}

fn commitment(cell: Cell<'_>) -> Result<Digest, RowError> {
    match cell {
        Cell::Text(text) => Digest::parse_hex(text.trim(), "commitment").map_err(|e| RowError::core("commitment", e)),
        Cell::Missing => Err(RowError::missing("commitment")),
        other => Err(RowError::field("commitment", format!("commitment: must be a string, got {}", other.kind()))),
    }
}

/// A number for the core's rules (a float counts when it is an exact integer).
fn number(cell: Cell<'_>, field: &'static str) -> Result<Number, RowError> {
    match cell {
        Cell::Number(n) => Ok(n),
        Cell::Missing => Err(RowError::missing(field)),
        other => Err(RowError::field(field, format!("{field}: must be an integer, got {}", other.kind()))),
    }
}

fn nonce(n: Number) -> Result<u64, RowError> {
    fairmines::input::nonce(n).map_err(|e| RowError::core("nonce", e))
}

fn mines(n: Number) -> Result<MineCount, RowError> {
    MineCount::try_from(n).map_err(|e| RowError::core("mines", e))
}

/// Parses a list of tiles written as text: `7,10,19`, `7;10;19`, `7 10 19` or `[7, 10, 19]`.
pub fn parse_positions(text: &str) -> Result<Tiles, RowError> {
    let inner = text.trim();
    let inner = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(inner);
    // A board's worth of tiles without allocating; a longer list (refused below) goes on in `more`.
    let (mut tiles, mut count, mut more) = ([0i128; 25], 0, Vec::new());
    for part in inner.split(|c: char| c == ',' || c == ';' || c.is_whitespace()).filter(|part| !part.is_empty()) {
        let tile = part
            .parse::<i128>()
            .map_err(|_| RowError::field("positions", format!("positions: {part:?} is not a tile number")))?;
        match tiles.get_mut(count) {
            Some(slot) => {
                *slot = tile;
                count += 1;
            }
            None => more.push(tile),
        }
    }
    Tiles::declared(tiles[..count].iter().copied().chain(more), "positions").map_err(|e| RowError::core("positions", e))
}

fn positions(cell: Cell<'_>) -> Result<Tiles, RowError> {
    match cell {
        Cell::Text(text) => parse_positions(text),
        Cell::List(items) => {
            let mut tiles = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                tiles.push(item.map_err(|shown| {
                    RowError::field(
                        "positions",
                        format!("positions: item {i} must be an integer tile number, got {shown}"),
                    )
                })?);
            }
            Tiles::declared(tiles, "positions").map_err(|e| RowError::core("positions", e))
        }
        Cell::Missing => Err(RowError::missing("positions")),
        other => Err(RowError::field(
            "positions",
            format!("positions: must be a string like \"7,10,19\" or an array of integers, got {}", other.kind()),
        )),
    }
}

/// A round id is text; a number is kept as its text (an exact integer in decimal, also when it is a float).
fn round_id(cell: Cell<'_>) -> Result<Option<String>, RowError> {
    match cell {
        Cell::Missing => Ok(None),
        Cell::Text(text) => Ok(Some(text.to_owned())),
        Cell::Number(n) => Ok(Some(n.integer().map_or_else(|| n.to_string(), |i| i.to_string()))),
        other => {
            Err(RowError::field("round_id", format!("round_id: must be a string or a number, got {}", other.kind())))
        }
    }
}

/// An exact number (`rtp`, `multiplier`): text as the core parses it, or a number read as its shortest
/// decimal text (`0.99`).
fn exact_text<'a>(cell: &'a Cell<'a>, field: &'static str) -> Result<Option<Cow<'a, str>>, RowError> {
    match cell {
        Cell::Missing => Ok(None),
        Cell::Text(text) if text.trim().is_empty() => Ok(None),
        Cell::Text(text) => Ok(Some(Cow::Borrowed(text.trim()))),
        Cell::Number(n) => Ok(Some(Cow::Owned(n.integer().map_or_else(|| n.to_string(), |i| i.to_string())))),
        other => Err(RowError::field(
            field,
            format!("{field}: must be a fraction like \"99/100\" or a decimal like \"0.99\", got {}", other.kind()),
        )),
    }
}

/// Parses picks written as text: the tiles in order, as [`parse_positions`] reads positions (`7,10,19`).
pub fn parse_picks(text: &str) -> Result<Tiles, RowError> {
    let inner = text.trim();
    let inner = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')).unwrap_or(inner);
    let mut tiles = Vec::new();
    for part in inner.split(|c: char| c == ',' || c == ';' || c.is_whitespace()).filter(|part| !part.is_empty()) {
        tiles.push(Number::Int(
            part.parse::<i128>()
                .map_err(|_| RowError::field("picks", format!("picks: {part:?} is not a tile number")))?,
        ));
    }
    fairmines::input::tiles(tiles, "picks").map_err(|e| RowError::core("picks", e))
}

/// The play fields' cells (`rtp`, `picks`, `outcome`, `multiplier`): `None` when all are missing.
fn play(cells: [Cell<'_>; 4]) -> Result<Option<Play>, RowError> {
    let [rtp, picks, outcome, multiplier] = cells;
    let empty = |cell: &Cell<'_>| matches!(cell, Cell::Missing) || matches!(cell, Cell::Text(t) if t.trim().is_empty());
    if empty(&rtp) && empty(&picks) && empty(&outcome) && empty(&multiplier) {
        return Ok(None);
    }
    let needed = |field: &'static str| {
        RowError::field(
            field,
            format!("{field}: missing (a row with any of rtp, picks, outcome, multiplier needs picks and outcome)"),
        )
    };
    let outcome = match outcome {
        Cell::Text(text) if !text.trim().is_empty() => {
            fairmines::input::outcome(text.trim(), "outcome").map_err(|e| RowError::core("outcome", e))?
        }
        Cell::Missing | Cell::Text(_) => return Err(needed("outcome")),
        other => return Err(RowError::field("outcome", format!("outcome: must be a string, got {}", other.kind()))),
    };
    let picks = match picks {
        // An empty text is no picks (a round voided before its first pick).
        Cell::Text(text) => parse_picks(text)?,
        Cell::List(items) => {
            let mut tiles = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                tiles.push(item.map_err(|shown| {
                    RowError::field("picks", format!("picks: item {i} must be an integer tile number, got {shown}"))
                })?);
            }
            fairmines::input::tiles(tiles, "picks").map_err(|e| RowError::core("picks", e))?
        }
        Cell::Missing => return Err(needed("picks")),
        other => {
            return Err(RowError::field(
                "picks",
                format!("picks: must be a string like \"7,2\" or an array of integers, got {}", other.kind()),
            ));
        }
    };
    let rtp =
        exact_text(&rtp, "rtp")?.map(|text| Rtp::parse(&text)).transpose().map_err(|e| RowError::core("rtp", e))?;
    let multiplier = exact_text(&multiplier, "multiplier")?
        .map(|text| Ratio::parse(&text, "multiplier"))
        .transpose()
        .map_err(|e| RowError::core("multiplier", e))?;
    if multiplier.is_some() && rtp.is_none() {
        return Err(RowError::field(
            "rtp",
            "rtp: missing (a row with a multiplier needs the rtp it was computed with)".to_owned(),
        ));
    }
    Ok(Some(Play { picks, outcome, rtp, multiplier }))
}

/// A JSON number as the core takes numbers.
fn json_number(n: &serde_json::Number) -> Number {
    n.as_i64()
        .map(Number::from)
        .or_else(|| n.as_u64().map(Number::from))
        .unwrap_or_else(|| Number::Float(n.as_f64().unwrap_or(f64::NAN)))
}

fn json_cell(value: Option<&Value>) -> Cell<'_> {
    match value {
        None | Some(Value::Null) => Cell::Missing,
        Some(Value::String(text)) => Cell::Text(text),
        Some(Value::Number(n)) => Cell::Number(json_number(n)),
        Some(Value::Bool(_)) => Cell::Bool,
        Some(Value::Array(items)) => Cell::List(
            items
                .iter()
                .map(|item| match item {
                    Value::Number(n) => Ok(json_number(n)),
                    other => Err(other.to_string()),
                })
                .collect(),
        ),
        Some(Value::Object(_)) => Cell::Other("an object"),
    }
}

impl Row {
    /// Reads a row from the cells of its fields (index `i`: field `i` of [`FIELDS`]); on failure, also the
    /// round id where that much could be read.
    pub(crate) fn from_cells<'a>(cell: impl Fn(usize) -> Cell<'a>) -> Result<Row, (RowError, Partial)> {
        let round_id = round_id(cell(6)).map_err(|e| (e, Partial { round_id: None, round: Partial::round(&cell) }))?;
        let fields = (|| {
            Ok((
                seed(cell(0), "server_seed")?,
                commitment(cell(1))?,
                seed(cell(2), "client_seed")?,
                nonce(number(cell(3), "nonce")?)?,
                mines(number(cell(4), "mines")?)?,
                positions(cell(5))?,
                play([cell(7), cell(8), cell(9), cell(10)])?,
            ))
        })();
        match fields {
            Ok((server_seed, commitment, client_seed, nonce, mines, positions, play)) => {
                Ok(Row { server_seed, commitment, client_seed, nonce, mines, positions, round_id, play })
            }
            Err(e) => Err((e, Partial { round: Partial::round(&cell), round_id })),
        }
    }

    /// Reads a row from a JSON object (what a JSON Lines line holds, or a Python dict converted to JSON).
    /// Fields not listed in the format are ignored. Numbers follow the core's rules (a float counts when it
    /// is an exact integer); a seed given as an exact integer is read as its digits.
    pub fn from_json_value(value: &Value) -> Result<Row, RowError> {
        parse_value(value, &Names::default()).map_err(|(e, _)| e)
    }

    /// Reads a row from the fields of a JSON object.
    pub fn from_json_map(map: &Map<String, Value>) -> Result<Row, RowError> {
        Row::from_cells(|i| json_cell(map.get(FIELDS[i]))).map_err(|(e, _)| e)
    }

    /// Reads a row from one line of JSON Lines.
    pub fn from_json_line(line: &[u8]) -> Result<Row, RowError> {
        parse_json_line(line, &Names::default()).map(RowRef::into_owned).map_err(|(e, _)| e)
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
        if let Some(play) = &self.play {
            if let Some(rtp) = play.rtp {
                map.insert("rtp".into(), Value::String(rtp.to_string()));
            }
            map.insert("picks".into(), Value::from(play.picks.to_vec()));
            map.insert("outcome".into(), Value::String(play.outcome.as_str().to_owned()));
            if let Some(multiplier) = play.multiplier {
                map.insert("multiplier".into(), Value::String(multiplier.to_string()));
            }
        }
        Value::Object(map).to_string()
    }

    /// The row as one CSV line in the column order of [`CSV_HEADER`] (no newline), positions as `"7,10,19"`;
    /// the play is not written (its columns are not in that header).
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
///
/// A line in the form every history writer produces ([`parse_plain`]) is read without serde_json and
/// without copying its strings; any other line, and every line that fails, is read by serde_json and the
/// format's rules, which give the same row or the error.
pub(crate) fn parse_json_line<'a>(line: &'a [u8], names: &Names) -> Result<RowRef<'a>, (RowError, Partial)> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if let Some(row) = parse_plain(line, names) {
        return Ok(row);
    }
    let value: Value = serde_json::from_slice(line).map_err(|e| {
        let what = if e.is_eof() { "incomplete JSON (the line ends too early)" } else { "not valid JSON" };
        (RowError::whole(format!("row: {what}: {e}")), Partial::default())
    })?;
    parse_value(&value, names).map(RowRef::from)
}

/// A value of a plain JSON line.
#[derive(Clone, Copy)]
enum Plain<'a> {
    Text(&'a str),
    Integer(u64),
    /// Up to 25 integers (more are read by serde_json, whose path reports them).
    Integers([u64; 25], usize),
    Null,
}

impl<'a> Plain<'a> {
    fn cell(self) -> Cell<'a> {
        match self {
            Plain::Text(text) => Cell::Text(text),
            Plain::Integer(n) => Cell::Number(Number::from(n)),
            Plain::Integers(items, count) => Cell::List(items[..count].iter().map(|&n| Ok(Number::from(n))).collect()),
            Plain::Null => Cell::Missing,
        }
    }
}

/// Reads the plain JSON lines: one object of strings without escapes or control characters, integers
/// (digits only, at most 19, no sign, fraction or exponent) and arrays of such integers, spaces or tabs
/// between the tokens; no field of the format twice. Fields not in the format are skipped (in the same
/// form). `None` for anything else, and for a row the format's rules refuse: the general path reads those.
fn parse_plain<'a>(line: &'a [u8], names: &Names) -> Option<RowRef<'a>> {
    let mut at = 0;
    let mut fields: [Option<Plain<'a>>; 11] = [None; 11];
    let space = |at: &mut usize| {
        while matches!(line.get(*at), Some(b' ' | b'\t')) {
            *at += 1;
        }
    };
    let expect = |at: &mut usize, byte: u8| -> Option<()> {
        space(at);
        (line.get(*at) == Some(&byte)).then(|| *at += 1)
    };
    let text = |at: &mut usize| -> Option<&'a str> {
        let start = *at;
        let end = start + memchr::memchr(b'"', &line[start..])?;
        let bytes = &line[start..end];
        *at = end + 1;
        // No escape and no control character (serde_json refuses those raw); checked without branches.
        if bytes.iter().fold(false, |odd, &b| odd | (b == b'\\') | (b < 0x20)) {
            return None;
        }
        core::str::from_utf8(bytes).ok()
    };
    let integer = |at: &mut usize| -> Option<u64> {
        let start = *at;
        while line.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        let digits = &line[start..*at];
        let plain = matches!(digits.len(), 1..=19) && (digits[0] != b'0' || digits.len() == 1);
        if !plain || matches!(line.get(*at), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        Some(digits.iter().fold(0, |n, d| n * 10 + u64::from(d - b'0')))
    };
    expect(&mut at, b'{')?;
    space(&mut at);
    if line.get(at) == Some(&b'}') {
        at += 1;
    } else {
        loop {
            expect(&mut at, b'"')?;
            let key = text(&mut at)?;
            expect(&mut at, b':')?;
            space(&mut at);
            let value = match *line.get(at)? {
                b'"' => {
                    at += 1;
                    Plain::Text(text(&mut at)?)
                }
                b'0'..=b'9' => Plain::Integer(integer(&mut at)?),
                b'n' if line[at..].starts_with(b"null") => {
                    at += 4;
                    Plain::Null
                }
                b'[' => {
                    at += 1;
                    let (mut items, mut count) = ([0; 25], 0);
                    space(&mut at);
                    if line.get(at) == Some(&b']') {
                        at += 1;
                    } else {
                        loop {
                            space(&mut at);
                            *items.get_mut(count)? = integer(&mut at)?;
                            count += 1;
                            space(&mut at);
                            match *line.get(at)? {
                                b',' => at += 1,
                                b']' => break at += 1,
                                _ => return None,
                            }
                        }
                    }
                    Plain::Integers(items, count)
                }
                _ => return None,
            };
            if let Some(i) = (0..FIELDS.len()).find(|&i| names.get(i) == key)
                && fields[i].replace(value).is_some()
            {
                return None;
            }
            space(&mut at);
            match *line.get(at)? {
                b',' => at += 1,
                b'}' => break at += 1,
                _ => return None,
            }
        }
    }
    space(&mut at);
    if at != line.len() {
        return None;
    }
    // The format's rules, as `Row::from_cells` applies them; a refusal goes to the general path.
    let [server_seed, commitment, client_seed, nonce, mines, positions, round_id, rtp, picks, outcome, multiplier] =
        fields;
    let text_of = |field: Option<Plain<'a>>| match field {
        Some(Plain::Text(text)) => Some(text),
        _ => None,
    };
    let integer_of = |field: Option<Plain<'a>>| match field {
        Some(Plain::Integer(n)) => Some(Number::from(n)),
        _ => None,
    };
    Some(RowRef {
        server_seed: Cow::Borrowed(text_of(server_seed)?),
        commitment: Digest::parse_hex(text_of(commitment)?.trim(), "commitment").ok()?,
        client_seed: Cow::Borrowed(text_of(client_seed)?),
        nonce: fairmines::input::nonce(integer_of(nonce)?).ok()?,
        mines: MineCount::try_from(integer_of(mines)?).ok()?,
        positions: match positions? {
            Plain::Integers(items, count) => Tiles::declared(items[..count].iter().copied(), "positions").ok()?,
            Plain::Text(text) => parse_positions(text).ok()?,
            Plain::Integer(_) | Plain::Null => return None,
        },
        round_id: match round_id {
            None | Some(Plain::Null) => None,
            Some(Plain::Text(text)) => Some(Cow::Borrowed(text)),
            Some(Plain::Integer(n)) => Some(Cow::Owned(n.to_string())),
            Some(Plain::Integers(..)) => return None,
        },
        play: if rtp.is_none() && picks.is_none() && outcome.is_none() && multiplier.is_none() {
            None
        } else {
            let cell = |field: Option<Plain<'a>>| field.map_or(Cell::Missing, Plain::cell);
            play([cell(rtp), cell(picks), cell(outcome), cell(multiplier)]).ok()?.map(Box::new)
        },
    })
}

pub(crate) fn parse_value(value: &Value, names: &Names) -> Result<Row, (RowError, Partial)> {
    match value {
        Value::Object(map) => Row::from_cells(|i| json_cell(map.get(names.get(i)))),
        other => Err((
            RowError::whole(format!("row: must be a JSON object, got {}", json_cell(Some(other)).kind())),
            Partial::default(),
        )),
    }
}

/// A number written as text (a CSV field): an integer, or a float for the core's rules (`5.0` counts).
fn number_text(text: &str) -> Option<Number> {
    text.parse::<i128>().map(Number::Int).ok().or_else(|| text.parse::<f64>().ok().map(Number::Float))
}

/// A CSV record's fields as a chunk holds them: their bytes one after another from `start`, and where each
/// field ends.
#[derive(Clone, Copy)]
pub(crate) struct Record<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) start: usize,
    pub(crate) ends: &'a [usize],
}

impl<'a> Record<'a> {
    fn len(self) -> usize {
        self.ends.len()
    }

    fn get(self, i: usize) -> Option<&'a [u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { self.start } else { self.ends[i - 1] };
        self.text.get(start..end)
    }
}

/// Where each field is in the records of a CSV history.
#[derive(Clone, Debug)]
pub(crate) struct CsvHeader {
    columns: [usize; 6],
    round_id: Option<usize>,
    /// `rtp`, `picks`, `outcome`, `multiplier`, where the header has them.
    play: Option<[Option<usize>; 4]>,
    width: usize,
}

impl CsvHeader {
    /// Finds the columns by name (any order, surrounding spaces and case ignored; other columns are ignored).
    pub(crate) fn new(record: &csv::ByteRecord, names: &Names) -> Result<Self, String> {
        let header: Vec<String> = record.iter().map(|name| String::from_utf8_lossy(name).into_owned()).collect();
        let found = names.locate(&header, "the CSV header")?;
        Ok(CsvHeader {
            columns: core::array::from_fn(|i| found[i].unwrap_or(0)),
            round_id: found[6],
            play: found[7..].iter().any(Option::is_some).then(|| [found[7], found[8], found[9], found[10]]),
            width: header.len(),
        })
    }

    fn text<'r>(&self, record: Record<'r>, column: usize, field: &'static str) -> Result<&'r str, RowError> {
        let bytes = record.get(column).unwrap_or_default();
        core::str::from_utf8(bytes).map_err(|_| RowError::field(field, format!("{field}: is not valid UTF-8")))
    }

    /// What can be read of a record that does not parse.
    pub(crate) fn partial(&self, record: Record<'_>) -> Partial {
        let [server, _, client, nonce_at, ..] = self.columns;
        let round = (record.len() == self.width)
            .then(|| {
                let text = |column| core::str::from_utf8(record.get(column)?).ok();
                let nonce = fairmines::input::nonce(number_text(text(nonce_at)?.trim())?).ok()?;
                Some(Box::new((text(server)?.to_owned(), text(client)?.to_owned(), nonce)))
            })
            .flatten();
        Partial { round_id: self.round_id_of(record).map(Cow::into_owned), round }
    }

    /// The round id, trimmed, borrowed from the record when it is valid UTF-8; `None` when empty.
    fn round_id_of<'r>(&self, record: Record<'r>) -> Option<Cow<'r, str>> {
        let id = match String::from_utf8_lossy(self.round_id.and_then(|i| record.get(i))?) {
            Cow::Borrowed(id) => Cow::Borrowed(id.trim()),
            Cow::Owned(id) => Cow::Owned(id.trim().to_owned()),
        };
        (!id.is_empty()).then_some(id)
    }

    pub(crate) fn parse<'r>(&self, record: Record<'r>) -> Result<RowRef<'r>, RowError> {
        if record.len() != self.width {
            return Err(RowError::whole(format!("row: has {} fields, the header has {}", record.len(), self.width)));
        }
        let [server, commit, client, nonce_at, mines_at, positions_at] = self.columns;
        let number = |column, field: &'static str| -> Result<Number, RowError> {
            let text = self.text(record, column, field)?.trim();
            if text.is_empty() {
                return Err(RowError::missing(field));
            }
            number_text(text)
                .ok_or_else(|| RowError::field(field, format!("{field}: must be an integer, got {text:?}")))
        };
        let required = |column, field: &'static str| -> Result<&str, RowError> {
            let text = self.text(record, column, field)?;
            if text.is_empty() { Err(RowError::missing(field)) } else { Ok(text) }
        };
        Ok(RowRef {
            // Seeds are text, and the empty text is a seed (as in JSON Lines): an empty column is not missing.
            server_seed: Cow::Borrowed(self.text(record, server, "server_seed")?),
            commitment: commitment(Cell::Text(required(commit, "commitment")?))?,
            client_seed: Cow::Borrowed(self.text(record, client, "client_seed")?),
            nonce: nonce(number(nonce_at, "nonce")?)?,
            mines: mines(number(mines_at, "mines")?)?,
            positions: parse_positions(required(positions_at, "positions")?)?,
            round_id: self.round_id_of(record),
            play: match self.play {
                None => None,
                Some(columns) => {
                    let fields = ["rtp", "picks", "outcome", "multiplier"];
                    let mut cells = [Cell::Missing, Cell::Missing, Cell::Missing, Cell::Missing];
                    for ((cell, column), field) in cells.iter_mut().zip(columns).zip(fields) {
                        if let Some(column) = column {
                            *cell = Cell::Text(self.text(record, column, field)?);
                        }
                    }
                    play(cells)?.map(Box::new)
                }
            },
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
            ("nonce", json!(-1), "nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got -1"),
            ("nonce", json!(1.5), "nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got 1.5"),
            ("nonce", json!(true), "nonce: must be an integer, got a boolean"),
            ("commitment", json!("xyz"), "commitment: must be 64 hexadecimal characters"),
            ("positions", json!([7, "10"]), "positions: item 1 must be an integer tile number"),
            ("positions", json!("7,x"), "positions: \"x\" is not a tile number"),
            ("positions", json!([26]), "positions: tile 26"),
            ("server_seed", json!(true), "server_seed: must be a string, got a boolean"),
            ("client_seed", Value::Null, "client_seed: missing"),
            ("client_seed", json!(2.5), "client_seed: must be a string, got 2.5 (a number is read as its digits"),
            ("client_seed", json!({}), "client_seed: must be a string, got an object"),
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
    fn numbers_follow_the_cores_rules_and_numeric_seeds_are_their_digits() {
        // What pandas makes of a CSV: client seeds of digits as integers, integer columns with a gap as floats.
        let mut row = example();
        row["client_seed"] = json!(123456);
        row["nonce"] = json!(1.0);
        row["mines"] = json!(3.0);
        row["positions"] = json!([7.0, 10, 19.0]);
        row["round_id"] = json!(42.0);
        let read = Row::from_json_value(&row).unwrap();
        assert_eq!((read.client_seed.as_str(), read.nonce, read.mines.get()), ("123456", 1, 3));
        assert_eq!((&*read.positions, read.round_id.as_deref()), (&[7, 10, 19][..], Some("42")));
        row["nonce"] = json!(1e300);
        assert!(Row::from_json_value(&row).unwrap_err().message.starts_with("nonce: must be an integer in"));
    }

    #[test]
    fn a_column_mapping_names_the_fields_and_is_checked() {
        let mapping =
            |pairs: &[(&str, &str)]| Names::new(&pairs.iter().map(|&(a, b)| (a.to_owned(), b.to_owned())).collect());
        let names = mapping(&[("serverSeed", "server_seed"), ("id", "round_id")]).unwrap();
        let mut row = example();
        let seed = row.as_object_mut().unwrap().remove("server_seed").unwrap();
        row["serverSeed"] = seed;
        row["id"] = json!("x");
        let read = parse_value(&row, &names).unwrap();
        assert_eq!((read.server_seed.as_str(), read.round_id.as_deref()), (SERVER, Some("x")));
        assert_eq!(parse_value(&row, &Names::default()).unwrap_err().0.message, "server_seed: missing");
        let wrong = mapping(&[("a", "seed")]).unwrap_err().to_string();
        assert!(wrong.starts_with("columns: \"a\" is mapped to \"seed\", which is not a field"), "{wrong}");
        let twice = mapping(&[("a", "nonce"), ("b", "nonce")]).unwrap_err().to_string();
        assert_eq!(twice, "columns: \"a\" and \"b\" are both mapped to nonce");
        let header = ["ServerSeed ".to_owned(), "x".to_owned()];
        let located = names.locate(&header, "the CSV header").unwrap_err();
        assert!(
            located
                .ends_with("missing: commitment, client_seed, nonce, mines, positions (its columns: ServerSeed , x)")
        );
    }

    /// The plain reader agrees with serde_json and the format's rules on every line it reads, and leaves every
    /// other line to them: rows in many written forms, and each of them with every byte changed in turn to
    /// bytes that matter to JSON (or removed).
    #[test]
    fn plain_lines_read_as_serde_json_reads_them() {
        let names = Names::default();
        let general = |line: &[u8]| -> Option<Row> {
            serde_json::from_slice::<Value>(line).ok().and_then(|value| parse_value(&value, &names).ok())
        };
        let lines = [
            format!(
                r#"{{"server_seed":"{SERVER}","commitment":"{COMMITMENT}","client_seed":"c","nonce":1,"mines":3,"positions":[7,10,19],"round_id":"r1"}}"#
            ),
            format!(
                r#"{{ "round_id" : 42 , "nonce":0,"mines":1,"positions":"7","client_seed":"","commitment":"{}","server_seed":"{SERVER}" }}"#,
                COMMITMENT.to_uppercase()
            ),
            format!(
                "{{\t\"server_seed\": \"{SERVER}\", \"commitment\": \"{COMMITMENT}\", \"client_seed\": \"ünï:cødé\", \"nonce\": 9007199254740991, \"mines\": 24, \"positions\": [ 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24 ] }}"
            ),
            format!(
                r#"{{"extra":[1,2],"more":"x","server_seed":"not hex","commitment":"{COMMITMENT}","client_seed":"a\"b","nonce":18446744073709551615,"mines":2,"positions":"[3, 4]"}}"#
            ),
            format!(
                r#"{{"server_seed":"s","commitment":"{COMMITMENT}","client_seed":"c","nonce":1,"mines":3,"positions":[7,10,19],"nonce":2}}"#
            ),
            "{}".to_owned(),
        ];
        let (mut variants, mut plain) = (0, 0);
        for line in &lines {
            let line = line.as_bytes();
            let mut forms = vec![line.to_vec()];
            for i in 0..line.len() {
                for byte in *b" \t\"\\,:0123456789-+.eE[]{}nax\x01\xc3\xff" {
                    let mut changed = line.to_vec();
                    changed[i] = byte;
                    forms.push(changed);
                }
                let mut shorter = line.to_vec();
                shorter.remove(i);
                forms.push(shorter);
            }
            for form in forms {
                variants += 1;
                let read = parse_json_line(&form, &names).ok().map(RowRef::into_owned);
                assert_eq!(read, general(&form), "{}", String::from_utf8_lossy(&form));
                if let Some(row) = parse_plain(&form, &names) {
                    plain += 1;
                    assert_eq!(Some(row.into_owned()), general(&form), "{}", String::from_utf8_lossy(&form));
                }
            }
        }
        // Most rows are read the plain way, and many changed ones are left to the general path.
        assert!(plain > variants / 5 && plain < variants, "{plain} of {variants} read plain");
    }

    #[test]
    fn positions_parse_in_every_written_form() {
        for text in ["7,10,19", "19, 10, 7", "[7, 10, 19]", " 7 10 19 ", "7;10;19"] {
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
        let header = CsvHeader::new(reader.byte_headers().unwrap(), &Names::default()).unwrap();
        let record = reader.byte_records().next().unwrap().unwrap();
        let (mut text, mut ends) = (Vec::new(), Vec::new());
        for field in &record {
            text.extend_from_slice(field);
            ends.push(text.len());
        }
        let record = Record { text: &text, start: 0, ends: &ends };
        assert_eq!(header.parse(record).unwrap().into_owned(), row);
    }
}
