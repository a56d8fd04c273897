//! The search tool, started just below rounds listed in `vectors/rejections.json`, finds them again:
//! the tool and the reference JavaScript (which computed those rounds' vectors) agree on what a rejection is.

use std::process::Command;

#[test]
fn finds_the_committed_rounds_again() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/rejections.json");
    let committed: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rounds = committed["rounds"].as_array().unwrap();
    let first_draw = rounds.iter().find(|r| r["first_rejected_draw"] == 0).unwrap();
    let later_draw = rounds.iter().find(|r| r["first_rejected_draw"] != 0).unwrap();
    for round in [first_draw, later_draw] {
        let nonce = round["nonce"].as_u64().unwrap();
        let start = nonce.saturating_sub(3000).to_string();
        let out = Command::new(env!("CARGO_BIN_EXE_rejection-search"))
            .args(["--server-seed", committed["server_seed"].as_str().unwrap()])
            .args(["--client-seed", committed["client_seed"].as_str().unwrap()])
            .args(["--start", &start, "--first-draw", "0", "--total", "1"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let found: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(found["rounds"][0], *round, "searching from {start}");
    }
}
