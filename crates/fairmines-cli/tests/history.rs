//! `fairmines verify-history`, `audit` and `simulate-history` as a user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/");

fn fairmines(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairmines")).args(args).output().expect("the binary runs")
}

fn with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairmines"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    out
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fairmines-cli-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_simulated_history_verifies_in_both_formats() {
    for (name, format) in [("sim.jsonl", "jsonl"), ("sim.csv", "csv")] {
        let path = tmp(name);
        let path = path.to_str().unwrap();
        let made = fairmines(&["simulate-history", "--rows", "700", "--rounds-per-seed", "300", "--output", path]);
        assert_eq!(made.status.code(), Some(0), "{}", String::from_utf8_lossy(&made.stderr));
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(text.starts_with("round_id,"), format == "csv");
        let out = fairmines(&["verify-history", path]);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(shown.contains("rows read        700") && shown.contains("seed pairs       3"), "{shown}");
        assert!(shown.contains("verdict: OK"), "{shown}");
        // No progress bar when standard error is not a terminal.
        assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn the_tampered_sample_reports_every_fault_and_exits_1() {
    let out = fairmines(&["verify-history", &format!("{EXAMPLES}tampered.jsonl"), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    let summary = lines.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["all_ok"], false);
    assert_eq!((summary["rows_read"].as_u64(), summary["ok"].as_u64()), (Some(30), Some(21)));
    assert_eq!((summary["mismatched"].as_u64(), summary["malformed"].as_u64()), (Some(3), Some(6)));
    let kinds: Vec<(&str, Option<u64>)> =
        lines[..lines.len() - 1].iter().map(|f| (f["kind"].as_str().unwrap(), f["line"].as_u64())).collect();
    for expected in [
        ("positions", Some(4)),
        ("commitment", Some(6)),
        ("malformed", Some(10)),
        ("duplicate_nonce", Some(16)),
        ("malformed", Some(21)),
        ("malformed", Some(23)),
        ("malformed", Some(25)),
        ("malformed", Some(27)),
        ("malformed", Some(31)),
    ] {
        assert!(kinds.contains(&expected), "{expected:?} not in {kinds:?}");
    }
    // Two malformed rows have readable seeds and nonces: they are not also gaps.
    assert_eq!(kinds.iter().filter(|(k, _)| *k == "nonce_gap").count(), 3);
    let positions = &lines[0];
    assert!(positions["expected"].is_string() && positions["declared"].is_string() && positions["round_id"] == "r4");
    // The text report says the same, line by line.
    let text = fairmines(&["verify-history", &format!("{EXAMPLES}tampered.jsonl")]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("line 4 (round r4): POSITIONS positions: the seeds give"), "{text}");
    assert!(text.contains("line 31: MALFORMED") && text.contains("looks truncated"), "{text}");
    assert!(text.contains("verdict: FAILED"), "{text}");
}

#[test]
fn standard_input_and_csv_give_the_same_summary() {
    let summary = |out: &Output| {
        let mut v = json_lines(out).pop().unwrap();
        v.as_object_mut().unwrap().remove("unterminated_last_line");
        v
    };
    let csv = fairmines(&["verify-history", &format!("{EXAMPLES}history.csv"), "--json"]);
    let piped =
        with_stdin(&["verify-history", "-", "--json"], &std::fs::read(format!("{EXAMPLES}history.jsonl")).unwrap());
    assert_eq!(csv.status.code(), Some(0));
    assert_eq!(piped.status.code(), Some(0));
    assert_eq!(summary(&csv), summary(&piped));
    assert_eq!(summary(&csv)["ok"], 60);
}

#[test]
fn bad_input_exits_2_naming_it() {
    let out = fairmines(&["verify-history", "/nonexistent/history.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("input:"));
    let out = with_stdin(&["verify-history", "-"], b"server_seed,nonce\nabc,1\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("header:"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = fairmines(&["verify-history", "-", "--format", "xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("format:"));
}

#[test]
fn audit_of_a_seed_pair_gives_p_values_a_heatmap_and_a_plot() {
    let plot = tmp("heatmap.svg");
    let out = fairmines(&[
        "audit",
        "--server-seed",
        "s",
        "--client-seed",
        "c",
        "--count",
        "20000",
        "--mines",
        "1,3,24",
        "--json",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_mines = v["by_mines"].as_array().unwrap();
    assert_eq!(by_mines.iter().map(|m| m["mines"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 3, 24]);
    for m in by_mines {
        assert_eq!(m["rounds"], 20000);
        let total: u64 = m["tile_counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum();
        assert_eq!(total, 20000 * m["mines"].as_u64().unwrap());
        let p = m["chi_square"]["p_value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p));
    }
    // Every mine count comes from the same nonces: no sum of their statistics, the joint p-values are Holm's.
    assert_eq!((v["combined"].is_null(), v["shared_rounds"].as_bool()), (true, Some(true)));
    let names: Vec<&str> = v["p_values"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["1 mines", "3 mines", "24 mines", "first draw", "holm", "overall"]);
    let smallest = by_mines.iter().map(|m| m["chi_square"]["p_value"].as_f64().unwrap()).fold(1.0, f64::min);
    assert_eq!(v["holm_p_value"].as_f64(), Some((3.0 * smallest).min(1.0)));
    assert!(v["p_values"][5]["what"].as_str().unwrap().contains("all 4 tests"));
    assert_eq!(v["first_draw_counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>(), 20000);
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.matches("<rect").count() == 26);

    let text = fairmines(&["audit", "--server-seed", "s", "--client-seed", "c", "--count", "5000", "--mines", "3"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("mine frequency per tile") && text.contains("tiles 21-25"), "{text}");
    assert!(text.contains("first draw over 5000 rounds"), "{text}");
    let text = fairmines(&["audit", "--server-seed", "s", "--client-seed", "c", "--count", "500", "--mines", "1,2"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("  overall    p = ") && !text.contains("  combined ") && !text.contains("  all "), "{text}");
    assert!(text.contains("no combined test: every mine count comes from the same nonces"), "{text}");
}

#[test]
fn audit_of_a_history_and_its_errors() {
    let out = fairmines(&["audit", &format!("{EXAMPLES}tampered.jsonl"), "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["rows_read"].as_u64(), v["malformed"].as_u64()), (Some(30), Some(6)));
    // A history's rows are rounds of their own, one mine count each: the combined test is there.
    let out = fairmines(&["audit", &format!("{EXAMPLES}history.csv"), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["combined"]["degrees_of_freedom"].as_u64(), v["shared_rounds"].as_bool()), (Some(576), Some(false)));
    let text = String::from_utf8_lossy(&fairmines(&["audit", &format!("{EXAMPLES}history.csv")]).stdout).into_owned();
    assert!(
        text.contains("  combined   p = ") && text.contains("(sum of 24 independent statistics, df 576)"),
        "{text}"
    );
    // The core's verdict, the same in the text and the JSON: a small history is too few rounds to judge.
    assert_eq!(v["verdict"]["level"], "too_few_rounds");
    assert!(text.contains("verdict: too few rounds to say anything\n"), "{text}");
    let words = v["verdict"]["explanation"].as_str().unwrap();
    assert!(text.contains(words), "{text}");
    // A seed pair of many rounds: consistent, with its largest deviation.
    let out =
        fairmines(&["audit", "--server-seed", "s", "--client-seed", "c", "--count", "3000", "--mines", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["verdict"]["level"].as_str(), v["verdict"]["rounds"].as_u64()), (Some("consistent"), Some(3000)));
    let tile = v["verdict"]["largest_deviation"]["tile"].as_u64().unwrap();
    let text = String::from_utf8_lossy(
        &fairmines(&["audit", "--server-seed", "s", "--client-seed", "c", "--count", "3000", "--mines", "3"]).stdout,
    )
    .into_owned();
    assert!(text.contains("verdict: consistent with fair draws\n"), "{text}");
    assert!(text.contains(&format!("largest deviation: tile {tile}, ")), "{text}");
    // The payout audit of a history with stakes and payouts, in the text and the JSON.
    let out = fairmines(&["audit", &format!("{EXAMPLES}payout.jsonl"), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["payout"]["overall"]["rounds"].as_u64(), v["payout"]["overall"]["stake_total"].as_u64()),
        (Some(12), Some(12_000))
    );
    assert_eq!(v["payout"]["hit_rates"][0]["expected_exact"], "22/25");
    let text = String::from_utf8_lossy(&fairmines(&["audit", &format!("{EXAMPLES}payout.jsonl")]).stdout).into_owned();
    let realised = v["payout"]["overall"]["realised_return"].as_f64().unwrap();
    assert!(text.contains("payouts: realised return") && text.contains(&format!("{realised:.4}")), "{text}");
    assert!(text.contains("player ann") && text.contains("currency EUR"), "{text}");
    let out = fairmines(&["audit", &format!("{EXAMPLES}history.csv"), "--json"]);
    assert!(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["payout"].is_null());
    // A p-value threshold turns the audit into a check; a threshold above 1 always fails.
    let out = fairmines(&["audit", &format!("{EXAMPLES}history.csv"), "--fail-below", "1.1"]);
    assert_eq!(out.status.code(), Some(1));
    let out = fairmines(&["audit", &format!("{EXAMPLES}history.csv"), "--plot", "x.png"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("plot:"));
    let out = fairmines(&["audit"]);
    assert_eq!(out.status.code(), Some(2));
    let out = fairmines(&["audit", "--server-seed", "s", "--client-seed", "c", "--count", "10", "--mines", "25"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("mines:"));
}

#[test]
fn an_empty_history_fails_and_says_it_has_no_rounds() {
    let out = with_stdin(&["verify-history", "-"], b"");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("verdict: FAILED, no rounds: the input has no rows to check"), "{text}");
    let out = with_stdin(&["verify-history", "--json", "-"], b"\n");
    assert_eq!(json_lines(&out).last().unwrap()["all_ok"], serde_json::json!(false));
}

#[test]
fn a_binary_or_parquet_file_is_refused_with_what_it_is() {
    let path = tmp("history.parquet");
    std::fs::write(&path, b"PAR1\x15\x04\x15\x10\x00\x00PAR1").unwrap();
    let out = fairmines(&["verify-history", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.starts_with("input: the history is a Parquet file (it starts with PAR1)"), "{error}");
    let out = with_stdin(&["verify-history", "-"], b"\x00\x01\x02binary");
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.starts_with("input: the history is not text (a NUL byte at byte 0)"), "{error}");
}

#[test]
fn max_failures_caps_the_failures_printed_and_the_summary_counts_the_rest() {
    let tampered = format!("{EXAMPLES}tampered.jsonl");
    let every = json_lines(&fairmines(&["verify-history", "--json", &tampered]));
    let found = every.iter().filter(|v| v["type"] == "failure").count();
    assert!(found > 3);
    let capped = json_lines(&fairmines(&["verify-history", "--json", "--max-failures", "3", &tampered]));
    assert_eq!(capped.iter().filter(|v| v["type"] == "failure").count(), 3);
    let summary = capped.last().unwrap();
    assert_eq!(summary["failures_omitted"], serde_json::json!(found - 3));
    assert_eq!(summary["malformed"], every.last().unwrap()["malformed"]);
    assert_eq!(summary["failures_listed"], serde_json::json!(3));
    assert_eq!(
        summary["text"],
        format!(
            "30 rows read: 21 ok, 3 failed (commitment 1, positions 1, duplicate nonce 1), 6 malformed; 3 nonce gaps \
             (3 missing); {found} failures found: the first 3 listed, {} more counted but not listed",
            found - 3
        )
    );
    let text = fairmines(&["verify-history", "--max-failures", "3", &tampered]);
    let text = String::from_utf8_lossy(&text.stdout);
    let listed = text.lines().filter(|l| l.starts_with("line ") || l.starts_with("seed pair ")).count();
    assert_eq!(listed, 3, "{text}");
    assert!(
        text.contains(&format!(
            "failures         {found}  (3 listed above, {} not listed: past --max-failures",
            found - 3
        )),
        "{text}"
    );
    assert!(text.contains(&format!("summary: {}", summary["text"].as_str().unwrap())), "{text}");
}

#[test]
fn revealed_pairs_report_the_rounds_missing_at_their_ends() {
    let history = tmp("ends.jsonl");
    let out =
        fairmines(&["simulate-history", "--rows", "6", "--format", "jsonl", "--output", history.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&history).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let pair = serde_json::json!({
        "server_seed": first["server_seed"], "commitment": first["commitment"],
        "client_seed": first["client_seed"], "rounds": 9,
    });
    let revealed = tmp("revealed.jsonl");
    std::fs::write(&revealed, format!("{pair}\n")).unwrap();
    let plain = fairmines(&["verify-history", history.to_str().unwrap()]);
    assert_eq!(plain.status.code(), Some(0));
    let out =
        fairmines(&["verify-history", "--json", "--revealed", revealed.to_str().unwrap(), history.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    let gap = lines.iter().find(|v| v["kind"] == "nonce_gap").unwrap();
    assert_eq!((&gap["nonce"], &gap["last_nonce"]), (&serde_json::json!(6), &serde_json::json!(8)));
    std::fs::write(&revealed, "{\"rounds\": 3}\n").unwrap();
    let out = fairmines(&["verify-history", "--revealed", revealed.to_str().unwrap(), history.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("revealed: "));
}

/// The sample history with round r2 tampered (other positions) and round r4 malformed (a commitment that
/// is not hex), in `format`, with `ending` for line ends.
fn tampered_sample(format: &str, ending: &str) -> String {
    let text = std::fs::read_to_string(format!("{EXAMPLES}history.{format}")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            if line.contains("\"r2\"") || line.starts_with("r2,") {
                line.replace("[7,11]", "[7,12]").replace("\"7,11\"", "\"7,12\"")
            } else if line.contains("\"r4\"") || line.starts_with("r4,") {
                line.replacen("2753c2f0", "zz2753c2f0", 1)
            } else {
                line.to_owned()
            }
        })
        .collect();
    lines.join(ending) + ending
}

#[test]
fn failures_name_the_physical_line_with_lf_and_crlf() {
    // The CSV header is line 1: r2 is on line 3 and r4 on line 5; in JSON Lines on lines 2 and 4.
    for (format, tampered, malformed) in [("csv", 3, 5), ("jsonl", 2, 4)] {
        for ending in ["\n", "\r\n"] {
            let path = tmp(&format!("lines-{}.{format}", ending.len()));
            std::fs::write(&path, tampered_sample(format, ending)).unwrap();
            let path = path.to_str().unwrap();
            let out = fairmines(&["verify-history", path, "--json"]);
            assert_eq!(out.status.code(), Some(1));
            let lines = json_lines(&out);
            let found: Vec<(&str, Option<u64>, &str)> = lines[..lines.len() - 1]
                .iter()
                .map(|f| (f["kind"].as_str().unwrap(), f["line"].as_u64(), f["round_id"].as_str().unwrap()))
                .collect();
            assert_eq!(
                found,
                [("positions", Some(tampered), "r2"), ("malformed", Some(malformed), "r4")],
                "{ending:?}"
            );
            let text = String::from_utf8_lossy(&fairmines(&["verify-history", path]).stdout).into_owned();
            assert!(text.contains(&format!("line {tampered} (round r2): POSITIONS")), "{text}");
            assert!(text.contains(&format!("line {malformed} (round r4): MALFORMED")), "{text}");
        }
    }
}

/// A history of one round with 5 mines cashed out after one safe pick at RTP 0.99 (exactly 99/80, shown as
/// 1.23), its multiplier written `multiplier`, with a `multiplier_form` column when `form` is given.
fn displayed_history(multiplier: &str, form: Option<&str>) -> std::path::PathBuf {
    let server = fairmines::ServerSeed::from_bytes(&[5; 32]);
    let mines = fairmines::MineCount::new(5).unwrap();
    let grid = fairmines::placement(server.reveal(), "c", 7, mines);
    let pick = (1..=25u8).find(|&t| !grid.is_mine(t)).unwrap();
    let positions = grid.positions().iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let (header, cell) = form.map_or((String::new(), String::new()), |f| (",multiplier_form".into(), format!(",{f}")));
    let text = format!(
        "server_seed,commitment,client_seed,nonce,mines,positions,rtp,picks,outcome,multiplier{header}\n\
         {},{},c,7,5,\"{positions}\",0.99,{pick},cashed_out,{multiplier}{cell}\n",
        server.reveal(),
        server.commitment()
    );
    let path = tmp(&format!("displayed-{multiplier}-{}.csv", form.unwrap_or("none")));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn displayed_multipliers_by_column_or_option() {
    let run = |path: &std::path::Path, args: &[&str]| {
        let mut all = vec!["verify-history", path.to_str().unwrap(), "--json"];
        all.extend_from_slice(args);
        let out = fairmines(&all);
        (out.status.code(), json_lines(&out))
    };
    // The floor of the exact multiplier passes, said by the column or by --multiplier-form.
    assert_eq!(run(&displayed_history("1.23", Some("displayed")), &[]).0, Some(0));
    assert_eq!(run(&displayed_history("1.23", None), &["--multiplier-form", "displayed"]).0, Some(0));
    // Off by 0.01 it fails as play; an exact-form row with the rounded value fails too.
    for (path, args) in [
        (displayed_history("1.24", Some("displayed")), vec![]),
        (displayed_history("1.22", None), vec!["--multiplier-form", "displayed"]),
        (displayed_history("1.23", None), vec![]),
        (displayed_history("1.23", Some("exact")), vec!["--multiplier-form", "displayed"]),
    ] {
        let (code, lines) = run(&path, &args);
        assert_eq!(code, Some(1), "{path:?} {args:?}");
        assert_eq!((lines[0]["kind"].as_str(), lines[0]["field"].as_str()), (Some("play"), Some("multiplier")));
        assert_eq!(lines[0]["line"], 2);
    }
    let bad = fairmines(&["verify-history", "--multiplier-form", "rounded", "x.csv"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("multiplier_form: must be exact or displayed"));
}
