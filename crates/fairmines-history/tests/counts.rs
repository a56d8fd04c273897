//! The counts of a run agree with each other and with what is listed: rows read, ok, failed by kind,
//! malformed; failures found = listed (at most `max_failures`) + not listed, in the summary and its words.

use fairmines::{MineCount, ServerSeed, Tiles};
use fairmines_history::{
    CSV_HEADER, HistoryVerifier, Options, Report, Row, summary_json, verify_history, verify_values,
};

const ROWS: u64 = 20_000;

/// A history of `ROWS` rounds in which every row declares the wrong mine (one failure a row), and one
/// malformed row (mines 25) after them, in CSV.
fn all_failing() -> String {
    let server = ServerSeed::from_bytes(&[9; 32]);
    let mines = MineCount::new(1).unwrap();
    let mut text = format!("{CSV_HEADER}\n");
    for nonce in 0..ROWS {
        let genuine = fairmines::placement(server.reveal(), "c", nonce, mines).positions()[0];
        let row = Row {
            server_seed: server.reveal().to_owned(),
            commitment: server.commitment(),
            client_seed: "c".into(),
            nonce,
            mines,
            positions: Tiles::declared([genuine % 25 + 1], "positions").unwrap(),
            round_id: None,
            play: None,
            wager: None,
        };
        text += &(row.to_csv_line() + "\n");
    }
    text + &format!(",{},{},c,{ROWS},25,1\n", server.reveal(), server.commitment())
}

fn check(report: &Report, listed: u64) {
    let s = &report.summary;
    assert_eq!((s.rows_read, s.ok, s.mismatched, s.position_mismatches, s.malformed), (ROWS + 1, 0, ROWS, ROWS, 1));
    assert_eq!(s.ok + s.mismatched + s.malformed, s.rows_read);
    assert_eq!(report.failures.len() as u64, listed);
    assert_eq!((s.failures_listed, s.failures_omitted, s.failures_found()), (listed, ROWS + 1 - listed, ROWS + 1));
}

#[test]
fn an_all_failing_history_lists_max_failures_and_counts_every_other() {
    let text = all_failing();
    let options = Options { max_failures: Some(25), ..Options::default() };
    let report = verify_history(text.as_bytes(), &options, |_| {}).unwrap();
    check(&report, 25);
    assert_eq!(
        report.summary.text(),
        "20,001 rows read: 0 ok, 20,000 failed (positions 20,000), 1 malformed; 0 nonce gaps; \
         20,001 failures found: the first 25 listed, 19,976 more counted but not listed"
    );
    // The JSON summary line carries the same counts and words.
    let json = summary_json(&report.summary);
    assert_eq!((json["failures_listed"].as_u64(), json["failures_omitted"].as_u64()), (Some(25), Some(19_976)));
    assert_eq!(json["text"], report.summary.text());
    // Fed in pieces: the same report.
    let mut verifier = HistoryVerifier::new(&options).unwrap();
    for piece in text.as_bytes().chunks(4096) {
        verifier.feed(piece).unwrap();
    }
    assert_eq!(verifier.finish().unwrap(), report);
    // Every failure kept: all listed.
    let every = verify_history(text.as_bytes(), &Options { max_failures: None, ..Options::default() }, |_| {}).unwrap();
    check(&every, ROWS + 1);
    assert!(every.summary.text().ends_with("; 20,001 failures found, all listed"), "{}", every.summary.text());
}

#[test]
fn merged_reports_count_what_they_list() {
    let text = all_failing();
    let (head, tail) = text.split_at(text.len() / 2);
    let cut = tail.find('\n').unwrap() + 1;
    let (first, second) = (format!("{head}{}", &tail[..cut]), format!("{CSV_HEADER}\n{}", &tail[cut..]));
    let options = Options { max_failures: Some(10), ..Options::default() };
    let parts: Vec<Report> =
        [first, second].iter().map(|t| verify_history(t.as_bytes(), &options, |_| {}).unwrap()).collect();
    let merged = parts[0].clone().merge(parts[1].clone());
    check(&merged, 20);
}

#[test]
fn the_words_of_small_and_clean_runs() {
    let ok = verify_values(Vec::new(), &Options::default(), |_| {}).unwrap();
    assert_eq!(ok.summary.text(), "0 rows read: 0 ok, 0 failed, 0 malformed; 0 nonce gaps; no failures");
    let history = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/tampered.jsonl")).unwrap();
    let report = verify_history(&history[..], &Options::default(), |_| {}).unwrap();
    assert_eq!(
        report.summary.text(),
        "30 rows read: 21 ok, 3 failed (commitment 1, positions 1, duplicate nonce 1), 6 malformed; \
         3 nonce gaps (3 missing); 12 failures found, all listed"
    );
    assert_eq!(report.summary.failures_listed, report.failures.len() as u64);
}
