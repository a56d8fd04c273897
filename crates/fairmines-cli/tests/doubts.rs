//! `fairmines verify` with seeds that look mistyped: the input is named, not the operator blamed.

use std::process::{Command, Output};

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
const COMMITMENT: &str = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";

fn verify(server: &str, client: &str, json: bool) -> Output {
    let mut args = vec!["verify", "--server-seed", server, "--client-seed", client, "--nonce", "1", "--mines", "3"];
    args.extend(["--commitment", COMMITMENT, "--positions", "7,10,19"]);
    if json {
        args.push("--json");
    }
    Command::new(env!("CARGO_BIN_EXE_fairmines")).args(&args).output().expect("the binary runs")
}

#[test]
fn a_trailing_space_upper_case_or_empty_seed_is_named_as_the_input_not_a_mismatch() {
    let cases = [
        (format!("{SERVER} "), CLIENT.to_owned(), "server_seed: has white space at its start or end"),
        (SERVER.to_uppercase(), CLIENT.to_owned(), "server_seed: has upper-case letters"),
        (String::new(), CLIENT.to_owned(), "server_seed: is empty"),
        (SERVER.to_owned(), format!("{CLIENT}\t"), "client_seed: has white space at its start or end"),
    ];
    for (server, client, said) in cases {
        let out = verify(&server, &client, false);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(2), "{server:?} {client:?}: {text}");
        assert!(text.contains(&format!("input        {said}")), "{text}");
        assert!(text.contains("verdict: CHECK THE INPUT, a seed looks mistyped"), "{text}");
        assert!(!text.contains("verdict: MISMATCH"), "{text}");

        let out = verify(&server, &client, true);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(report["verdict"], "mismatch");
        let doubts = report["input_doubts"].as_array().expect("input_doubts");
        assert_eq!(doubts.len(), 1, "{report}");
        let (argument, detail) = said.split_once(": ").unwrap();
        assert_eq!(doubts[0]["argument"], argument);
        assert!(doubts[0]["detail"].as_str().unwrap().starts_with(detail), "{report}");
    }
}

#[test]
fn the_operators_seeds_raise_no_doubt_and_a_real_mismatch_stays_one() {
    let out = verify(SERVER, CLIENT, true);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((out.status.code(), report["verdict"].as_str()), (Some(0), Some("ok")));
    assert_eq!(report["input_doubts"], serde_json::json!([]));
    // Seeds of the operator's form that give another round: a mismatch, exit 1.
    let other = SERVER.replace('b', "c");
    let out = verify(&other, CLIENT, false);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("verdict: MISMATCH") && !text.contains("input        "), "{text}");
}
