//! Line numbers are the file's own physical lines (the CSV header is line 1), whatever the line endings and
//! wherever a quoted CSV field holds a line break: every failure, malformed row and gap names its line.

use fairmines::{MineCount, ServerSeed};
use fairmines_history::{CSV_HEADER, FailureKind, Format, HistoryVerifier, Options, Report, Row, verify_history};

fn genuine(nonce: u64) -> Row {
    let server = ServerSeed::from_bytes(&[3; 32]);
    let client = "client".to_owned();
    let mines = MineCount::new(1 + (nonce % 24) as u32).unwrap();
    Row {
        server_seed: server.reveal().to_owned(),
        commitment: server.commitment(),
        positions: fairmines::placement(server.reveal(), &client, nonce, mines).positions(),
        client_seed: client,
        nonce,
        mines,
        round_id: Some(format!("r{nonce}")),
        play: None,
        wager: None,
    }
}

/// Both ways of reading (threaded, fed in pieces) give the same report; it is returned.
fn run(text: &str, format: Format) -> Report {
    let options = Options { format, chunk_rows: 2, ..Options::default() };
    let report = verify_history(text.as_bytes(), &options, |_| {}).unwrap();
    for piece in [1, 3, 64] {
        let mut verifier = HistoryVerifier::new(&options).unwrap();
        for bytes in text.as_bytes().chunks(piece) {
            verifier.feed(bytes).unwrap();
        }
        assert_eq!(verifier.finish().unwrap(), report, "fed in pieces of {piece}");
    }
    report
}

fn found(report: &Report) -> Vec<(FailureKind, Option<u64>)> {
    report.failures.iter().map(|f| (f.kind, f.line)).collect()
}

/// Rows 0..6; row `tampered` declares other positions, row `malformed` has mines 25.
fn csv_lines(tampered: usize, malformed: usize) -> Vec<String> {
    let mut lines = vec![CSV_HEADER.to_owned()];
    for i in 0..6 {
        let mut row = genuine(i as u64);
        if i == tampered {
            row.positions = fairmines::Tiles::declared([25], "positions").unwrap();
            row.mines = MineCount::new(1).unwrap();
        }
        let mut line = row.to_csv_line();
        if i == malformed {
            line = line.replacen(&format!(",{},{},", row.nonce, row.mines.get()), &format!(",{},25,", row.nonce), 1);
        }
        lines.push(line);
    }
    lines
}

fn json_lines(tampered: usize, malformed: usize) -> Vec<String> {
    (0..6)
        .map(|i| {
            let mut row = genuine(i as u64);
            if i == tampered {
                row.positions = fairmines::Tiles::declared([25], "positions").unwrap();
                row.mines = MineCount::new(1).unwrap();
            }
            let line = row.to_json_line();
            if i == malformed { line.replace(&format!("\"mines\":{}", row.mines.get()), "\"mines\":25") } else { line }
        })
        .collect()
}

#[test]
fn csv_lines_are_physical_lines_with_lf_and_crlf() {
    // Row 1 (physical line 3) is tampered, row 3 (line 5) malformed.
    for ending in ["\n", "\r\n"] {
        let text = csv_lines(1, 3).join(ending) + ending;
        let report = run(&text, Format::Auto);
        assert_eq!(
            found(&report),
            [(FailureKind::Positions, Some(3)), (FailureKind::Malformed, Some(5))],
            "{ending:?}"
        );
        // Both on the same line: the tampered row first, then a malformed one just after.
        let text = csv_lines(2, 3).join(ending) + ending;
        assert_eq!(
            found(&run(&text, Format::Csv)),
            [(FailureKind::Positions, Some(4)), (FailureKind::Malformed, Some(5))],
            "{ending:?}"
        );
    }
}

#[test]
fn json_lines_are_physical_lines_with_lf_and_crlf() {
    for ending in ["\n", "\r\n"] {
        let text = json_lines(1, 3).join(ending) + ending;
        let report = run(&text, Format::Auto);
        assert_eq!(
            found(&report),
            [(FailureKind::Positions, Some(2)), (FailureKind::Malformed, Some(4))],
            "{ending:?}"
        );
    }
}

#[test]
fn a_quoted_field_with_line_breaks_counts_its_lines() {
    // The round id of row 0 spans three physical lines (2 to 4): row 1 starts on line 5.
    for ending in ["\n", "\r\n"] {
        let mut lines = csv_lines(1, 3);
        lines[1] = lines[1].replacen("r0,", &format!("\"r0{ending}first{ending}second\","), 1);
        let text = lines.join(ending) + ending;
        let report = run(&text, Format::Csv);
        assert_eq!(
            found(&report),
            [(FailureKind::Positions, Some(5)), (FailureKind::Malformed, Some(7))],
            "{ending:?}"
        );
        assert_eq!(report.failures[0].round_id.as_deref(), Some("r1"));
        assert_eq!(report.summary.rows_read, 6);
    }
}

#[test]
fn blank_lines_count_as_lines() {
    for ending in ["\n", "\r\n"] {
        let mut lines = csv_lines(1, 3);
        lines.insert(1, String::new());
        lines.insert(3, String::new());
        let text = lines.join(ending) + ending;
        assert_eq!(
            found(&run(&text, Format::Csv)),
            [(FailureKind::Positions, Some(5)), (FailureKind::Malformed, Some(7))],
            "{ending:?}"
        );
        let mut lines = json_lines(1, 3);
        lines.insert(0, "  ".to_owned());
        lines.insert(2, String::new());
        let text = lines.join(ending) + ending;
        assert_eq!(
            found(&run(&text, Format::JsonLines)),
            [(FailureKind::Positions, Some(4)), (FailureKind::Malformed, Some(6))],
            "{ending:?}"
        );
    }
}

#[test]
fn a_gap_names_the_line_of_the_row_after_it() {
    // Row 2 (nonce 2) removed: the gap is on the line of the row with nonce 3 (line 4 in CSV, 3 in JSON Lines).
    for ending in ["\n", "\r\n"] {
        let mut lines = csv_lines(9, 9);
        lines.remove(3);
        let report = run(&(lines.join(ending) + ending), Format::Csv);
        assert_eq!(found(&report), [(FailureKind::NonceGap, Some(4))], "{ending:?}");
        assert_eq!((report.failures[0].nonce, report.failures[0].last_nonce), (Some(2), Some(2)));
        let mut lines = json_lines(9, 9);
        lines.remove(2);
        let report = run(&(lines.join(ending) + ending), Format::JsonLines);
        assert_eq!(found(&report), [(FailureKind::NonceGap, Some(3))], "{ending:?}");
    }
}
