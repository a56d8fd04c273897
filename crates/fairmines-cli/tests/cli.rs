//! The `fairmines` binary as a user runs it: output, JSON and exit codes.

use std::process::{Command, Output};

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
const COMMITMENT: &str = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";

fn fairmines(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairmines")).args(args).output().expect("the binary runs")
}

fn verify(extra: &[&str]) -> Output {
    let mut args = vec!["verify", "--server-seed", SERVER, "--client-seed", CLIENT];
    args.extend_from_slice(extra);
    fairmines(&args)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_worked_example_verifies() {
    let out = verify(&["--nonce", "1", "--mines", "3", "--commitment", COMMITMENT, "--positions", "7,10,19"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac"), "{text}");
    assert!(text.contains("7, 10, 19  ok"), "{text}");
    assert!(text.contains("verdict: OK"), "{text}");
    // Row 2 holds tiles 7 and 10, row 4 tile 19.
    assert!(text.contains(". * . . *"), "{text}");
    assert!(text.contains(". . . * ."), "{text}");
}

#[test]
fn json_has_every_field_and_null_for_checks_not_asked_for() {
    let out = verify(&["--nonce", "1", "--mines", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["signature"], "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac");
    assert_eq!(v["commitment"], COMMITMENT);
    assert_eq!(v["positions"], serde_json::json!([7, 10, 19]));
    assert_eq!(v["draw_order"], serde_json::json!([9, 6, 18]));
    assert!(v["commitment_ok"].is_null());
    assert!(v["positions_ok"].is_null());
    // Nothing was given to check: not a mismatch, and not called ok either.
    assert_eq!((&v["verdict"], &v["ok"]), (&serde_json::json!("unchecked"), &serde_json::json!(false)));
    let text = stdout(&verify(&["--nonce", "1", "--mines", "3"]));
    assert!(text.contains("verdict: UNCHECKED"), "{text}");
    let checked = verify(&["--nonce", "1", "--mines", "3", "--positions", "7,10,19", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
    assert_eq!((&v["verdict"], &v["ok"]), (&serde_json::json!("ok"), &serde_json::json!(true)));
}

#[test]
fn tampered_positions_exit_1_and_show_both() {
    let out = verify(&["--nonce", "1", "--mines", "3", "--positions", "7,10,20", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["positions_ok"], false);
    assert_eq!(v["verdict"], "mismatch");
    assert_eq!(v["declared_positions"], serde_json::json!([7, 10, 20]));
    assert_eq!(v["positions"], serde_json::json!([7, 10, 19]));
    let text = stdout(&verify(&["--nonce", "1", "--mines", "3", "--positions", "[20, 10, 7]"]));
    assert!(text.contains("MISMATCH") && text.contains("declared  7, 10, 20"), "{text}");
}

#[test]
fn a_wrong_commitment_exits_1() {
    let wrong = "0".repeat(64);
    let out = verify(&["--nonce", "1", "--mines", "3", "--commitment", &wrong, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["commitment_ok"], false);
    assert_eq!(v["declared_commitment"], wrong);
}

#[test]
fn bad_input_exits_2_naming_the_argument() {
    for (args, name) in [
        (vec!["--nonce", "1", "--mines", "0"], "mines"),
        (vec!["--nonce", "1", "--mines", "25"], "mines"),
        (vec!["--nonce", "1", "--mines", "x"], "mines"),
        (vec!["--nonce", "-1", "--mines", "3"], "nonce"),
        (vec!["--nonce", "18446744073709551616", "--mines", "3"], "nonce"),
        (vec!["--nonce", "1.5", "--mines", "3"], "nonce"),
        (vec!["--nonce", "1", "--mines", "3", "--positions", "7,10,26"], "positions"),
        (vec!["--nonce", "1", "--mines", "3", "--commitment", "abc"], "commitment"),
    ] {
        let out = verify(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(&format!("{name}:")), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn the_largest_nonce_is_accepted() {
    let out = verify(&["--nonce", "18446744073709551615", "--mines", "24", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["positions"].as_array().unwrap().len(), 24);
}

#[test]
fn seed_prints_a_fresh_seed_with_its_commitment() {
    let first: serde_json::Value = serde_json::from_slice(&fairmines(&["seed", "--json"]).stdout).unwrap();
    let second: serde_json::Value = serde_json::from_slice(&fairmines(&["seed", "--json"]).stdout).unwrap();
    let seed = first["server_seed"].as_str().unwrap();
    assert_eq!(seed.len(), 64);
    assert_ne!(first["server_seed"], second["server_seed"]);
    assert_eq!(first["commitment"].as_str().unwrap(), fairmines::commitment(seed).to_string());
}

#[test]
fn selftest_passes_every_embedded_vector() {
    let out = fairmines(&["selftest", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["failed"], 0);
    assert!(v["passed"].as_u64().unwrap() >= 1000);
    assert_eq!(v["batch_permutation"], fairmines::keccak_backend());
}

#[test]
fn help_is_there_for_every_command() {
    for args in [vec!["--help"], vec!["verify", "--help"], vec!["seed", "--help"], vec!["selftest", "--help"]] {
        let out = fairmines(&args);
        assert_eq!(out.status.code(), Some(0));
        assert!(stdout(&out).contains("Usage:"), "{args:?}");
    }
}

fn play(input: &str, extra: &[&str]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairmines"))
        .args(["play", "--mines", "3", "--rtp", "0.99"])
        .args(extra)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn play_shows_the_commitment_first_then_reveals_and_verifies() {
    // Every tile in order: the round ends on a mine, or (when the mines are all past the safe tiles, about
    // 1 seed in 2300 with 3 mines) pays out once every safe tile is open.
    let input: String = (1..=25).map(|t| format!("{t}\n")).collect();
    let out = play(&format!("c\n0\nx\n{input}"), &["--client-seed", "me"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let commitment_at = text.find("commitment ").unwrap();
    let seed_at = text.find("\nserver seed ").unwrap() + 1;
    assert!(commitment_at < text.find("pick a tile").unwrap() && text.find("pick a tile").unwrap() < seed_at);
    assert!(text.contains("cash-out needs at least one safe pick"), "{text}");
    assert!(text.contains("tile: must be from 1 to 25, got 0"), "{text}");
    assert!(text.contains("MINE, the round is lost") || text.contains("every safe tile is open: paid"), "{text}");
    assert!(text.contains("verified:"), "{text}");
    // The revealed seed hashes to the commitment shown first.
    let commitment = text[commitment_at..].split_whitespace().nth(1).unwrap();
    let seed = text[seed_at..].split_whitespace().nth(2).unwrap();
    assert_eq!(fairmines::commitment(seed).to_string(), commitment);
}

#[test]
fn play_cashes_out_at_the_end_of_input() {
    // Tile 1 and 2 may be mines; either way the round ends and verifies.
    let out = play("1\n", &[]);
    assert!(matches!(out.status.code(), Some(0)), "{}", stderr(&out));
    assert!(stdout(&out).contains("verified:"));
    assert_eq!(play("", &[]).status.code(), Some(2), "no pick at all");
}

#[test]
fn table_gives_exact_multipliers_rounded_down() {
    let out = fairmines(&["table", "--rtp", "0.99", "--mines", "24", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["table"], serde_json::json!([{"mines": 24, "safe_picks": 1, "multiplier": "24.75", "exact": "99/4"}]));
    let all: serde_json::Value =
        serde_json::from_slice(&fairmines(&["table", "--rtp", "99/100", "--json"]).stdout).unwrap();
    assert_eq!(all["table"].as_array().unwrap().len(), 300);
    for bad in ["0", "1.5", "x"] {
        let out = fairmines(&["table", "--rtp", bad]);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("rtp:"), "{bad}");
    }
}

#[test]
fn a_closed_output_ends_the_command_quietly() {
    // `fairmines audit … | head` once head has exited: the reading end of stdout is closed before the
    // command writes, so its first write fails with a broken pipe.
    let history = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/payout.jsonl");
    for args in [vec!["audit", history], vec!["table", "--rtp", "0.99"], vec!["selftest"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_fairmines")).args(&args).stdout(writer).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}");
    }
}
