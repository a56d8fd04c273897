//! The history reader of `crates/fairmines-history`: any bytes as JSON Lines or CSV, any JSON line as a
//! row, any text as a list of positions, and whole histories of genuine and tampered rows written in
//! both formats, checked against the reference implementation.
#![no_main]

use arbitrary::Arbitrary;
use fairmines::{Digest, MineCount, Tiles};
use fairmines_fuzz::{reference, strict, text};
use fairmines_history::{CSV_HEADER, FailureKind, Format, Options, Row, parse_positions, verify_history};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Input {
    /// Any bytes as a whole history.
    Bytes { data: Vec<u8>, format: u8, chunk_rows: u8 },
    /// Any bytes as one JSON line.
    JsonLine(Vec<u8>),
    /// Any text as a list of tiles.
    Positions(Vec<u8>),
    /// A history of real rounds, some tampered with, written as JSON Lines or CSV.
    Genuine { rows: Vec<RowSpec>, csv: bool, chunk_rows: u8 },
}

#[derive(Arbitrary, Debug)]
struct RowSpec {
    server: Vec<u8>,
    client: Vec<u8>,
    nonce: u64,
    mines: u8,
    round_id: Option<Vec<u8>>,
    tamper: Tamper,
}

#[derive(Arbitrary, Debug, PartialEq)]
enum Tamper {
    None,
    Commitment(u8),
    Positions(u8),
}

fn options(format: Format, chunk_rows: u8) -> Options {
    Options { format, threads: 1, chunk_rows: usize::from(chunk_rows % 8) + 1, ..Options::default() }
}

fuzz_target!(|input: Input| match input {
    Input::Bytes { data, format, chunk_rows } => {
        let format = [Format::Auto, Format::JsonLines, Format::Csv][usize::from(format % 3)];
        if let Ok(report) = verify_history(&data[..], &options(format, chunk_rows), |_| {}) {
            let s = &report.summary;
            assert_eq!(s.ok + s.mismatched + s.malformed, s.rows_read, "{s:?}");
            let malformed = report.failures.iter().filter(|f| f.kind == FailureKind::Malformed).count();
            assert_eq!(malformed as u64, s.malformed, "{s:?}");
        }
    }
    Input::JsonLine(line) => {
        let read = Row::from_json_line(&line);
        // The plain reader (flat lines without escapes) reads what serde_json and the format's rules read.
        let trimmed = line.strip_suffix(b"\n").unwrap_or(&line);
        let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
        let general = serde_json::from_slice::<serde_json::Value>(trimmed).ok().and_then(|v| Row::from_json_value(&v).ok());
        assert_eq!(read.as_ref().ok(), general.as_ref(), "{}", String::from_utf8_lossy(&line));
        if let Ok(row) = read {
            round_trip(&row);
        }
    }
    Input::Positions(bytes) => {
        let text = text(&bytes);
        match parse_positions(&text) {
            Ok(tiles) => {
                assert!(tiles.len() <= 25 && tiles.iter().all(|t| (1..=25).contains(t)), "{tiles:?}");
                assert!(tiles.windows(2).all(|w| w[0] <= w[1]), "sorted: {tiles:?}");
                // Printed back as "a,b,c", the same tiles.
                let printed = tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
                assert_eq!(parse_positions(&printed).expect("own form"), tiles);
            }
            Err(err) => assert_eq!(err.field, Some("positions"), "{err}"),
        }
    }
    Input::Genuine { rows, csv, chunk_rows } => genuine(rows, csv, chunk_rows),
});

/// A row written as a JSON line and as a CSV line reads back as the same row.
fn round_trip(row: &Row) {
    let json = row.to_json_line();
    assert_eq!(Row::from_json_line(json.as_bytes()).as_ref(), Ok(row), "JSON line {json}");
    if (row.server_seed.is_empty() || row.client_seed.is_empty()) && !strict() {
        // Finding H1: `to_csv_line` writes an empty seed as an empty field, which the CSV reader takes
        // for a missing one (malformed row). Strict mode fails on it.
        return;
    }
    let csv = format!("{CSV_HEADER}\n{}\n", row.to_csv_line());
    let report = verify_history(csv.as_bytes(), &options(Format::Csv, 0), |_| {}).expect("CSV with its header");
    assert_eq!(report.summary.rows_read, 1, "CSV {csv:?}: {:?}", report.failures);
    assert_eq!(report.summary.malformed, 0, "CSV {csv:?}: {:?}", report.failures);
    // The CSV row gets the same verdict as the JSON one.
    let jsonl = format!("{json}\n");
    let again = verify_history(jsonl.as_bytes(), &options(Format::JsonLines, 0), |_| {}).expect("JSON Lines");
    assert_eq!(report.summary.ok, again.summary.ok, "CSV {csv:?} and JSON {json}");
}

fn genuine(specs: Vec<RowSpec>, csv: bool, chunk_rows: u8) {
    // A NUL byte makes a file binary to the reader (refused by name): a history of text has none.
    let text = |bytes: &[u8]| text(bytes).replace('\0', "");
    let mut rows = Vec::new();
    let (mut commitment_bad, mut positions_bad) = (0u64, 0u64);
    for (i, spec) in specs.iter().take(16).enumerate() {
        let mut server = text(&spec.server);
        if csv && server.is_empty() && !strict() {
            server.push('s'); // Finding H1 (see round_trip).
        }
        // One seed pair per row (a distinct client seed), so no nonce gaps or duplicates arise.
        let client = format!("{i}:{}", text(&spec.client));
        let mines = spec.mines % 24 + 1;
        let grid = reference::placement(&server, &client, spec.nonce, usize::from(mines));
        let mut commitment = reference::sha3_256(server.as_bytes());
        let mut positions = grid.positions.clone();
        match spec.tamper {
            Tamper::None => {}
            Tamper::Commitment(at) => {
                commitment[usize::from(at) % 32] ^= 1 << (at % 8);
                commitment_bad += 1;
            }
            Tamper::Positions(to) => {
                // Replace one position by a tile that is not a mine.
                let safe: Vec<u8> = (1..=25).filter(|t| !grid.positions.contains(t)).collect();
                let at = usize::from(to) % positions.len();
                positions[at] = safe[usize::from(to) % safe.len()];
                positions_bad += 1;
            }
        }
        rows.push(Row {
            server_seed: server,
            commitment: Digest::from_bytes(commitment),
            client_seed: client,
            nonce: spec.nonce,
            mines: MineCount::new(u32::from(mines)).expect("1..=24"),
            positions: Tiles::declared(positions, "positions").expect("on the board"),
            round_id: spec.round_id.as_deref().map(|b| text(b)),
            play: None,
            wager: None,
        });
    }
    let mut history = String::new();
    if csv {
        history.push_str(CSV_HEADER);
        history.push('\n');
    }
    for row in &rows {
        history.push_str(&if csv { row.to_csv_line() } else { row.to_json_line() });
        history.push('\n');
    }
    let format = if csv { Format::Csv } else { Format::JsonLines };
    let report = verify_history(history.as_bytes(), &options(format, chunk_rows), |_| {}).expect("a well-formed history");
    let s = &report.summary;
    let n = rows.len() as u64;
    assert_eq!(s.rows_read, n, "{history:?}: {:?}", report.failures);
    assert_eq!(s.malformed, 0, "{history:?}: {:?}", report.failures);
    assert_eq!(s.commitment_mismatches, commitment_bad, "{history:?}: {:?}", report.failures);
    assert_eq!(s.position_mismatches, positions_bad, "{history:?}: {:?}", report.failures);
    assert_eq!(s.ok, n - commitment_bad - positions_bad, "{history:?}: {:?}", report.failures);
}
