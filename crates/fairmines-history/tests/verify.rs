//! Whole histories with every kind of fault, in both formats, in any order, in parts.

use fairmines::{MineCount, ServerSeed};
use fairmines_history::{
    CSV_HEADER, FailureKind, Format, Options, Report, Row, Summary, verify_history, verify_values,
};

/// A genuine row of seed pair `pair` (a fixed server seed, so the test is deterministic).
fn genuine(pair: u8, nonce: u64, mines: u32) -> Row {
    let server = ServerSeed::from_bytes(&[pair; 32]);
    let client = format!("client, \"{pair}\"");
    let mines = MineCount::new(mines).unwrap();
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

fn rows(pairs: u8, per_pair: u64) -> Vec<Row> {
    (0..pairs).flat_map(|p| (0..per_pair).map(move |n| genuine(p, n, 1 + (n % 24) as u32))).collect()
}

fn jsonl(rows: &[Row]) -> String {
    rows.iter().map(|r| r.to_json_line() + "\n").collect()
}

fn csv(rows: &[Row]) -> String {
    format!("{CSV_HEADER}\n{}", rows.iter().map(|r| r.to_csv_line() + "\n").collect::<String>())
}

fn run(text: &str, format: Format) -> Report {
    let options = Options { format, chunk_rows: 7, ..Options::default() };
    let report = verify_history(text.as_bytes(), &options, |_| {}).unwrap();
    check_invariant(&report.summary);
    report
}

fn check_invariant(s: &Summary) {
    assert_eq!(s.ok + s.mismatched + s.malformed, s.rows_read, "{s:?}");
}

fn kinds(report: &Report) -> Vec<(FailureKind, Option<u64>)> {
    report.failures.iter().map(|f| (f.kind, f.line)).collect()
}

#[test]
fn a_genuine_history_verifies_in_both_formats() {
    let rows = rows(3, 40);
    for (text, format) in [
        (jsonl(&rows), Format::JsonLines),
        (csv(&rows), Format::Csv),
        (jsonl(&rows), Format::Auto),
        (csv(&rows), Format::Auto),
    ] {
        let report = run(&text, format);
        assert!(report.is_ok(), "{:?}", report.failures);
        assert_eq!(report.summary.rows_read, 120);
        assert_eq!(report.summary.ok, 120);
        assert_eq!(report.summary.seed_pairs, 3);
        assert_eq!(report.pairs.iter().map(|p| p.ranges.clone()).collect::<Vec<_>>(), vec![vec![(0, 39)]; 3]);
    }
}

/// Every kind of fault, each once, in JSON Lines; the expected findings as (kind, line).
fn tampered_jsonl() -> (String, Vec<(FailureKind, Option<u64>)>) {
    let mut rows = rows(2, 20);
    rows[3].positions = fairmines::Tiles::declared([1, 2, 3, 4], "positions").unwrap(); // line 4: positions
    rows[5].commitment = fairmines::Digest::from_bytes([0; 32]); // line 6: commitment
    let mut lines: Vec<String> = rows.iter().map(Row::to_json_line).collect();
    lines.remove(12); // pair 0 loses nonce 12: a gap
    lines.insert(15, lines[14].clone()); // line 16 repeats line 15: a duplicate (pair 0, nonce 15)
    let wrong_type = lines[20].replacen("\"mines\":", "\"mines\":\"", 1).replacen(",\"nonce\"", "\",\"nonce\"", 1);
    lines[20] = wrong_type; // line 21: mines is a string (pair 1, nonce 0)
    lines[22] = lines[22].replace("\"client_seed\"", "\"client_seed_x\""); // line 23: missing field (nonce 2)
    lines[24] = lines[24].replacen("\"commitment\":\"", "\"commitment\":\"zz", 1); // line 25: bad hex (nonce 4)
    lines[26] = "{\"server_seed\": \"s\", this is not json".to_owned(); // line 27: bad JSON (nonce 6)
    lines.insert(28, "   ".to_owned()); // a blank line: skipped and counted, not a row
    let last = lines.len() - 1;
    lines[last].truncate(50); // the last line is cut short and has no newline (pair 1, nonce 19 lost)
    let text = lines.join("\n");
    let expected = vec![
        (FailureKind::Positions, Some(4)),
        (FailureKind::Commitment, Some(6)),
        (FailureKind::DuplicateNonce, Some(16)),
        (FailureKind::Malformed, Some(21)),
        (FailureKind::Malformed, Some(23)),
        (FailureKind::Malformed, Some(25)),
        (FailureKind::Malformed, Some(27)),
        (FailureKind::Malformed, Some(41)),
    ];
    (text, expected)
}

#[test]
fn faults_of_every_kind_are_reported_and_counted() {
    let (text, expected_rows) = tampered_jsonl();
    let report = run(&text, Format::JsonLines);
    let found = kinds(&report);
    assert_eq!(found[..expected_rows.len()], expected_rows[..], "{:#?}", report.failures);
    let s = &report.summary;
    assert_eq!((s.rows_read, s.ok, s.mismatched, s.malformed), (40, 32, 3, 5));
    assert_eq!((s.commitment_mismatches, s.position_mismatches, s.duplicate_nonces), (1, 1, 1));
    assert_eq!(s.blank_lines, 1);
    assert!(s.unterminated_last_line);
    // Gaps: nonce 12 of pair 0; nonces 2 and 6 of pair 1 (their rows' seeds or nonce were unreadable; the row
    // of nonce 4, with a bad commitment, has them and is malformed only). Nonce 0 of pair 1 (also unreadable)
    // and nonce 19 (the truncated last row) lie outside the nonces seen: not gaps.
    let gaps: Vec<(u64, u64)> = report
        .failures
        .iter()
        .filter(|f| f.kind == FailureKind::NonceGap)
        .map(|f| (f.nonce.unwrap(), f.last_nonce.unwrap()))
        .collect();
    let mut sorted = gaps.clone();
    sorted.sort();
    assert_eq!(sorted, [(2, 2), (6, 6), (12, 12)]);
    assert_eq!((s.nonce_gaps, s.missing_nonces), (3, 3));
    assert!(!report.is_ok());

    let at = |line: u64| report.failures.iter().find(|f| f.line == Some(line)).unwrap();
    assert_eq!(at(4).declared.as_deref(), Some("1,2,3,4"));
    assert_eq!(
        at(4).expected.as_deref(),
        Some(&*genuine(0, 3, 4).positions.iter().map(u8::to_string).collect::<Vec<_>>().join(","))
    );
    assert_eq!(at(4).round_id.as_deref(), Some("p0n3"));
    assert_eq!(at(6).declared.as_deref(), Some(&*"0".repeat(64)));
    assert_eq!(at(6).expected.as_deref(), Some(&*genuine(0, 5, 6).commitment.to_string()));
    assert_eq!(at(16).nonce, Some(15));
    assert_eq!((at(21).field.as_deref(), at(21).round_id.as_deref()), (Some("mines"), Some("p1n0")));
    assert!(at(21).message.starts_with("mines: must be an integer, got a string"), "{}", at(21).message);
    assert_eq!(at(23).field.as_deref(), Some("client_seed"));
    assert_eq!(at(25).field.as_deref(), Some("commitment"));
    assert!(at(27).message.starts_with("row: not valid JSON"), "{}", at(27).message);
    assert!(at(41).message.contains("looks truncated"), "{}", at(41).message);
    // The server seeds never appear in a failure: pairs are named by their commitment.
    let shown = format!("{report:?}");
    assert!(!shown.contains(ServerSeed::from_bytes(&[1; 32]).reveal()));
}

#[test]
fn csv_and_json_lines_give_the_same_findings() {
    let mut rows = rows(2, 30);
    rows[4].positions = fairmines::Tiles::declared([25], "positions").unwrap();
    rows[9].commitment = fairmines::Digest::from_bytes([7; 32]);
    rows.remove(17);
    rows.insert(40, rows[39].clone());
    let from_json = run(&jsonl(&rows), Format::Auto);
    let from_csv = run(&csv(&rows), Format::Auto);
    assert_eq!(from_json.summary, from_csv.summary);
    assert_eq!(from_json.pairs, from_csv.pairs);
    // The same failures; CSV lines are one further down (the header is line 1).
    let shift = |r: &Report| {
        r.failures.iter().map(|f| (f.kind, f.line, f.expected.clone(), f.declared.clone(), f.nonce)).collect::<Vec<_>>()
    };
    let json_failures: Vec<_> =
        shift(&from_json).into_iter().map(|(k, l, e, d, n)| (k, l.map(|l| l + 1), e, d, n)).collect();
    assert_eq!(json_failures, shift(&from_csv));
    assert_eq!(from_json.summary.mismatched, 3);
    assert_eq!(from_json.summary.nonce_gaps, 1);
}

#[test]
fn csv_faults_are_reported_too() {
    let rows = rows(1, 6);
    let mut lines: Vec<String> = csv(&rows).lines().map(str::to_owned).collect();
    lines[2] = lines[2].replacen(",1,2,", ",1,x,", 1); // mines not a number (row with nonce 1, mines 2)
    lines[3].push_str(",extra"); // one field too many
    lines[4] = lines[4].replace("p0n3,", "p0n3,\u{1}"); // still readable: the server seed text is any string
    let last = lines.len() - 1;
    lines[last] = lines[last].rsplit_once(',').unwrap().0.to_owned(); // cut short, no newline
    let report = run(&lines.join("\n"), Format::Csv);
    let s = &report.summary;
    assert_eq!((s.rows_read, s.malformed), (6, 2), "{:#?}", report.failures);
    assert_eq!(report.failures[0].field.as_deref(), Some("mines"));
    assert_eq!(report.failures[0].line, Some(3));
    assert!(report.failures[1].message.contains("has 8 fields, the header has 7"));
    assert_eq!((report.failures[2].kind, report.failures[2].line), (FailureKind::Commitment, Some(5)));
    assert_eq!((report.failures[3].kind, report.failures[3].line), (FailureKind::Positions, Some(5)));
    // Cut inside the quoted positions: the record still reads, with one tile less, and fails its check.
    assert_eq!((report.failures[4].kind, report.failures[4].line), (FailureKind::Positions, Some(7)));
    assert!(report.failures[4].message.contains("looks truncated"), "{}", report.failures[4].message);
    assert!(s.unterminated_last_line);
}

#[test]
fn a_csv_header_without_the_needed_columns_stops_the_run() {
    let err =
        verify_history("round_id,server_seed,nonce\nr1,s,1\n".as_bytes(), &Options::default(), |_| {}).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("header:") && text.contains("commitment, client_seed") && text.contains("positions"),
        "{text}"
    );
}

#[test]
fn rows_in_any_order_give_the_same_gaps_and_duplicates() {
    let mut rows = rows(4, 50);
    rows.remove(130);
    rows.remove(20);
    rows.push(rows[77].clone());
    let grouped = run(&jsonl(&rows), Format::JsonLines);
    // Interleave the pairs and reverse within: every pair's nonces arrive out of order.
    let mut shuffled = rows.clone();
    shuffled.sort_by_key(|r| (std::cmp::Reverse(r.nonce), r.client_seed.clone()));
    let mixed = run(&jsonl(&shuffled), Format::JsonLines);
    for report in [&grouped, &mixed] {
        assert_eq!(report.summary.duplicate_nonces, 1);
        assert_eq!(report.summary.nonce_gaps, 2);
        assert_eq!(report.summary.seed_pairs, 4);
    }
    assert_eq!(grouped.pairs, mixed.pairs);
}

#[test]
fn past_max_open_pairs_pairs_close_early_without_false_findings() {
    // 40 pairs, interleaved, with room for only 8 at once.
    let rows = rows(40, 12);
    let mut interleaved = rows.clone();
    interleaved.sort_by_key(|r| (r.nonce / 6, r.client_seed.clone(), r.nonce));
    let options = Options { max_open_pairs: 8, chunk_rows: 5, ..Options::default() };
    let report = verify_history(jsonl(&interleaved).as_bytes(), &options, |_| {}).unwrap();
    assert!(report.summary.pairs_closed_early > 0);
    assert_eq!(report.summary.ok, 480);
    assert!(report.is_ok(), "{:?}", report.failures);
}

#[test]
fn dict_rows_and_parts_merge_to_the_whole() {
    let (text, _) = tampered_jsonl();
    let whole = run(&text, Format::JsonLines);
    let values: Vec<serde_json::Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or(serde_json::Value::Null))
        .collect();
    let from_values = verify_values(values.clone(), &Options::default(), |_| {}).unwrap();
    check_invariant(&from_values.summary);
    assert_eq!(from_values.summary.rows_read, whole.summary.rows_read);
    assert_eq!(from_values.summary.malformed, whole.summary.malformed);
    assert_eq!(from_values.summary.mismatched, whole.summary.mismatched);
    assert_eq!(from_values.pairs, whole.pairs);
    // Two parts checked apart (split inside pair 0, between the duplicate and its original) merge to the
    // summary of the whole.
    let (a, b) = values.split_at(15);
    let part = |rows: &[serde_json::Value]| verify_values(rows.to_vec(), &Options::default(), |_| {}).unwrap();
    let merged = part(a).merge(part(b));
    let mut expected = from_values.summary.clone();
    expected.unterminated_last_line = false;
    assert_eq!(merged.summary, expected);
    assert_eq!(merged.pairs, from_values.pairs);
}

#[test]
fn the_sample_histories_verify_and_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/");
    let json = verify_history(std::fs::File::open(format!("{dir}history.jsonl")).unwrap(), &Options::default(), |_| {})
        .unwrap();
    let csv =
        verify_history(std::fs::File::open(format!("{dir}history.csv")).unwrap(), &Options::default(), |_| {}).unwrap();
    assert!(json.is_ok() && csv.is_ok());
    assert_eq!(json, csv);
    assert_eq!(json.summary.rows_read, 60);
    let tampered =
        verify_history(std::fs::File::open(format!("{dir}tampered.jsonl")).unwrap(), &Options::default(), |_| {})
            .unwrap();
    let s = &tampered.summary;
    assert_eq!((s.rows_read, s.ok, s.mismatched, s.malformed, s.nonce_gaps, s.blank_lines), (30, 21, 3, 6, 3, 1));
}

#[test]
fn parts_cut_anywhere_merge_to_the_summary_of_one_run() {
    // Duplicates across parts of every sort: of an ok row, of a row with wrong positions, twice over,
    // and a duplicate that is itself wrong; plus a gap. Every cut point, and a three-way split.
    let mut history = rows(2, 12);
    history.push(genuine(0, 3, 4)); // duplicate, ok by itself
    let mut wrong = genuine(1, 5, 6);
    wrong.positions = fairmines::Tiles::declared([1, 2, 3, 4, 5, 6], "positions").unwrap();
    history.insert(2, wrong.clone()); // a wrong row early, for a nonce seen again later
    history.push(wrong); // a duplicate that is also wrong
    history.push(genuine(0, 3, 4)); // a third copy
    history.retain(|r| !(r.nonce == 9 && r.client_seed.contains('1'))); // a gap in pair 1
    let values: Vec<serde_json::Value> =
        history.iter().map(|r| serde_json::from_str(&r.to_json_line()).unwrap()).collect();
    let options = Options { chunk_rows: 5, ..Options::default() };
    let whole = verify_values(values.clone(), &options, |_| {}).unwrap();
    assert!(whole.summary.duplicate_nonces >= 3 && whole.summary.nonce_gaps == 1, "{:?}", whole.summary);
    let part = |rows: &[serde_json::Value]| verify_values(rows.to_vec(), &options, |_| {}).unwrap();
    for cut in 0..=values.len() {
        let (a, b) = values.split_at(cut);
        let merged = part(a).merge(part(b));
        assert_eq!(merged.summary, whole.summary, "cut at {cut}");
        assert_eq!(merged.pairs, whole.pairs, "cut at {cut}");
    }
    let (a, rest) = values.split_at(9);
    let (b, c) = rest.split_at(11);
    let left_first = part(a).merge(part(b)).merge(part(c));
    let right_first = part(a).merge(part(b).merge(part(c)));
    assert_eq!(left_first.summary, whole.summary);
    assert_eq!(right_first.summary, whole.summary);
}

/// Found by fuzzing: an empty server seed written as CSV read back as "missing"; it is a seed like any text.
#[test]
fn an_empty_server_seed_reads_back_the_same_from_csv_and_json_lines() {
    let client = "c";
    let mines = MineCount::new(2).unwrap();
    let row = Row {
        server_seed: String::new(),
        commitment: fairmines::commitment(""),
        positions: fairmines::placement("", client, 0, mines).positions(),
        client_seed: client.to_owned(),
        nonce: 0,
        mines,
        round_id: None,
        play: None,
        wager: None,
    };
    let rows = [row];
    let (from_csv, from_jsonl) = (run(&csv(&rows), Format::Csv), run(&jsonl(&rows), Format::JsonLines));
    assert_eq!((from_csv.summary.ok, from_csv.summary.malformed), (1, 0), "{:?}", from_csv.failures);
    assert_eq!(from_csv.summary, from_jsonl.summary);
}

#[test]
fn gzip_delimiters_column_names_and_whole_floats_are_read() {
    use std::io::Write;
    let rows = rows(2, 30);
    let whole = run(&jsonl(&rows), Format::JsonLines);
    // gzip is recognised by its first bytes, in either format; the bytes reported are those read (compressed).
    for (text, format) in [(jsonl(&rows), Format::Auto), (csv(&rows), Format::Csv)] {
        let mut packed = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        packed.write_all(text.as_bytes()).unwrap();
        let packed = packed.finish().unwrap();
        let mut last = 0;
        let options = Options { format, ..Options::default() };
        let report = verify_history(&packed[..], &options, |p: fairmines_history::Progress| last = p.bytes).unwrap();
        assert_eq!(report.summary, run(&text, format).summary);
        assert_eq!(last, packed.len() as u64);
    }
    assert_eq!(Format::from_path("h.csv.gz".as_ref()), Format::Csv);
    assert_eq!(Format::from_path("h.JSONL.GZ".as_ref()), Format::JsonLines);
    assert_eq!(Format::from_path("h.gz".as_ref()), Format::Auto);
    // A semicolon-separated file with the exporter's own column names, positions written "7;10;19".
    let mut writer = csv::WriterBuilder::new().delimiter(b';').from_writer(Vec::new());
    writer.write_record(["round_id", "Server Seed", "commitment", "client_seed", "n", "mines", "positions"]).unwrap();
    for r in &rows {
        let positions = r.positions.iter().map(u8::to_string).collect::<Vec<_>>().join(";");
        let id = r.round_id.clone().unwrap_or_default();
        let (nonce, mines) = (r.nonce.to_string(), r.mines.get().to_string());
        writer
            .write_record([&id, &r.server_seed, &r.commitment.to_string(), &r.client_seed, &nonce, &mines, &positions])
            .unwrap();
    }
    let renamed = String::from_utf8(writer.into_inner().unwrap()).unwrap();
    let options = Options {
        format: Format::Csv,
        delimiter: fairmines_history::parse_delimiter(";").unwrap(),
        columns: [("Server Seed".into(), "server_seed".into()), ("n".into(), "nonce".into())].into(),
        ..Options::default()
    };
    // The positions, now "7;10;19", are read like "7,10,19".
    let report = verify_history(renamed.as_bytes(), &options, |_| {}).unwrap();
    assert_eq!(report.summary, whole.summary);
    let header_only = Options { format: Format::Csv, delimiter: b';', ..Options::default() };
    let error = verify_history(renamed.as_bytes(), &header_only, |_| {}).unwrap_err().to_string();
    assert!(error.contains("missing: server_seed, nonce (its columns: round_id, Server Seed,"), "{error}");
    for bad in ["", ";;", "\"", "\n", "é"] {
        let error = fairmines_history::parse_delimiter(bad).unwrap_err().to_string();
        assert!(error.starts_with("delimiter: must be one ASCII character"), "{error}");
    }
    let quote = Options { delimiter: b'"', ..Options::default() };
    assert!(verify_history(&b""[..], &quote, |_| {}).unwrap_err().to_string().starts_with("delimiter: "));
    // Whole floats (a NaN-holding integer column written by pandas) count as integers.
    let floats = jsonl(&rows).replace(",\"nonce\":3,", ",\"nonce\":3.0,");
    assert!(run(&floats, Format::JsonLines).is_ok());
    let lines = rows.iter().map(|r| {
        let (nonce, mines) = (r.nonce, r.mines.get());
        r.to_csv_line().replacen(&format!(",{nonce},{mines},"), &format!(",{nonce}.0,{mines}.0,"), 1) + "\n"
    });
    let floats_csv = format!("{CSV_HEADER}\n{}", lines.collect::<String>());
    assert_ne!(floats_csv, csv(&rows));
    assert_eq!(run(&floats_csv, Format::Csv).summary, run(&csv(&rows), Format::Csv).summary);
}

#[test]
fn a_json_array_is_refused_with_a_message_that_says_so() {
    let rows = rows(1, 3);
    let array = format!("  [\n{}]\n", rows.iter().map(Row::to_json_line).collect::<Vec<_>>().join(",\n"));
    for format in [Format::Auto, Format::JsonLines] {
        let error = verify_history(array.as_bytes(), &Options { format, ..Options::default() }, |_| {}).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("input: the history is one JSON array ([...]), not JSON Lines"), "{text}");
        assert!(!text.contains("truncated"));
    }
}

/// A row with its play: `safe` safe picks, then a mine when `lost`, at RTP 99/100.
fn played(nonce: u64, safe: usize, lost: bool) -> Row {
    let mut row = genuine(0, nonce, 3);
    let grid = fairmines::placement(&row.server_seed, &row.client_seed, nonce, row.mines);
    let mut picks: Vec<u8> = (1..=25).filter(|&t| !grid.is_mine(t)).take(safe).collect();
    if lost {
        picks.push(row.positions[0]);
    }
    let rtp = fairmines::Rtp::parse("99/100").unwrap();
    let (outcome, multiplier) = if lost {
        (fairmines::Outcome::Lost, None)
    } else {
        (fairmines::Outcome::CashedOut, Some(fairmines::multiplier(row.mines, safe as u8, rtp).unwrap()))
    };
    let picks = fairmines::input::tiles(picks, "picks").unwrap();
    row.play = Some(fairmines_history::Play { picks, outcome, rtp: Some(rtp), multiplier, displayed_places: None });
    row
}

fn play_csv(rows: &[Row]) -> String {
    let lines = rows.iter().map(|r| {
        let play = r.play.unwrap();
        let picks = play.picks.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let rtp = play.rtp.map(|r| r.to_string()).unwrap_or_default();
        let multiplier = play.multiplier.map(|m| m.to_string()).unwrap_or_default();
        format!("{},{rtp},\"{picks}\",{},{multiplier}\n", r.to_csv_line(), play.outcome.as_str())
    });
    format!("{CSV_HEADER},rtp,picks,outcome,multiplier\n{}", lines.collect::<String>())
}

#[test]
fn picks_outcome_and_multiplier_are_checked_when_a_row_has_them() {
    let genuine_rows = vec![played(0, 2, false), played(1, 1, true), played(2, 0, true), played(3, 4, false)];
    for (text, format) in [(jsonl(&genuine_rows), Format::JsonLines), (play_csv(&genuine_rows), Format::Csv)] {
        let report = run(&text, format);
        assert!(report.is_ok(), "{:?}", report.failures);
        assert_eq!(report.summary.ok, 4);
    }
    // A lost round rewritten as cashed out at 1000x: two differences of the one row, in the core's words.
    let mut forged = genuine_rows.clone();
    let play = forged[1].play.as_mut().unwrap();
    play.outcome = fairmines::Outcome::CashedOut;
    play.multiplier = Some(fairmines::Ratio::parse("1000", "multiplier").unwrap());
    for (text, format) in [(jsonl(&forged), Format::JsonLines), (play_csv(&forged), Format::Csv)] {
        let report = run(&text, format);
        let s = &report.summary;
        assert_eq!((s.ok, s.mismatched, s.play_mismatches), (3, 1, 1), "{format:?}");
        let failures: Vec<_> =
            report.failures.iter().map(|f| (f.kind, f.line, f.field.as_deref(), f.message.as_str())).collect();
        let line = if format == Format::Csv { 3 } else { 2 };
        assert_eq!(
            failures,
            [
                (
                    FailureKind::Play,
                    Some(line),
                    Some("outcome"),
                    "outcome: the record says cashed_out, the picks give lost"
                ),
                (
                    FailureKind::Play,
                    Some(line),
                    Some("multiplier"),
                    "multiplier: the record says 1000, the picks give none"
                ),
            ]
        );
        assert_eq!(report.failures[1].declared.as_deref(), Some("1000"));
    }
    // A multiplier without the rtp it was computed with cannot be checked: the row is malformed.
    let text = jsonl(&genuine_rows[..1]).replace("\"rtp\":\"99/100\",", "");
    let report = run(&text, Format::JsonLines);
    assert_eq!(report.summary.malformed, 1);
    assert_eq!(report.failures[0].field.as_deref(), Some("rtp"));
    // Picks without an outcome name the missing field.
    let text = jsonl(&genuine_rows[..1]).replace("\"outcome\":\"cashed_out\",", "");
    let report = run(&text, Format::JsonLines);
    assert!(report.failures[0].message.starts_with("outcome: missing"), "{:?}", report.failures);
}

#[test]
fn a_malformed_row_whose_seeds_and_nonce_read_is_not_also_a_gap() {
    let rows = rows(1, 6);
    let bad_mines = |line: String| line.replacen(&format!(",{}", rows[2].mines.get()), ",25", 1);
    let mut text_jsonl = String::new();
    for (i, row) in rows.iter().enumerate() {
        let line = row.to_json_line();
        text_jsonl +=
            &(if i == 2 { line.replace(&format!("\"mines\":{}", row.mines.get()), "\"mines\":25") } else { line }
                + "\n");
    }
    let mut text_csv = format!("{CSV_HEADER}\n");
    for (i, row) in rows.iter().enumerate() {
        let line = row.to_csv_line();
        let line = if i == 2 {
            bad_mines(line.replacen(&format!(",{}", row.nonce), &format!(",{}|", row.nonce), 1))
        } else {
            line
        };
        text_csv += &(line.replace('|', "") + "\n");
    }
    for (text, format) in [(text_jsonl, Format::JsonLines), (text_csv, Format::Csv)] {
        let report = run(&text, format);
        assert_eq!((report.summary.malformed, report.summary.nonce_gaps), (1, 0), "{format:?} {:?}", report.failures);
        let failure = &report.failures[0];
        assert_eq!(
            (failure.kind, failure.field.as_deref(), failure.nonce),
            (FailureKind::Malformed, Some("mines"), Some(2))
        );
    }
    // A line that is not JSON has no nonce to read: its nonce is missing.
    let mut broken: Vec<String> = rows.iter().map(Row::to_json_line).collect();
    broken[2] = "{not json".into();
    let report = run(&(broken.join("\n") + "\n"), Format::JsonLines);
    assert_eq!((report.summary.malformed, report.summary.nonce_gaps), (1, 1));
}

#[test]
fn an_input_without_rows_is_not_ok_and_says_so() {
    for text in ["", "\n\n", &format!("{CSV_HEADER}\n")] {
        let report = verify_history(text.as_bytes(), &Options::default(), |_| {}).unwrap();
        assert_eq!(report.summary.rows_read, 0);
        assert!(!report.is_ok(), "{text:?}");
        assert_eq!(report.summary.verdict(), "FAILED, no rounds: the input has no rows to check");
    }
    assert!(run(&jsonl(&rows(1, 2)), Format::JsonLines).summary.verdict().starts_with("OK, "));
}

#[test]
fn binary_and_parquet_inputs_are_refused_by_name() {
    for (bytes, says) in [
        (&b"PAR1\x15\x04\x15\x10"[..], "input: the history is a Parquet file (it starts with PAR1)"),
        (&b"\x89PNG\r\n\x1a\n\x00\x00"[..], "input: the history is not text (a NUL byte at byte 8)"),
        (&b"caf\xe9,nonce\n"[..], "input: the history is not text (its first line is not UTF-8 at byte 3)"),
        (&b"round_id,nonce\n1\x002\n"[..], "input: the history is not text (a NUL byte at byte 16)"),
    ] {
        let error = verify_history(bytes, &Options::default(), |_| {}).unwrap_err().to_string();
        assert!(error.starts_with(says), "{error}");
        let mut fed = fairmines_history::HistoryVerifier::new(&Options::default()).unwrap();
        let error = fed.feed(bytes).and_then(|()| fed.finish().map(|_| ())).unwrap_err().to_string();
        assert!(error.starts_with(says), "fed: {error}");
    }
    // Bytes that are not UTF-8 in a later row are that row's fault only.
    let mut text = csv(&rows(1, 3)).into_bytes();
    let at = text.len() - 3;
    text[at] = 0xff;
    let report = verify_history(&text[..], &Options::default(), |_| {}).unwrap();
    assert_eq!(report.summary.malformed, 1);
}

#[test]
fn max_failures_caps_the_failures_kept_and_counts_the_others() {
    let mut rows = rows(1, 50);
    for row in &mut rows {
        row.positions = fairmines::input::tiles(
            (1..=25u8).filter(|t| !row.positions.contains(t)).take(row.mines.get().into()),
            "positions",
        )
        .unwrap();
    }
    let text = jsonl(&rows);
    let capped = Options { max_failures: Some(10), chunk_rows: 7, ..Options::default() };
    let report = verify_history(text.as_bytes(), &capped, |_| {}).unwrap();
    assert_eq!(report.failures.len(), 10);
    assert_eq!(report.failures.iter().map(|f| f.line.unwrap()).collect::<Vec<_>>(), (1..=10).collect::<Vec<_>>());
    assert_eq!((report.summary.position_mismatches, report.summary.failures_omitted), (50, 40));
    let every = Options { max_failures: None, ..Options::default() };
    let report = verify_history(text.as_bytes(), &every, |_| {}).unwrap();
    assert_eq!((report.failures.len(), report.summary.failures_omitted), (50, 0));
    assert_eq!(Options::default().max_failures, Some(10_000));
}

#[test]
fn a_revealed_pairs_round_count_finds_rounds_missing_at_either_end_and_past_it() {
    let all = rows(2, 10);
    let revealed = |pair: u8, rounds: u64| {
        let server = ServerSeed::from_bytes(&[pair; 32]);
        fairmines::RevealedSeedPair {
            server_seed: server.reveal().to_owned(),
            commitment: server.commitment(),
            client_seed: format!("client, \"{pair}\""),
            rounds,
        }
    };
    // Pair 0: nonces 2..=7 of 0..10 kept (0, 1, 8, 9 missing at the ends); pair 1: a row past its 8 rounds.
    let kept: Vec<Row> = all
        .iter()
        .filter(|r| r.round_id.as_deref().unwrap().starts_with("p1") || (2..=7).contains(&r.nonce))
        .cloned()
        .collect();
    let text = jsonl(&kept);
    let without = run(&text, Format::JsonLines);
    assert!(without.is_ok(), "{:?}", without.failures);
    let options = Options { revealed: vec![revealed(0, 10), revealed(1, 8), revealed(3, 4)], ..Options::default() };
    let report = verify_history(text.as_bytes(), &options, |_| {}).unwrap();
    check_invariant(&report.summary);
    let s = &report.summary;
    assert_eq!((s.nonces_past_end, s.mismatched, s.nonce_gaps, s.missing_nonces), (2, 2, 3, 8));
    let past: Vec<u64> =
        report.failures.iter().filter(|f| f.kind == FailureKind::NoncePastEnd).map(|f| f.nonce.unwrap()).collect();
    assert_eq!(past, [8, 9]);
    let mut gaps: Vec<(u64, u64)> = report
        .failures
        .iter()
        .filter(|f| f.kind == FailureKind::NonceGap)
        .map(|f| (f.nonce.unwrap(), f.last_nonce.unwrap()))
        .collect();
    gaps.sort_unstable();
    // Pair 0's two ends, and the 4 rounds of pair 3, which has no row at all.
    assert_eq!(gaps, [(0, 1), (0, 3), (8, 9)]);
    let first_past = report.failures.iter().find(|f| f.kind == FailureKind::NoncePastEnd).unwrap();
    assert_eq!(first_past.message, "nonce: 8 is past the revealed seed pair's 8 rounds (nonces 0..8)");
}

/// `played` with a stake of `stake` minor units and the payout the round owes (0 when lost).
fn staked(nonce: u64, safe: usize, lost: bool, stake: u64) -> Row {
    let mut row = played(nonce, safe, lost);
    let play = row.play.unwrap();
    let payout = play.multiplier.map_or(0, |m| (u128::from(stake) * m.numer() / m.denom()) as u64);
    row.wager = Some(fairmines_history::Wager {
        stake: Some(stake),
        currency: Some("EUR".into()),
        payout: Some(payout),
        player: Some("ann".into()),
    });
    row
}

fn wager_csv(rows: &[Row]) -> String {
    let lines = rows.iter().map(|r| {
        let play = r.play.unwrap();
        let w = r.wager.clone().unwrap();
        let picks = play.picks.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
        let (rtp, multiplier) = (play.rtp.unwrap(), play.multiplier.map(|m| m.to_string()).unwrap_or_default());
        let (stake, payout) = (w.stake.unwrap(), w.payout.unwrap());
        let (currency, player) = (w.currency.unwrap(), w.player.unwrap());
        format!(
            "{},{rtp},\"{picks}\",{},{multiplier},{stake},{currency},{payout},{player}\n",
            r.to_csv_line(),
            play.outcome.as_str()
        )
    });
    format!("{CSV_HEADER},rtp,picks,outcome,multiplier,stake,currency,payout,player\n{}", lines.collect::<String>())
}

#[test]
fn a_payout_is_the_stake_times_the_exact_multiplier_rounded_down() {
    let rows = vec![staked(0, 2, false, 1_000), staked(1, 1, true, 500), staked(2, 3, false, 777)];
    let owed = rows[0].play.unwrap().multiplier.unwrap();
    for (text, format) in [(jsonl(&rows), Format::JsonLines), (wager_csv(&rows), Format::Csv)] {
        let report = run(&text, format);
        assert!(report.is_ok(), "{format:?}: {:?}", report.failures);
        // One unit more than owed, and a lost round that pays: each a play failure of its row.
        let mut forged = rows.clone();
        forged[0].wager.as_mut().unwrap().payout = Some(rows[0].wager.as_ref().unwrap().payout.unwrap() + 1);
        forged[1].wager.as_mut().unwrap().payout = Some(500);
        let text = if format == Format::Csv { wager_csv(&forged) } else { jsonl(&forged) };
        let report = run(&text, format);
        let s = &report.summary;
        assert_eq!((s.ok, s.mismatched, s.play_mismatches), (1, 2, 2), "{format:?}");
        let failures: Vec<_> = report
            .failures
            .iter()
            .map(|f| (f.kind, f.field.as_deref(), f.expected.as_deref(), f.declared.as_deref()))
            .collect();
        let paid = rows[0].wager.as_ref().unwrap().payout.unwrap();
        let (expected, declared) = (paid.to_string(), (paid + 1).to_string());
        assert_eq!(
            failures,
            [
                (FailureKind::Play, Some("payout"), Some(expected.as_str()), Some(declared.as_str())),
                (FailureKind::Play, Some("payout"), Some("0"), Some("500")),
            ]
        );
        let message = &report.failures[0].message;
        assert_eq!(
            *message,
            format!(
                "payout: a stake of 1000 cashed out at multiplier {owed} pays floor(1000 × {owed}) = {paid}, the record says {}",
                paid + 1
            )
        );
        assert_eq!(report.failures[1].message, "payout: a lost round pays 0, the record says 500");
    }
    // The rules of the fields: whole minor units up to 2^53 − 1, a payout needs its stake.
    let mut row: serde_json::Value = serde_json::from_str(&rows[0].to_json_line()).unwrap();
    assert_eq!(
        (row["stake"].as_u64(), row["currency"].as_str(), row["player"].as_str()),
        (Some(1000), Some("EUR"), Some("ann"))
    );
    for (field, value, message) in [
        (
            "stake",
            serde_json::json!(9_007_199_254_740_992u64),
            "stake: must be a whole number of minor units from 0 to 9007199254740991, got 9007199254740992",
        ),
        (
            "payout",
            serde_json::json!(-1),
            "payout: must be a whole number of minor units from 0 to 9007199254740991, got -1",
        ),
        (
            "stake",
            serde_json::json!(1.5),
            "stake: must be a whole number of minor units from 0 to 9007199254740991, got 1.5",
        ),
        ("stake", serde_json::Value::Null, "stake: missing (a row with a payout needs its stake)"),
    ] {
        let before = row[field].clone();
        row[field] = value;
        assert_eq!(Row::from_json_value(&row).unwrap_err().message, message);
        row[field] = before;
    }
    assert_eq!(Row::from_json_value(&row).unwrap(), rows[0]);
}
