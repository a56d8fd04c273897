//! The format's rules for each field, applied to a cell: a field's value as an input holds it (a JSON value,
//! an Arrow column's cell, a CSV field's text), before the rules judge it.

use std::borrow::Cow;

use fairmines::input::Number;
use fairmines::{Digest, MineCount, Places, Ratio, Rtp, Tiles};

use super::{MAX_AMOUNT, Partial, Play, Row, RowError, WAGER_FIELDS, Wager};
use crate::options::MultiplierForm;

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
    pub(super) fn kind(&self) -> &str {
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
pub(super) fn seed(cell: Cell<'_>, field: &'static str) -> Result<String, RowError> {
    match cell {
        Cell::Text(text) => Ok(text.to_owned()),
        Cell::Number(n) => n.integer().map(|i| i.to_string()).ok_or_else(|| {
            RowError::field(field, format!("{field}: must be a string, got {n} (a number is read as its digits only when it is an exact integer)"))
        }),
        Cell::Missing => Err(RowError::missing(field)),
        other => Err(RowError::field(field, format!("{field}: must be a string, got {}", other.kind()))),
    }
}

pub(super) fn commitment(cell: Cell<'_>) -> Result<Digest, RowError> {
    match cell {
        Cell::Text(text) => Digest::parse_hex(text.trim(), "commitment").map_err(|e| RowError::core("commitment", e)),
        Cell::Missing => Err(RowError::missing("commitment")),
        other => Err(RowError::field("commitment", format!("commitment: must be a string, got {}", other.kind()))),
    }
}

/// A number for the core's rules (a float counts when it is an exact integer).
pub(super) fn number(cell: Cell<'_>, field: &'static str) -> Result<Number, RowError> {
    match cell {
        Cell::Number(n) => Ok(n),
        Cell::Missing => Err(RowError::missing(field)),
        other => Err(RowError::field(field, format!("{field}: must be an integer, got {}", other.kind()))),
    }
}

pub(super) fn nonce(n: Number) -> Result<u64, RowError> {
    fairmines::input::nonce(n).map_err(|e| RowError::core("nonce", e))
}

pub(super) fn mines(n: Number) -> Result<MineCount, RowError> {
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

/// The play fields' cells (`rtp`, `picks`, `outcome`, `multiplier`, `multiplier_form`): `None` when the
/// first four are missing. `form` is the multiplier's form where the row does not say.
pub(super) fn play(cells: [Cell<'_>; 5], form: MultiplierForm) -> Result<Option<Play>, RowError> {
    let [rtp, picks, outcome, multiplier, form_cell] = cells;
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
    let form = match form_cell {
        Cell::Missing => form,
        Cell::Text(text) if text.trim().is_empty() => form,
        Cell::Text(text) => MultiplierForm::parse(text).map_err(|e| RowError::field("multiplier_form", e))?,
        other => {
            return Err(RowError::field(
                "multiplier_form",
                format!("multiplier_form: must be exact or displayed, got {}", other.kind()),
            ));
        }
    };
    let multiplier_text = exact_text(&multiplier, "multiplier")?;
    let displayed_places = match (&multiplier_text, form) {
        (Some(text), MultiplierForm::Displayed) => Some(displayed_places(text)?),
        _ => None,
    };
    let multiplier = multiplier_text
        .map(|text| Ratio::parse(&text, "multiplier"))
        .transpose()
        .map_err(|e| RowError::core("multiplier", e))?;
    if multiplier.is_some() && rtp.is_none() {
        return Err(RowError::field(
            "rtp",
            "rtp: missing (a row with a multiplier needs the rtp it was computed with)".to_owned(),
        ));
    }
    Ok(Some(Play { picks, outcome, rtp, multiplier, displayed_places }))
}

/// The decimals of a displayed multiplier (`1.23`: 2; `5`: 0), which must be a decimal.
fn displayed_places(text: &str) -> Result<Places, RowError> {
    let wrong = || {
        RowError::field(
            "multiplier",
            format!(
                "multiplier: a displayed multiplier is a decimal like 1.23 (multiplier_form displayed), got {text:?}"
            ),
        )
    };
    let decimals = match text.split_once('.') {
        Some((_, decimals)) => decimals,
        None if text.bytes().all(|b| b.is_ascii_digit()) => "",
        None => return Err(wrong()),
    };
    Places::new(decimals.len() as u64).map_err(|_| {
        RowError::field(
            "multiplier",
            format!("multiplier: a displayed multiplier has at most {} decimals, got {text:?}", Places::MAX),
        )
    })
}

/// An amount in minor units: a whole number from 0 to 2^53 − 1 (text digits, or a number that is one).
fn amount(cell: &Cell<'_>, field: &'static str) -> Result<Option<u64>, RowError> {
    let wrong = |shown: String| {
        RowError::field(
            field,
            format!("{field}: must be a whole number of minor units from 0 to {MAX_AMOUNT}, got {shown}"),
        )
    };
    let n = match cell {
        Cell::Missing => return Ok(None),
        Cell::Text(text) if text.trim().is_empty() => return Ok(None),
        Cell::Text(text) => {
            let text = text.trim();
            let n = text.parse::<i128>().map(Number::Int).or_else(|_| text.parse::<f64>().map(Number::Float));
            n.map_err(|_| wrong(format!("{text:?}")))?
        }
        Cell::Number(n) => *n,
        other => return Err(wrong(other.kind().to_owned())),
    };
    match n.integer() {
        Some(i) if (0..=i128::from(MAX_AMOUNT)).contains(&i) => Ok(Some(i as u64)),
        _ => Err(wrong(n.to_string())),
    }
}

/// A label (`currency`, `player`): text, trimmed, or a number's text; empty is none.
fn label(cell: &Cell<'_>, field: &'static str) -> Result<Option<String>, RowError> {
    match cell {
        Cell::Missing => Ok(None),
        Cell::Text(text) => Ok(Some(text.trim().to_owned()).filter(|t| !t.is_empty())),
        Cell::Number(n) => Ok(Some(n.integer().map_or_else(|| n.to_string(), |i| i.to_string()))),
        other => Err(RowError::field(field, format!("{field}: must be a string, got {}", other.kind()))),
    }
}

/// The wager fields' cells (`stake`, `currency`, `payout`, `player`): `None` when all are missing. A payout
/// needs its stake (`has_play`: whether the row has picks and an outcome, which a payout needs too).
pub(crate) fn wager(cells: [Cell<'_>; 4], has_play: bool) -> Result<Option<Wager>, RowError> {
    let [stake, currency, payout, player] = cells;
    let wager = Wager {
        stake: amount(&stake, "stake")?,
        currency: label(&currency, "currency")?,
        payout: amount(&payout, "payout")?,
        player: label(&player, "player")?,
    };
    if wager.payout.is_some() && wager.stake.is_none() {
        return Err(RowError::field("stake", "stake: missing (a row with a payout needs its stake)".to_owned()));
    }
    if wager.payout.is_some() && !has_play {
        return Err(RowError::field(
            "outcome",
            "outcome: missing (a row with a payout needs picks and outcome, to check what it pays)".to_owned(),
        ));
    }
    Ok((wager != Wager::default()).then_some(wager))
}

impl Partial {
    /// The seeds and nonce from their cells, when all three read.
    fn round<'a>(cell: impl Fn(usize) -> Cell<'a>) -> Option<Box<(String, String, u64)>> {
        let server = seed(cell(0), "server_seed").ok()?;
        let client = seed(cell(2), "client_seed").ok()?;
        Some(Box::new((server, client, nonce(number(cell(3), "nonce").ok()?).ok()?)))
    }
}

impl Row {
    /// Reads a row from the cells of its fields (index `i`: field `i` of [`FIELDS`](super::FIELDS)), its
    /// multiplier in `form` where it does not say; on failure, also the round id where that much could be read.
    pub(crate) fn from_cells<'a>(
        cell: impl Fn(usize) -> Cell<'a>,
        form: MultiplierForm,
    ) -> Result<Row, (RowError, Partial)> {
        let round_id = round_id(cell(6)).map_err(|e| (e, Partial { round_id: None, round: Partial::round(&cell) }))?;
        let fields = (|| {
            Ok((
                seed(cell(0), "server_seed")?,
                commitment(cell(1))?,
                seed(cell(2), "client_seed")?,
                nonce(number(cell(3), "nonce")?)?,
                mines(number(cell(4), "mines")?)?,
                positions(cell(5))?,
                play([cell(7), cell(8), cell(9), cell(10), cell(11)], form)?,
            ))
        })()
        .and_then(|fields| {
            let cells = core::array::from_fn(|i| cell(WAGER_FIELDS + i));
            let wager = wager(cells, fields.6.is_some())?;
            Ok((fields, wager))
        });
        match fields {
            Ok(((server_seed, commitment, client_seed, nonce, mines, positions, play), wager)) => {
                Ok(Row { server_seed, commitment, client_seed, nonce, mines, positions, round_id, play, wager })
            }
            Err(e) => Err((e, Partial { round: Partial::round(&cell), round_id })),
        }
    }
}
