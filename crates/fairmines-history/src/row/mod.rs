//! One row of a bet history, as the operator declared it: the model. The format's rules for each field are
//! in `cell`, reading a row from JSON and from CSV (and writing it back) in `json` and `csv`.

use core::fmt;
use std::borrow::Cow;
use std::collections::BTreeMap;

use fairmines::{Digest, MineCount, Outcome, Ratio, Rtp, Tiles};

use crate::error::HistoryError;
use crate::options::MultiplierForm;

mod cell;
mod csv;
mod json;
#[cfg(test)]
mod tests;

#[cfg(feature = "arrow")]
pub(crate) use cell::Cell;
pub use cell::{parse_picks, parse_positions};
pub(crate) use csv::{CsvHeader, Record};
pub(crate) use json::{parse_json_line, parse_value};

/// The columns of the CSV format, in the order [`Row::to_csv_line`] writes them.
pub const CSV_HEADER: &str = "round_id,server_seed,commitment,client_seed,nonce,mines,positions";

/// The fields every row must have (`round_id` is optional).
pub const REQUIRED_FIELDS: [&str; 6] = ["server_seed", "commitment", "client_seed", "nonce", "mines", "positions"];

/// Every field of the format: the required ones, `round_id`, the optional play fields ([`Play`]), then the
/// optional wager fields ([`Wager`]).
pub const FIELDS: [&str; FIELD_COUNT] = [
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
    "multiplier_form",
    "stake",
    "currency",
    "payout",
    "player",
];

/// How many fields [`FIELDS`] has.
pub(crate) const FIELD_COUNT: usize = 16;

/// Where the wager fields start in [`FIELDS`] (`stake`, `currency`, `payout`, `player`).
pub(crate) const WAGER_FIELDS: usize = 12;

/// The largest stake or payout (the core's): 2^53 − 1 minor units, so that every amount is exact in a
/// JavaScript number or a float64 column.
pub use fairmines::MAX_AMOUNT;

/// What was staked and paid in a round, and by whom, where a history row says (`stake`, `currency`,
/// `payout`, `player`). Amounts are integers in the currency's minor units (cents), at most [`MAX_AMOUNT`].
///
/// A row with a `payout` needs its `stake` and its play (`picks`, `outcome`); it is then checked: a lost
/// round pays 0, a voided one gives the stake back, a cashed-out one pays `floor(stake × multiplier)` with
/// the exact multiplier of its picks at its `rtp` (without an `rtp` the payout is not checked).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wager {
    /// The stake, in minor units.
    pub stake: Option<u64>,
    /// The currency's code (`EUR`, `BTC`), as the history writes it.
    pub currency: Option<String>,
    /// What was paid back, stake included, in minor units.
    pub payout: Option<u64>,
    /// Who played.
    pub player: Option<String>,
}

/// How the player played a round, where a history row says (the fields of the core's
/// [`RoundRecord`](fairmines::RoundRecord), in the same text forms), checked against the replay with
/// [`fairmines::verify_play`].
///
/// A row has a play when it has any of `rtp`, `picks`, `outcome`, `multiplier`; it then needs `picks` and
/// `outcome`. `multiplier` (absent or null: none, as for a lost round) is checked only with the `rtp` it was
/// computed with: a multiplier without an `rtp` makes the row malformed (field `rtp`). `multiplier_form`
/// (`exact` or `displayed`, see [`MultiplierForm`](crate::MultiplierForm)) says how it is written.
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
    /// `Some(d)`: the multiplier is written as displayed, the exact one rounded down to `d` decimals (its
    /// decimals as written); `None`: it is exact.
    pub displayed_places: Option<fairmines::Places>,
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
    /// The stake, currency, payout and player, where the history has them.
    pub wager: Option<Wager>,
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
            .field("wager", &self.wager)
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
    /// Boxed, as `play`.
    pub(crate) wager: Option<Box<Wager>>,
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
            wager: row.wager.map(Box::new),
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
            wager: self.wager.map(|wager| *wager),
        }
    }
}

/// Why a row could not be read. The message starts with the field at fault where there is one
/// (`mines: must be a whole number from 1 to 24, got 25`).
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

/// Where each field of [`FIELDS`] is found in the input: under its own name, or under the name a column
/// mapping gives it (`{"serverSeed": "server_seed"}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Names([Cow<'static, str>; FIELD_COUNT], pub(crate) MultiplierForm);

impl Default for Names {
    fn default() -> Self {
        Names(FIELDS.map(Cow::Borrowed), MultiplierForm::Exact)
    }
}

impl Names {
    /// The names a column mapping gives (the input's name → the field it holds); the other fields keep theirs.
    pub(crate) fn new(columns: &BTreeMap<String, String>) -> Result<Names, HistoryError> {
        let mut names = Names::default();
        let mut given: [Option<&str>; FIELD_COUNT] = [None; FIELD_COUNT];
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
    pub(crate) fn locate(&self, header: &[String], what: &str) -> Result<[Option<usize>; FIELD_COUNT], String> {
        let found: [Option<usize>; FIELD_COUNT] =
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
