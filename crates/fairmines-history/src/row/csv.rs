//! Reading a row from a CSV record (the fields as a chunk holds them), and writing one as a line.

use std::borrow::Cow;

use fairmines::input::Number;

use super::cell::{Cell, commitment, mines, nonce, parse_positions, play, wager};
use super::{Names, Partial, Row, RowError, RowRef, WAGER_FIELDS};
use crate::options::MultiplierForm;

impl Row {
    /// The row as one CSV line in the column order of [`CSV_HEADER`](super::CSV_HEADER) (no newline),
    /// positions as `"7,10,19"`; the play is not written (its columns are not in that header).
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
    /// `rtp`, `picks`, `outcome`, `multiplier`, `multiplier_form`, where the header has them.
    play: Option<[Option<usize>; 5]>,
    /// `stake`, `currency`, `payout`, `player`, where the header has them.
    wager: Option<[Option<usize>; 4]>,
    /// The multiplier's form where a row does not say.
    form: MultiplierForm,
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
            play: found[7..WAGER_FIELDS]
                .iter()
                .any(Option::is_some)
                .then(|| [found[7], found[8], found[9], found[10], found[11]]),
            wager: found[WAGER_FIELDS..]
                .iter()
                .any(Option::is_some)
                .then(|| [found[12], found[13], found[14], found[15]]),
            form: names.1,
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
        let play = match self.play {
            None => None,
            Some(columns) => {
                let fields = ["rtp", "picks", "outcome", "multiplier", "multiplier_form"];
                let mut cells = [Cell::Missing, Cell::Missing, Cell::Missing, Cell::Missing, Cell::Missing];
                for ((cell, column), field) in cells.iter_mut().zip(columns).zip(fields) {
                    if let Some(column) = column {
                        *cell = Cell::Text(self.text(record, column, field)?);
                    }
                }
                play(cells, self.form)?.map(Box::new)
            }
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
            wager: match self.wager {
                None => None,
                Some(columns) => {
                    let fields = ["stake", "currency", "payout", "player"];
                    let mut cells = [Cell::Missing, Cell::Missing, Cell::Missing, Cell::Missing];
                    for ((cell, column), field) in cells.iter_mut().zip(columns).zip(fields) {
                        if let Some(column) = column {
                            *cell = Cell::Text(self.text(record, column, field)?);
                        }
                    }
                    wager(cells, play.is_some())?.map(Box::new)
                }
            },
            play,
        })
    }
}
