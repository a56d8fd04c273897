//! Histories given column-wise: Arrow record batches (a pandas or polars DataFrame, a pyarrow table: anything
//! that exports the Arrow C stream interface). Each row is read from its cells where they lie in the
//! columns; no row is copied into another form first. Feature `arrow`.

use std::io;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatchReader};
use arrow_schema::{DataType, Schema};
use fairmines::input::Number;

use crate::audit::{AuditCounts, audit_chunks};
use crate::chunk::{Chunk, Layout, RawData, RawRow, RowSource};
use crate::error::HistoryError;
use crate::options::MultiplierForm;
use crate::options::{Options, Proceed, Progress};
use crate::reading::Reading;
use crate::row::{Cell, FIELD_COUNT, FIELDS, Partial, Row, RowError, WAGER_FIELDS};
use crate::verify::{Report, verify_into_report};

/// The format's columns in one slice of a record batch (`None`: `round_id` when the table has none).
struct Columns([Option<Column>; FIELD_COUNT], MultiplierForm);

struct Column {
    array: ArrayRef,
    /// How a value of a type no field takes is named in messages (`a value of type Date32`).
    kind: String,
}

impl RowSource for Columns {
    fn row(&self, index: usize) -> Result<Row, (RowError, Partial)> {
        Row::from_cells(
            |i| self.0[i].as_ref().map_or(Cell::Missing, |c| cell(c.array.as_ref(), index, &c.kind)),
            self.1,
        )
    }
}

/// A cell as the format's rules take it: text, a number (NaN is missing, as pandas writes a missing value),
/// a list of tile numbers; anything else named by its type.
fn cell<'a>(array: &'a dyn Array, i: usize, kind: &'a str) -> Cell<'a> {
    fn int(value: impl Into<i128>) -> Cell<'static> {
        Cell::Number(Number::Int(value.into()))
    }
    fn float(value: f64) -> Cell<'static> {
        if value.is_nan() { Cell::Missing } else { Cell::Number(Number::Float(value)) }
    }
    if array.is_null(i) {
        return Cell::Missing;
    }
    match array.data_type() {
        DataType::Null => Cell::Missing,
        DataType::Utf8 => Cell::Text(array.as_string::<i32>().value(i)),
        DataType::LargeUtf8 => Cell::Text(array.as_string::<i64>().value(i)),
        DataType::Utf8View => Cell::Text(array.as_string_view().value(i)),
        DataType::Int8 => int(array.as_primitive::<Int8Type>().value(i)),
        DataType::Int16 => int(array.as_primitive::<Int16Type>().value(i)),
        DataType::Int32 => int(array.as_primitive::<Int32Type>().value(i)),
        DataType::Int64 => int(array.as_primitive::<Int64Type>().value(i)),
        DataType::UInt8 => int(array.as_primitive::<UInt8Type>().value(i)),
        DataType::UInt16 => int(array.as_primitive::<UInt16Type>().value(i)),
        DataType::UInt32 => int(array.as_primitive::<UInt32Type>().value(i)),
        DataType::UInt64 => int(array.as_primitive::<UInt64Type>().value(i)),
        DataType::Float32 => float(f64::from(array.as_primitive::<Float32Type>().value(i))),
        DataType::Float64 => float(array.as_primitive::<Float64Type>().value(i)),
        DataType::Boolean => Cell::Bool,
        DataType::List(_) => list(&array.as_list::<i32>().value(i)),
        DataType::LargeList(_) => list(&array.as_list::<i64>().value(i)),
        DataType::FixedSizeList(..) => list(&array.as_fixed_size_list().value(i)),
        // A categorical column: the cell is the dictionary's value at the key.
        DataType::Dictionary(..) => {
            let dictionary = array.as_any_dictionary();
            match cell(dictionary.keys(), i, kind) {
                Cell::Number(Number::Int(key)) if (0..dictionary.values().len() as i128).contains(&key) => {
                    cell(dictionary.values().as_ref(), key as usize, kind)
                }
                _ => Cell::Other(kind),
            }
        }
        _ => Cell::Other(kind),
    }
}

/// The items of a list cell: numbers, or how another item is shown.
fn list(items: &ArrayRef) -> Cell<'static> {
    let items = (0..items.len())
        .map(|j| match cell(items.as_ref(), j, "") {
            Cell::Number(n) => Ok(n),
            Cell::Missing => Err("null".to_owned()),
            Cell::Text(text) => Err(format!("{text:?}")),
            Cell::Bool => Err("a boolean".to_owned()),
            _ => Err(format!("a value of type {}", items.data_type())),
        })
        .collect();
    Cell::List(items)
}

/// What a column's type holds, as the fields take it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holds {
    Text,
    Integers,
    Floats,
    Lists,
    Nothing,
    Other,
}

fn holds(data_type: &DataType) -> Holds {
    match data_type {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Holds::Text,
        DataType::Int8
        | DataType::Int16
        | DataType::Int32
        | DataType::Int64
        | DataType::UInt8
        | DataType::UInt16
        | DataType::UInt32
        | DataType::UInt64 => Holds::Integers,
        DataType::Float32 | DataType::Float64 => Holds::Floats,
        DataType::List(_) | DataType::LargeList(_) | DataType::FixedSizeList(..) => Holds::Lists,
        DataType::Null => Holds::Nothing,
        DataType::Dictionary(_, values) => holds(values),
        _ => Holds::Other,
    }
}

/// The column types field `i` of [`FIELDS`] takes, and how they are named in messages.
fn takes(i: usize) -> (&'static [Holds], &'static str) {
    use Holds::{Floats, Integers, Lists, Text};
    match i {
        0 | 2 | 6 => (&[Text, Integers, Floats], "text (or integers, read as their digits)"),
        1 | 9 | 11 => (&[Text], "text"),
        3 | 4 => (&[Integers, Floats], "integers (or floats that are whole numbers)"),
        5 | 8 => (&[Text, Lists], "text like \"7,10,19\" or lists of tile numbers"),
        // stake, payout; currency, player
        i if i == WAGER_FIELDS || i == WAGER_FIELDS + 2 => (&[Integers, Floats, Text], "integers (minor units)"),
        i if i == WAGER_FIELDS + 1 || i == WAGER_FIELDS + 3 => (&[Text, Integers], "text"),
        _ => (&[Text, Integers, Floats], "text like \"99/100\" or numbers"),
    }
}

/// Where each field is among the table's columns; a required one missing, or a column whose type its field
/// cannot take (said once for the column, not for each of its rows), is a [`HistoryError::Header`].
fn locate(schema: &Schema, reading: &Reading) -> Result<[Option<usize>; FIELD_COUNT], HistoryError> {
    let names: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
    let found = reading.names.locate(&names, "the table").map_err(HistoryError::Header)?;
    let mistyped: Vec<String> = (0..found.len())
        .filter_map(|i| {
            let column = schema.field(found[i]?);
            let (types, expected) = takes(i);
            let kind = holds(column.data_type());
            (kind != Holds::Nothing && !types.contains(&kind)).then(|| {
                format!(
                    "{}: the column {:?} is of type {}, the field takes {expected}",
                    FIELDS[i],
                    column.name(),
                    column.data_type()
                )
            })
        })
        .collect();
    if mistyped.is_empty() { Ok(found) } else { Err(HistoryError::Header(mistyped.join("; "))) }
}

/// Hands the rows of `batches` to `send` in chunks: slices of the batches (no cell is copied). Row `i`
/// (0-based, over every batch) is line `i + 1`.
fn batch_chunks(
    batches: impl RecordBatchReader,
    found: [Option<usize>; FIELD_COUNT],
    reading: &Reading,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let mut line = 0u64;
    for batch in batches {
        let batch = batch.map_err(|e| HistoryError::Io(io::Error::other(format!("arrow: {e}"))))?;
        let mut offset = 0;
        while offset < batch.num_rows() {
            let len = (batch.num_rows() - offset).min(reading.chunk_rows);
            let slice = batch.slice(offset, len);
            let columns = found.map(|at| {
                at.map(|at| {
                    let array = slice.column(at).clone();
                    Column { kind: format!("a value of type {}", array.data_type()), array }
                })
            });
            let mut chunk = Chunk::new(Layout::Source(Arc::new(Columns(columns, reading.names.1))));
            chunk.rows = (0..len)
                .map(|j| RawRow { line: line + j as u64 + 1, data: RawData::Indexed(j), unterminated: false })
                .collect();
            (line, offset) = (line + len as u64, offset + len);
            if !send(chunk) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Verifies a history given as Arrow record batches (a DataFrame's columns), on every core, as
/// [`verify_history`](crate::verify_history) verifies lines; row `i` (0-based) is reported as line `i + 1`.
///
/// The columns are found by name like a CSV header's (trimmed, ignoring case; [`Options::columns`] maps other
/// names); other columns are ignored. Text columns (`Utf8`, `LargeUtf8`, `Utf8View`, dictionaries of them),
/// integer and float columns (a float counts when it is an exact integer; NaN and null are missing) and list
/// columns of tile numbers are read as the same values in JSON would be: a seed column of integers (what
/// pandas makes of a CSV column of digits) is read as their digits. A missing required column is a
/// [`HistoryError::Header`]; an error of the batches' source an [`HistoryError::Io`].
pub fn verify_batches<R, C>(
    batches: R,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError>
where
    R: RecordBatchReader + Send,
    C: Proceed,
{
    let reading = Reading::new(options)?;
    let found = locate(&batches.schema(), &reading)?;
    verify_into_report(options, move |send| batch_chunks(batches, found, &reading, send), on_progress)
}

/// [`audit_history`](crate::audit_history) over Arrow record batches, read as [`verify_batches`] reads them.
pub fn audit_batches<R, C>(
    batches: R,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<AuditCounts, HistoryError>
where
    R: RecordBatchReader + Send,
    C: Proceed,
{
    let reading = Reading::new(options)?;
    let found = locate(&batches.schema(), &reading)?;
    audit_chunks(options, move |send| batch_chunks(batches, found, &reading, send), on_progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::builder::{ListBuilder, StringDictionaryBuilder, UInt8Builder};
    use arrow_array::{Float64Array, Int64Array, RecordBatch, RecordBatchIterator, StringArray, StringViewArray};
    use arrow_schema::ArrowError;

    const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    const COMMITMENT: &str = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";
    const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

    fn reader(columns: Vec<(&str, ArrayRef)>) -> impl RecordBatchReader + Send {
        let batch = RecordBatch::try_from_iter(columns).unwrap();
        let schema = batch.schema();
        RecordBatchIterator::new(vec![Ok::<_, ArrowError>(batch.slice(0, 2)), Ok(batch.slice(2, 2))], schema)
    }

    fn genuine(n: u64) -> String {
        let positions = fairmines::mine_positions(SERVER, CLIENT, n, 3).unwrap();
        positions.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
    }

    #[test]
    fn columns_of_every_common_type_read_like_json_values() {
        let positions: Vec<String> = (0..4).map(genuine).collect();
        let mut lists = ListBuilder::new(UInt8Builder::new());
        for text in &positions {
            for tile in text.split(',') {
                lists.values().append_value(tile.parse().unwrap());
            }
            lists.append(true);
        }
        let mut seeds = StringDictionaryBuilder::<Int32Type>::new();
        (0..4).for_each(|_| seeds.append_value(SERVER));
        let batches = reader(vec![
            ("Server_Seed", Arc::new(seeds.finish()) as ArrayRef),
            ("commitment", Arc::new(StringViewArray::from(vec![COMMITMENT; 4]))),
            ("client", Arc::new(StringArray::from(vec![CLIENT; 4]))),
            ("nonce", Arc::new(Float64Array::from(vec![0.0, 1.0, 2.0, f64::NAN]))),
            ("mines", Arc::new(Int64Array::from(vec![3, 3, 3, 3]))),
            ("positions", Arc::new(lists.finish())),
            ("round_id", Arc::new(Float64Array::from(vec![Some(1.0), None, Some(3.5), Some(4.0)]))),
        ]);
        let options = Options { columns: [("client".into(), "client_seed".into())].into(), ..Options::default() };
        let report = verify_batches(batches, &options, |_| {}).unwrap();
        assert_eq!((report.summary.rows_read, report.summary.ok, report.summary.malformed), (4, 3, 1));
        let malformed = &report.failures[0];
        assert_eq!((malformed.line, malformed.round_id.as_deref()), (Some(4), Some("4")));
        assert_eq!(malformed.message, "nonce: missing");
        let audit = audit_batches(
            reader(vec![("x", Arc::new(Int64Array::from(vec![1, 2, 3, 4])) as ArrayRef)]),
            &options,
            |_| {},
        );
        let Err(HistoryError::Header(message)) = audit else { panic!("{audit:?}") };
        assert!(
            message.starts_with("header: the table must name the columns server_seed, commitment, client,"),
            "{message}"
        );
    }

    #[test]
    fn numeric_seeds_are_their_digits_and_other_types_are_named() {
        let positions: Vec<String> = (0..4)
            .map(|n| {
                let tiles = fairmines::mine_positions(SERVER, "12345", n, 3).unwrap();
                tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
            })
            .collect();
        let batches = |mines: ArrayRef| {
            reader(vec![
                ("server_seed", Arc::new(StringArray::from(vec![SERVER; 4])) as ArrayRef),
                ("commitment", Arc::new(StringArray::from(vec![COMMITMENT; 4]))),
                ("client_seed", Arc::new(Int64Array::from(vec![12345; 4]))),
                ("nonce", Arc::new(Int64Array::from(vec![0, 1, 2, 3]))),
                ("mines", mines),
                ("positions", Arc::new(StringArray::from(positions.iter().map(String::as_str).collect::<Vec<_>>()))),
            ])
        };
        let report = verify_batches(batches(Arc::new(Int64Array::from(vec![3; 4]))), &Options::default(), |_| {});
        assert!(report.unwrap().is_ok());
        // A column of a type its field cannot take is said once, for the column, not for each row.
        let mistyped = |mines: ArrayRef| match verify_batches(batches(mines), &Options::default(), |_| {}) {
            Err(HistoryError::Header(message)) => message,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            mistyped(Arc::new(StringArray::from(vec!["3"; 4]))),
            "mines: the column \"mines\" is of type Utf8, the field takes integers (or floats that are whole numbers)"
        );
        assert_eq!(
            mistyped(Arc::new(arrow_array::Date32Array::from(vec![3; 4]))),
            "mines: the column \"mines\" is of type Date32, the field takes integers (or floats that are whole numbers)"
        );
        // Whole floats still count (pandas writes an integer column with a gap as floats).
        let floats = verify_batches(batches(Arc::new(Float64Array::from(vec![3.0; 4]))), &Options::default(), |_| {});
        assert!(floats.unwrap().is_ok());
    }
}
