//! `HistoryVerifier` / `HistoryAuditor`: bytes handed over in pieces of any size give the report and the
//! counts of the threaded runs over the same bytes, whatever the format, the quoting or the line endings.

use std::io::Write;

use fairmines::{MineCount, ServerSeed};
use fairmines_history::{
    AuditCounts, CSV_HEADER, Format, HistoryAuditor, HistoryError, HistoryVerifier, Options, Report, Row,
    audit_history, verify_history,
};

fn example(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../../examples/history/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn genuine(pair: u8, nonce: u64) -> Row {
    let server = ServerSeed::from_bytes(&[pair; 32]);
    // A client seed with a comma, quotes and a line break: quoted in CSV.
    let client = format!("client, \"{pair}\"\nsecond line");
    let mines = MineCount::new(1 + (nonce % 24) as u32).unwrap();
    Row {
        server_seed: server.reveal().to_owned(),
        commitment: server.commitment(),
        positions: fairmines::placement(server.reveal(), &client, nonce, mines).positions(),
        client_seed: client,
        nonce,
        mines,
        round_id: Some(format!("p{pair}n{nonce}")),
        play: None,
        wager: None,
    }
}

fn fed_report(bytes: &[u8], piece: usize, options: &Options) -> Result<Report, HistoryError> {
    let mut verifier = HistoryVerifier::new(options)?;
    for part in bytes.chunks(piece.max(1)) {
        verifier.feed(part)?;
    }
    assert_eq!(verifier.progress().bytes, bytes.len() as u64);
    verifier.finish()
}

fn fed_counts(bytes: &[u8], piece: usize, options: &Options) -> AuditCounts {
    let mut auditor = HistoryAuditor::new(options).unwrap();
    for part in bytes.chunks(piece.max(1)) {
        auditor.feed(part).unwrap();
    }
    auditor.finish().unwrap()
}

/// Every piece size from 1 byte to the whole, with small chunks of rows (many chunk borders).
fn same_as_threaded(bytes: &[u8], options: &Options) {
    let expected = verify_history(bytes, options, |_| {}).unwrap();
    let counts = audit_history(bytes, options, |_| {}).unwrap();
    for piece in [1, 2, 3, 5, 64, 1000, 4096, bytes.len()] {
        let fed = fed_report(bytes, piece, options).unwrap();
        assert_eq!(fed, expected, "pieces of {piece} bytes");
        assert_eq!(fed_counts(bytes, piece, options), counts, "audit, pieces of {piece} bytes");
    }
}

fn small_chunks() -> Options {
    Options { chunk_rows: 3, ..Options::default() }
}

#[test]
fn the_example_histories_give_the_threaded_reports() {
    for name in ["history.jsonl", "history.csv", "tampered.jsonl"] {
        let bytes = example(name);
        same_as_threaded(&bytes, &Options::default());
        same_as_threaded(&bytes, &small_chunks());
    }
    let tampered = fed_report(&example("tampered.jsonl"), 17, &Options::default()).unwrap();
    assert!(!tampered.is_ok() && !tampered.failures.is_empty());
}

#[test]
fn gzip_is_read_through_as_it_arrives() {
    let bytes = example("history.csv");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&bytes).unwrap();
    let gz = gz.finish().unwrap();
    same_as_threaded(&gz, &small_chunks());
    assert_eq!(fed_report(&gz, 7, &Options::default()).unwrap(), fed_report(&bytes, 7, &Options::default()).unwrap());
}

#[test]
fn quoted_line_breaks_crlf_blank_lines_and_a_missing_last_newline() {
    let rows: Vec<Row> = (0..3).flat_map(|p| (0..9).map(move |n| genuine(p, n))).collect();
    let mut csv = format!("{CSV_HEADER}\r\n");
    for (i, row) in rows.iter().enumerate() {
        csv.push_str(&row.to_csv_line());
        csv.push_str(if i % 4 == 0 {
            "\r\n\r\n"
        } else if i % 3 == 0 {
            "\r"
        } else {
            "\n"
        });
    }
    // A tampered row, a malformed one with a quote inside an unquoted field, and no final newline.
    csv.push_str(&rows[5].to_csv_line().replacen(",2", ",3", 1));
    csv.push_str("\nr,x\"y,\"z\"\"\"\n\n");
    csv.push_str(&rows[2].to_csv_line());
    same_as_threaded(csv.as_bytes(), &small_chunks());
    let report = fed_report(csv.as_bytes(), 1, &small_chunks()).unwrap();
    assert!(report.summary.unterminated_last_line && report.summary.malformed > 0 && report.summary.ok > 20);

    let mut jsonl: String = rows.iter().map(|r| r.to_json_line() + "\n\n").collect();
    jsonl.push_str("{\"not\": \"a row\"}\r\n   \n");
    jsonl.push_str(&rows[0].to_json_line());
    same_as_threaded(jsonl.as_bytes(), &small_chunks());
}

#[test]
fn empty_white_space_only_and_one_byte_inputs() {
    for text in ["", " ", "\n", "\n \n\t", "{", "x", "round_id\n", "\n\nround_id,server_seed\n\n"] {
        for format in [Format::Auto, Format::Csv, Format::JsonLines] {
            let options = Options { format, ..Options::default() };
            let expected = verify_history(text.as_bytes(), &options, |_| {}).map_err(|e| e.to_string());
            for piece in [1, 2, 100] {
                let fed = fed_report(text.as_bytes(), piece, &options).map_err(|e| e.to_string());
                assert_eq!(fed, expected, "{text:?} as {format:?} in pieces of {piece}");
            }
        }
    }
}

#[test]
fn a_json_array_and_a_bad_header_stop_the_run_as_they_do_threaded() {
    for text in ["  [{\"a\": 1}]\n", "round_id,nonce\n1,2\n"] {
        let expected = verify_history(text.as_bytes(), &Options::default(), |_| {}).unwrap_err().to_string();
        let fed = fed_report(text.as_bytes(), 3, &Options::default()).unwrap_err().to_string();
        assert_eq!(fed, expected);
    }
}

#[test]
fn a_line_longer_than_the_limit_is_skipped_as_threaded() {
    let row = genuine(1, 4).to_json_line();
    let long = format!("{row}\n{{\"round_id\": \"{}\"}}\n{row}\n", "x".repeat(fairmines_history::MAX_LINE_BYTES + 10));
    let expected = verify_history(long.as_bytes(), &Options::default(), |_| {}).unwrap();
    assert_eq!(fed_report(long.as_bytes(), 65_536, &Options::default()).unwrap(), expected);
    assert_eq!(expected.summary.malformed, 1);
}

#[test]
fn options_that_cannot_be_used_are_refused_at_once() {
    let options = Options { delimiter: b'"', ..Options::default() };
    assert!(matches!(HistoryVerifier::new(&options), Err(HistoryError::Argument(_))));
    assert!(matches!(HistoryAuditor::new(&options), Err(HistoryError::Argument(_))));
}

#[test]
fn the_cli_json_of_a_report_and_an_audit() {
    use fairmines_history::{audit_json, failure_json, summary_json};
    let report = fed_report(&example("tampered.jsonl"), 100, &Options::default()).unwrap();
    let summary = summary_json(&report.summary);
    assert_eq!((summary["type"].as_str(), summary["all_ok"].as_bool()), (Some("summary"), Some(false)));
    assert_eq!(summary["rows_read"], report.summary.rows_read);
    let first = failure_json(&report.failures[0]);
    assert_eq!(
        (first["type"].as_str(), first["kind"].as_str(), first["line"].as_u64()),
        (Some("failure"), Some("positions"), Some(4))
    );
    assert_eq!(first.as_object().unwrap().len(), 12, "the 11 fields of a failure, null or not, and its type");
    let counts = fed_counts(&example("history.csv"), 10, &Options::default());
    let audit = audit_json(&counts.report(), "the history h.csv");
    assert_eq!((audit["source"].as_str(), audit["rows_read"].as_u64()), (Some("the history h.csv"), Some(60)));
    assert_eq!(audit["by_mines"].as_array().unwrap().len(), 24);
    assert_eq!(audit["first_draw_counts"].as_array().unwrap().len(), 25);
    // The JSON gives the counts back, and with them the same report.
    let back = fairmines_history::audit_counts_from_json(&audit).unwrap();
    assert_eq!(back, counts);
    assert_eq!(audit_json(&back.report(), "the history h.csv"), audit);
    for bad in [serde_json::json!({}), serde_json::json!([1]), {
        let mut wrong = audit.clone();
        wrong["by_mines"][0]["mines"] = 25.into();
        wrong
    }] {
        let error = fairmines_history::audit_counts_from_json(&bad).unwrap_err();
        assert_eq!((error.kind(), error.argument()), (fairmines::ErrorKind::InvalidState, Some("audit")));
    }
}
