//! `fairmines selftest`: the shared vectors, embedded at build time, through this build's core.

use fairmines::{
    MineCount, Nonces, commitment, draw_order, keccak_backend, mine_positions, mine_positions_batch, round_signature,
};
use serde::Deserialize;
use serde_json::json;

const VECTORS: &str = include_str!("../../../vectors/vectors.json");

#[derive(Deserialize)]
struct Vectors {
    js_sha3_version: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    server_seed: String,
    client_seed: String,
    nonce: u64,
    mines: u32,
    commitment: String,
    signature: String,
    draw_order: Vec<u8>,
    positions: Vec<u8>,
}

/// What differs in one case, or nothing.
fn check(case: &Case) -> Option<String> {
    let got_commitment = commitment(&case.server_seed).to_string();
    if got_commitment != case.commitment {
        return Some(format!("commitment {got_commitment}, expected {}", case.commitment));
    }
    let got_signature = round_signature(&case.server_seed, &case.client_seed, case.nonce).to_string();
    if got_signature != case.signature {
        return Some(format!("signature {got_signature}, expected {}", case.signature));
    }
    let order = draw_order(&case.server_seed, &case.client_seed, case.nonce, case.mines);
    let positions = mine_positions(&case.server_seed, &case.client_seed, case.nonce, case.mines);
    match (order, positions) {
        (Ok(order), Ok(positions)) if *order == *case.draw_order && *positions == *case.positions => None,
        (Ok(order), Ok(positions)) => Some(format!(
            "draw order {:?} positions {:?}, expected {:?} {:?}",
            &*order, &*positions, case.draw_order, case.positions
        )),
        (Err(e), _) | (_, Err(e)) => Some(e.to_string()),
    }
    .or_else(|| check_batch(case))
}

/// The case four times in one batch: the rounds run in step, on this machine's 4-lane permutation.
fn check_batch(case: &Case) -> Option<String> {
    let mines = match MineCount::new(case.mines) {
        Ok(mines) => mines,
        Err(e) => return Some(e.to_string()),
    };
    let mut out = vec![0u8; 4 * case.positions.len()];
    let nonces = [case.nonce; 4];
    if let Err(e) = mine_positions_batch(&case.server_seed, &case.client_seed, Nonces::List(&nonces), mines, &mut out) {
        return Some(e.to_string());
    }
    let row = case.positions.len();
    let wrong = out.chunks(row).position(|lane| lane != case.positions)?;
    Some(format!(
        "batch lane {wrong} ({}) positions {:?}, expected {:?}",
        keccak_backend(),
        &out[wrong * row..(wrong + 1) * row],
        case.positions
    ))
}

/// Runs every embedded case; exit status 0 when all pass, 1 otherwise.
pub fn run(json: bool) -> u8 {
    let vectors: Vectors = match serde_json::from_str(VECTORS) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: the embedded vectors do not parse: {e}");
            return 1;
        }
    };
    let failures: Vec<(String, String)> =
        vectors.cases.iter().filter_map(|c| check(c).map(|why| (c.id.clone(), why))).collect();
    let passed = vectors.cases.len() - failures.len();
    if json {
        let failed: Vec<_> = failures.iter().map(|(id, why)| json!({ "id": id, "error": why })).collect();
        let backend = keccak_backend();
        outln!(
            "{}",
            json!({ "passed": passed, "failed": failures.len(), "failures": failed, "batch_permutation": backend })
        );
    } else {
        for (id, why) in &failures {
            outln!("FAIL {id}: {why}");
        }
        outln!(
            "selftest: {passed} passed, {} failed (vectors from the reference verifier on js-sha3 {}; batches \
             checked on the {} permutation)",
            failures.len(),
            vectors.js_sha3_version,
            keccak_backend()
        );
    }
    u8::from(!failures.is_empty())
}
