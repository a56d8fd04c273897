//! Stopping a run from its progress callback (or sink), and audits over rows given as values.

use std::ops::ControlFlow;

use fairmines::MineCount;
use fairmines_history::{
    Failure, HistoryError, Options, Progress, Row, Sink, audit_history, audit_seed_pair_counts, audit_values,
    verify_history, verify_history_to, verify_values,
};

/// `rows` genuine rows of one seed pair, as JSON Lines.
fn history(rows: u64) -> String {
    let (server, client, mines) = ("stop-server", "stop-client", MineCount::new(3).unwrap());
    (0..rows)
        .map(|nonce| {
            let row = Row {
                server_seed: server.to_owned(),
                commitment: fairmines::commitment(server),
                client_seed: client.to_owned(),
                nonce,
                mines,
                positions: fairmines::placement(server, client, nonce, mines).positions(),
                round_id: None,
                play: None,
                wager: None,
            };
            row.to_json_line() + "\n"
        })
        .collect()
}

fn values(text: &str) -> Vec<serde_json::Value> {
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

/// A progress callback that stops after `calls` calls, counting them.
fn stop_after(calls: usize, seen: &mut Vec<u64>) -> impl FnMut(Progress) -> ControlFlow<()> + '_ {
    move |p| {
        seen.push(p.rows);
        if seen.len() >= calls { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

const OPTIONS: Options = Options {
    format: fairmines_history::Format::JsonLines,
    threads: 2,
    chunk_rows: 100,
    commitment_cache: 16,
    max_open_pairs: 1000,
    columns: std::collections::BTreeMap::new(),
    delimiter: b',',
    max_failures: None,
    revealed: Vec::new(),
    multiplier_form: fairmines_history::MultiplierForm::Exact,
};

#[test]
fn a_callback_that_breaks_stops_every_kind_of_run() {
    let text = history(1_000);
    let mut seen = Vec::new();
    let stopped = verify_history(text.as_bytes(), &OPTIONS, stop_after(3, &mut seen));
    assert!(matches!(stopped, Err(HistoryError::Stopped)), "{stopped:?}");
    assert_eq!(seen, [100, 200, 300], "no progress after the stop");
    assert_eq!(HistoryError::Stopped.to_string(), "stopped by the progress callback");

    let mut seen = Vec::new();
    assert!(matches!(verify_values(values(&text), &OPTIONS, stop_after(2, &mut seen)), Err(HistoryError::Stopped)));
    assert_eq!(seen, [100, 200]);

    let mut seen = Vec::new();
    assert!(matches!(audit_history(text.as_bytes(), &OPTIONS, stop_after(1, &mut seen)), Err(HistoryError::Stopped)));
    assert_eq!(seen, [100]);

    let mut seen = Vec::new();
    assert!(matches!(audit_values(values(&text), &OPTIONS, stop_after(4, &mut seen)), Err(HistoryError::Stopped)));
    assert_eq!(seen, [100, 200, 300, 400]);

    let mut seen = Vec::new();
    let mines = [MineCount::new(3).unwrap()];
    let audit = audit_seed_pair_counts("s", "c", 0, 1 << 20, &mines, stop_after(1, &mut seen));
    assert!(matches!(audit, Err(HistoryError::Stopped)), "{audit:?}");
    assert_eq!(seen, [1 << 16], "stopped after the first block of 65,536 nonces");
}

#[test]
fn a_callback_that_never_breaks_changes_nothing() {
    let text = history(1_000);
    let plain = verify_history(text.as_bytes(), &OPTIONS, |_| {}).unwrap();
    let flowing = verify_history(text.as_bytes(), &OPTIONS, |_| ControlFlow::Continue(())).unwrap();
    assert_eq!(plain, flowing);
    assert!(plain.is_ok() && plain.summary.rows_read == 1_000);
    let mines = [MineCount::new(5).unwrap()];
    let range = audit_seed_pair_counts("s", "c", u64::MAX - 1, 3, &mines, |_| {}).unwrap_err();
    assert!(matches!(range, HistoryError::Invalid(ref e) if e.code() == 2), "{range:?}");
    assert_eq!(range.to_string(), "nonce: the range from 18446744073709551614 with 3 nonces passes 2^64 - 1");
}

#[test]
fn a_sink_can_stop_the_run() {
    struct Stopper(u32);
    impl Sink for Stopper {
        fn failure(&mut self, _: Failure) {}
        fn progress(&mut self, _: Progress) -> ControlFlow<()> {
            self.0 += 1;
            if self.0 == 2 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        }
    }
    let mut sink = Stopper(0);
    let stopped = verify_history_to(history(3_000).as_bytes(), &OPTIONS, &mut sink);
    assert!(matches!(stopped, Err(HistoryError::Stopped)));
    assert_eq!(sink.0, 2);
}

#[test]
fn an_audit_of_values_counts_as_the_audit_of_their_lines() {
    let mut text = history(600);
    text.push_str("{\"nonce\": 3}\n");
    let lines = audit_history(text.as_bytes(), &OPTIONS, |_| {}).unwrap();
    let from_values = audit_values(values(&text), &OPTIONS, |_| {}).unwrap();
    assert_eq!(lines, from_values);
    assert_eq!((from_values.rows_read, from_values.malformed), (601, 1));
    let not_objects = audit_values([serde_json::json!([1]), serde_json::Value::Null], &OPTIONS, |_| {}).unwrap();
    assert_eq!((not_objects.rows_read, not_objects.malformed), (2, 2));
}

#[test]
fn reports_round_trip_through_json_and_refuse_other_text() {
    let report = verify_history(history(50).as_bytes(), &OPTIONS, |_| {}).unwrap();
    assert_eq!(fairmines_history::Report::from_json(&report.to_json()).unwrap(), report);
    let counts = audit_history(history(50).as_bytes(), &OPTIONS, |_| {}).unwrap();
    assert_eq!(fairmines_history::AuditCounts::from_json(&counts.to_json()).unwrap(), counts);
    let refused = fairmines_history::Report::from_json("{").unwrap_err();
    assert_eq!((refused.code(), refused.argument()), (15, Some("json")));
    assert!(refused.to_string().starts_with("json: "), "{refused}");
    assert_eq!(fairmines_history::AuditCounts::from_json("[]").unwrap_err().argument(), Some("json"));
}
