//! Reading a row from JSON (a line of JSON Lines or a `serde_json::Value`), and writing one as a line.

use std::borrow::Cow;

use fairmines::input::Number;
use fairmines::{Digest, MineCount, Tiles};
use serde_json::{Map, Value};

use super::cell::{Cell, parse_positions, play, wager};
use super::{FIELD_COUNT, FIELDS, Names, Partial, Row, RowError, RowRef};
use crate::options::MultiplierForm;

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
    /// Reads a row from a JSON object (what a JSON Lines line holds, or a Python dict converted to JSON).
    /// Fields not listed in the format are ignored. Numbers follow the core's rules (a float counts when it
    /// is an exact integer); a seed given as an exact integer is read as its digits.
    pub fn from_json_value(value: &Value) -> Result<Row, RowError> {
        parse_value(value, &Names::default()).map_err(|(e, _)| e)
    }

    /// Reads a row from the fields of a JSON object.
    pub fn from_json_map(map: &Map<String, Value>) -> Result<Row, RowError> {
        Row::from_cells(|i| json_cell(map.get(FIELDS[i])), MultiplierForm::Exact).map_err(|(e, _)| e)
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
        if let Some(wager) = &self.wager {
            let texts = [("currency", &wager.currency), ("player", &wager.player)];
            for (field, amount) in [("stake", wager.stake), ("payout", wager.payout)] {
                if let Some(amount) = amount {
                    map.insert(field.into(), Value::from(amount));
                }
            }
            for (field, text) in texts {
                if let Some(text) = text {
                    map.insert(field.into(), Value::String(text.clone()));
                }
            }
        }
        Value::Object(map).to_string()
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
pub(super) fn parse_plain<'a>(line: &'a [u8], names: &Names) -> Option<RowRef<'a>> {
    let mut at = 0;
    let mut fields: [Option<Plain<'a>>; FIELD_COUNT] = [None; FIELD_COUNT];
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
    let [
        server_seed,
        commitment,
        client_seed,
        nonce,
        mines,
        positions,
        round_id,
        rtp,
        picks,
        outcome,
        multiplier,
        form,
        stake,
        currency,
        payout,
        player,
    ] = fields;
    let cell = |field: Option<Plain<'a>>| field.map_or(Cell::Missing, Plain::cell);
    let play = if rtp.is_none() && picks.is_none() && outcome.is_none() && multiplier.is_none() {
        None
    } else {
        play([cell(rtp), cell(picks), cell(outcome), cell(multiplier), cell(form)], names.1).ok()?.map(Box::new)
    };
    let wager = if stake.is_none() && currency.is_none() && payout.is_none() && player.is_none() {
        None
    } else {
        wager([cell(stake), cell(currency), cell(payout), cell(player)], play.is_some()).ok()?.map(Box::new)
    };
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
        play,
        wager,
    })
}

pub(crate) fn parse_value(value: &Value, names: &Names) -> Result<Row, (RowError, Partial)> {
    match value {
        Value::Object(map) => Row::from_cells(|i| json_cell(map.get(names.get(i))), names.1),
        other => Err((
            RowError::whole(format!("row: must be a JSON object, got {}", json_cell(Some(other)).kind())),
            Partial::default(),
        )),
    }
}
