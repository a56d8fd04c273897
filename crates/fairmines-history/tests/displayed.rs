//! Multipliers as the operator displays them (`multiplier_form` = `displayed`, or the run's option): the
//! exact multiplier rounded down to the decimals written passes, anything else fails as `play`; an exact-form
//! row with a rounded value still fails.

use fairmines::{MineCount, Outcome, Rtp, ServerSeed};
use fairmines_history::{
    CSV_HEADER, FailureKind, HistoryVerifier, MultiplierForm, Options, Report, Row, verify_history,
};

/// A round with 5 mines cashed out after one safe pick at RTP 0.99: the exact multiplier is 99/80 (1.2375).
fn cashed_out() -> (Row, String) {
    let server = ServerSeed::from_bytes(&[5; 32]);
    let mines = MineCount::new(5).unwrap();
    let grid = fairmines::placement(server.reveal(), "c", 7, mines);
    let pick = (1..=25u8).find(|&t| !grid.is_mine(t)).unwrap();
    let exact = fairmines::multiplier(mines, 1, Rtp::parse("0.99").unwrap()).unwrap();
    assert_eq!(exact.to_string(), "99/80");
    let row = Row {
        server_seed: server.reveal().to_owned(),
        commitment: server.commitment(),
        client_seed: "c".into(),
        nonce: 7,
        mines,
        positions: grid.positions(),
        round_id: Some("r7".into()),
        play: None,
        wager: None,
    };
    (row, pick.to_string())
}

/// The row with its play columns: `multiplier` as written, and `form` in a `multiplier_form` column (`None`:
/// no such column), as CSV and as a JSON line.
fn histories(multiplier: &str, form: Option<&str>) -> [String; 2] {
    let (row, pick) = cashed_out();
    let (header_form, cell_form) =
        form.map_or((String::new(), String::new()), |f| (",multiplier_form".into(), format!(",{f}")));
    let csv = format!(
        "{CSV_HEADER},rtp,picks,outcome,multiplier{header_form}\n{},0.99,{pick},{},{multiplier}{cell_form}\n",
        row.to_csv_line(),
        Outcome::CashedOut.as_str()
    );
    let mut json: serde_json::Value = serde_json::from_str(&row.to_json_line()).unwrap();
    json["rtp"] = "0.99".into();
    json["picks"] = serde_json::json!([pick.parse::<u8>().unwrap()]);
    json["outcome"] = "cashed_out".into();
    json["multiplier"] = multiplier.into();
    if let Some(form) = form {
        json["multiplier_form"] = form.into();
    }
    [csv, json.to_string() + "\n"]
}

fn run(text: &str, form: MultiplierForm) -> Report {
    let options = Options { multiplier_form: form, ..Options::default() };
    let report = verify_history(text.as_bytes(), &options, |_| {}).unwrap();
    let mut fed = HistoryVerifier::new(&options).unwrap();
    fed.feed(text.as_bytes()).unwrap();
    assert_eq!(fed.finish().unwrap(), report);
    report
}

#[test]
fn a_displayed_multiplier_rounded_down_passes() {
    for (multiplier, form, option) in [
        ("1.23", Some("displayed"), MultiplierForm::Exact),
        ("1.23", None, MultiplierForm::Displayed),
        ("1.2", Some("Displayed"), MultiplierForm::Exact),
        ("1", Some("displayed"), MultiplierForm::Exact),
        ("1.2375", Some("displayed"), MultiplierForm::Exact),
        ("99/80", None, MultiplierForm::Exact),
        ("1.2375", Some("exact"), MultiplierForm::Displayed),
        ("1.2375", Some(""), MultiplierForm::Exact),
    ] {
        for text in histories(multiplier, form) {
            let report = run(&text, option);
            assert!(report.is_ok(), "{multiplier} {form:?} {option:?}: {:?}", report.failures);
        }
    }
}

#[test]
fn a_displayed_multiplier_that_is_not_the_floor_fails_as_play() {
    for (multiplier, form, option, expected) in [
        ("1.24", Some("displayed"), MultiplierForm::Exact, "1.23"),
        ("1.22", None, MultiplierForm::Displayed, "1.22"),
        ("1.238", Some("displayed"), MultiplierForm::Exact, "1.237"),
    ] {
        for text in histories(multiplier, form) {
            let report = run(&text, option);
            assert_eq!((report.summary.play_mismatches, report.summary.mismatched), (1, 1), "{multiplier}");
            let f = &report.failures[0];
            assert_eq!((f.kind, f.field.as_deref()), (FailureKind::Play, Some("multiplier")));
            if multiplier != "1.22" {
                assert_eq!((f.expected.as_deref(), f.declared.as_deref()), (Some(expected), Some(multiplier)));
                assert_eq!(
                    f.message,
                    format!(
                        "multiplier: the record displays {multiplier}, the picks give 99/80, displayed as {expected} \
                         (rounded down to {} decimals)",
                        multiplier.len() - 2
                    )
                );
            }
        }
    }
}

#[test]
fn an_exact_form_row_with_a_rounded_value_still_fails() {
    for (form, option) in [(None, MultiplierForm::Exact), (Some("exact"), MultiplierForm::Displayed)] {
        for text in histories("1.23", form) {
            let report = run(&text, option);
            assert_eq!(report.summary.play_mismatches, 1);
            assert_eq!(report.failures[0].message, "multiplier: the record says 123/100, the picks give 99/80");
        }
    }
}

#[test]
fn a_bad_form_or_a_fraction_shown_as_displayed_is_malformed() {
    for (multiplier, form, field) in
        [("1.23", "rounded", "multiplier_form"), ("99/80", "displayed", "multiplier"), ("x", "displayed", "multiplier")]
    {
        for text in histories(multiplier, Some(form)) {
            let report = run(&text, MultiplierForm::Exact);
            assert_eq!(report.summary.malformed, 1, "{multiplier} {form}");
            assert_eq!(report.failures[0].field.as_deref(), Some(field), "{:?}", report.failures[0]);
        }
    }
    assert_eq!(MultiplierForm::parse(" DISPLAYED "), Ok(MultiplierForm::Displayed));
    assert!(MultiplierForm::parse("shown").unwrap_err().contains("must be exact or displayed"));
}
