//! Round records and seed-pair state: `RoundRecord::from_json` and `SeedPair::from_state_json` on any
//! text, `verify_round` on any record (parsed, built field by field, or played through the game API),
//! each checked against an independent replay of the round.
#![no_main]

use arbitrary::Arbitrary;
use fairmines::{
    Digest, MineCount, Outcome, Ratio, Reveal, RoundRecord, Rtp, SeedPair, ServerSeed, verify_round,
};
use fairmines_fuzz::{reference, strict, text};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Input {
    /// Any text as a record, replayed against any server seed.
    Json { json: Vec<u8>, server: Vec<u8> },
    /// Any text as a seed pair's saved state.
    State(Vec<u8>),
    /// A record built field by field, mostly close to a genuine one.
    Built(Built),
    /// A round played through the game API, then its record, optionally tampered with.
    Played(Played),
    /// A seed pair's state built from parts, mostly close to a valid one, to reach the checks of its rounds.
    StateBuilt(StateBuilt),
    /// A round played twice: straight through, and with the pair saved, restored and the round resumed by
    /// its nonce between every two moves.
    Resumed(Played),
}

#[derive(Arbitrary, Debug)]
struct StateBuilt {
    server_seed: [u8; 32],
    client: Vec<u8>,
    nonce: u8,
    /// Version 1: the rounds' nonces only, as `open_rounds`.
    first_version: bool,
    rounds: Vec<BuiltRound>,
}

#[derive(Arbitrary, Debug)]
struct BuiltRound {
    nonce: u8,
    mines: u8,
    rtp: u8,
    picks: Vec<Pick>,
    /// 0: mines, rtp and picks given; 1: none of them (void-only); else one of them left out.
    fields: u8,
}

#[derive(Arbitrary, Debug)]
enum RtpIn {
    Common(u8),
    Any { num: u128, den: u128 },
}

impl RtpIn {
    fn rtp(&self) -> Rtp {
        const COMMON: [&str; 6] = ["1", "0.99", "97/100", "0.965", "1/3", "999999/1000000"];
        match self {
            RtpIn::Common(i) => Rtp::parse(COMMON[usize::from(*i) % COMMON.len()]).expect("valid"),
            RtpIn::Any { num, den } => Ratio::new(*num, *den)
                .and_then(|r| Rtp::new(r).ok())
                .unwrap_or_else(|| Rtp::parse("0.99").expect("valid")),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Pick {
    /// The n-th tile (mod 25) that is safe in the genuine grid.
    Safe(u8),
    /// The n-th mine of the genuine grid.
    Mine(u8),
    /// Any byte.
    Any(u8),
}

#[derive(Arbitrary, Debug)]
struct Built {
    server_seed: [u8; 32],
    genuine_commitment: bool,
    other_commitment: [u8; 32],
    client: Vec<u8>,
    nonce: u64,
    mines: u8,
    rtp: RtpIn,
    picks: Vec<Pick>,
    /// None: the outcome the picks give; else this one (0 lost, 1 cashed out, else voided).
    outcome: Option<u8>,
    /// None: the multiplier the picks give; else this one (None inside: no multiplier).
    multiplier: Option<Option<(u128, u128)>>,
}

#[derive(Arbitrary, Debug)]
enum Tamper {
    Nothing,
    Commitment(u8),
    ClientSeed(u8),
    Nonce(u64),
    Mines(u8),
    Picks(Vec<u8>),
    Outcome,
    Multiplier(Option<(u128, u128)>),
    Rtp(RtpIn),
}

#[derive(Arbitrary, Debug)]
struct Played {
    server_seed: [u8; 32],
    client: Vec<u8>,
    nonce: u64,
    mines: u8,
    rtp: RtpIn,
    tiles: Vec<i64>,
    cash_out: bool,
    tamper: Tamper,
}

fuzz_target!(|input: Input| match input {
    Input::Json { json, server } => {
        let json = text(&json);
        match RoundRecord::from_json(&json) {
            Ok(record) => {
                // The printed form parses back to the same record.
                assert_eq!(RoundRecord::from_json(&record.to_json()).as_ref(), Ok(&record));
                check(&record, &text(&server));
            }
            Err(err) => {
                assert_eq!(err.code(), 15, "{err}");
                assert_eq!(err.argument(), Some("record"));
            }
        }
    }
    Input::State(state) => state_json(&text(&state)),
    Input::Built(built) => check_built(built),
    Input::Played(played) => play(played),
    Input::StateBuilt(built) => state_built(built),
    Input::Resumed(played) => resumed(played),
});

/// A state from parts, checked against the rules a state must keep, which are written out here again.
fn state_built(b: StateBuilt) {
    let seed = ServerSeed::from_bytes(&b.server_seed);
    let server = seed.reveal().to_owned();
    let client = text(&b.client);
    const RTPS: [&str; 4] = ["99/100", "1", "97/100", "1/3"];
    let mut valid = true;
    let mut nonces = Vec::new();
    let mut rounds = Vec::new();
    for r in b.rounds.iter().take(6) {
        let nonce = u64::from(r.nonce % 8);
        valid &= nonce < u64::from(b.nonce) && !nonces.contains(&nonce);
        nonces.push(nonce);
        let mines = r.mines % 26;
        let grid = (1..=24).contains(&mines).then(|| reference::placement(&server, &client, nonce, usize::from(mines)));
        let picks = tiles(&r.picks[..r.picks.len().min(26)], grid.as_ref());
        let mut round = serde_json::json!({"nonce": nonce});
        if b.first_version {
            rounds.push(round["nonce"].clone());
            continue;
        }
        match r.fields % 5 {
            1 => {}
            fields => {
                let all = [
                    ("mines", serde_json::json!(mines)),
                    ("rtp", serde_json::json!(RTPS[usize::from(r.rtp) % RTPS.len()])),
                    ("picks", serde_json::json!(picks)),
                ];
                for (i, (name, value)) in all.into_iter().enumerate() {
                    if fields < 2 || usize::from(fields) - 2 != i {
                        round[name] = value;
                    }
                }
                valid &= fields == 0
                    && grid.as_ref().is_some_and(|g| {
                        picks.len() < 25 - usize::from(mines)
                            && picks.iter().enumerate().all(|(i, t)| {
                                (1..=25).contains(t) && !picks[..i].contains(t) && !g.positions.contains(t)
                            })
                    });
            }
        }
        rounds.push(round);
    }
    let mut state = serde_json::json!({
        "server_seed": server,
        "commitment": seed.commitment().to_string(),
        "client_seed": client,
        "nonce": b.nonce,
    });
    if b.first_version {
        state["open_rounds"] = serde_json::Value::Array(rounds);
    } else {
        state["version"] = serde_json::json!(2);
        state["rounds"] = serde_json::Value::Array(rounds);
    }
    let json = state.to_string();
    assert_eq!(SeedPair::from_state_json(&json).is_ok(), valid, "{json}");
    state_json(&json);
}

/// The same moves straight through and with a restart before every move: the same answers and record.
fn resumed(p: Played) {
    let Ok(mines) = MineCount::try_from(p.mines % 26) else { return };
    if p.nonce == u64::MAX {
        return;
    }
    let rtp = p.rtp.rtp();
    let seed = || ServerSeed::from_bytes(&p.server_seed);
    let client = text(&p.client);
    let mut pair = SeedPair::from_parts(seed(), &client, p.nonce).expect("a nonce below 2^64 - 1");
    let Ok(mut straight) = pair.start_round(mines, rtp) else { return };
    let mut state = SeedPair::from_parts(seed(), &client, p.nonce).expect("a nonce below 2^64 - 1");
    let first = state.start_round(mines, rtp).expect("the same start");
    drop(first);
    let mut state = state.to_state_json();
    let mut record = None;
    let moves = p.tiles.iter().take(30).map(Some).chain(p.cash_out.then_some(None));
    for tile in moves {
        let restored = SeedPair::from_state_json(&state).expect("own state parses");
        let Ok(mut round) = restored.round(p.nonce) else {
            // Finished on an earlier move: it has left the state, as it has left the straight pair.
            assert!(straight.is_finished() && pair.open_rounds().is_empty());
            break;
        };
        assert_eq!(round.picks(), straight.picks());
        match tile {
            Some(&tile) => assert_eq!(round.reveal(tile), straight.reveal(tile), "reveal({tile})"),
            None => assert_eq!(round.cash_out(), straight.cash_out(), "cash_out"),
        }
        state = restored.to_state_json();
        record = round.record();
    }
    assert_eq!(state, pair.to_state_json());
    if let Some(record) = record {
        assert_eq!(Some(record), straight.record());
    }
}

/// `SeedPair::from_state_json`: refused with INVALID_STATE, or a pair whose commitment is that of its
/// seed and whose state prints back to the same pair.
fn state_json(state: &str) {
    match SeedPair::from_state_json(state) {
        Ok(pair) => {
            let saved = pair.to_state_json();
            let value: serde_json::Value = serde_json::from_str(&saved).expect("state is JSON");
            let seed = value["server_seed"].as_str().expect("server_seed");
            assert!(seed.len() == 64 && seed.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')), "{seed:?}");
            assert_eq!(pair.public_part().commitment.to_string(), reference::commitment(seed));
            assert!(!format!("{pair:?}").contains(seed), "Debug shows the server seed");
            let again = SeedPair::from_state_json(&saved).expect("own state parses");
            assert_eq!(again.to_state_json(), saved);
            // Each round in play comes back once, with safe picks only, or is void-only (no mines saved).
            let client = value["client_seed"].as_str().expect("client_seed");
            for (nonce, saved_round) in pair.open_rounds().into_iter().zip(value["rounds"].as_array().expect("rounds")) {
                match pair.round(nonce) {
                    Ok(round) => {
                        let grid = reference::placement(seed, client, nonce, usize::from(round.mines().get()));
                        assert!(round.picks().iter().all(|t| !grid.positions.contains(t)), "a mine picked in play");
                        assert!(round.picks().len() < 25 - grid.positions.len() && !round.is_finished());
                        assert_eq!(pair.round(nonce).map(|_| ()).map_err(|e| e.code()), Err(18), "handed out twice");
                    }
                    Err(err) => {
                        assert_eq!(err.code(), 18, "{err}");
                        assert!(saved_round.get("mines").is_none(), "a whole round is not handed back: {err}");
                    }
                }
            }
        }
        Err(err) => {
            assert_eq!(err.code(), 15, "{err}");
            assert_eq!(err.argument(), Some("state"));
        }
    }
}

/// The tiles the picks stand for on the genuine grid (when the mine count has one).
fn tiles(picks: &[Pick], grid: Option<&reference::Placement>) -> Vec<u8> {
    picks
        .iter()
        .map(|p| match (p, grid) {
            (Pick::Safe(n), Some(g)) => {
                let safe: Vec<u8> = (1..=25).filter(|t| !g.positions.contains(t)).collect();
                safe[usize::from(*n) % safe.len()]
            }
            (Pick::Mine(n), Some(g)) => g.positions[usize::from(*n) % g.positions.len()],
            (Pick::Safe(n) | Pick::Mine(n) | Pick::Any(n), _) => *n,
        })
        .collect()
}

fn check_built(b: Built) {
    let server = ServerSeed::from_bytes(&b.server_seed);
    let server = server.reveal();
    let client = text(&b.client);
    let grid = (1..=24)
        .contains(&b.mines)
        .then(|| reference::placement(server, &client, b.nonce, usize::from(b.mines)));
    let picks = tiles(&b.picks[..b.picks.len().min(30)], grid.as_ref());
    let rtp = b.rtp.rtp();
    let (expected_outcome, expected_multiplier) = match &grid {
        Some(g) => {
            let replay = replay(&picks, &g.positions, b.mines, rtp, Outcome::CashedOut);
            (replay.outcome, replay.multiplier)
        }
        None => (Outcome::CashedOut, None),
    };
    let record = RoundRecord {
        commitment: if b.genuine_commitment {
            ServerSeed::from_bytes(&b.server_seed).commitment()
        } else {
            Digest::from_bytes(b.other_commitment)
        },
        client_seed: client.clone(),
        nonce: b.nonce,
        mines: b.mines,
        rtp,
        picks,
        outcome: match b.outcome {
            None => expected_outcome,
            Some(0) => Outcome::Lost,
            Some(1) => Outcome::CashedOut,
            Some(_) => Outcome::Voided,
        },
        multiplier: match b.multiplier {
            None => expected_multiplier,
            Some(m) => m.and_then(|(n, d)| Ratio::new(n, d)),
        },
    };
    assert_eq!(RoundRecord::from_json(&record.to_json()).as_ref(), Ok(&record));
    check(&record, server);
}

/// A round played through the game API: every reveal agrees with the reference grid, a refused call
/// changes nothing, and the finished round's record verifies (and a tampered one exactly when the
/// replay says it should).
fn play(p: Played) {
    let seed = ServerSeed::from_bytes(&p.server_seed);
    let server = seed.reveal().to_owned();
    let client = text(&p.client);
    let Ok(mines) = MineCount::try_from(p.mines % 26) else { return };
    let rtp = p.rtp.rtp();
    let Ok(mut pair) = SeedPair::from_parts(seed, &client, p.nonce) else {
        assert_eq!(p.nonce, u64::MAX, "only the nonce after the last round is refused");
        return;
    };
    let mut round = match pair.start_round(mines, rtp) {
        Ok(round) => round,
        Err(err) if err.code() == 12 => {
            // An RTP that makes some multiplier of the round too large to be exact is refused at the start.
            let f = rtp.factor();
            let safe = 25 - mines.get();
            assert!((1..=safe).any(|k| reference::multiplier(mines.get(), k, f.numer(), f.denom()).is_none()), "{err}");
            return;
        }
        Err(err) => {
            assert_eq!(p.nonce, u64::MAX, "{err}");
            assert_eq!(err.code(), 2);
            return;
        }
    };
    assert_eq!(pair.public_part().nonce, p.nonce + 1);
    let grid = reference::placement(&server, &client, p.nonce, usize::from(mines.get()));
    assert!(round.mine_positions().is_none(), "the grid is hidden while in play");
    for &tile in p.tiles.iter().take(30) {
        let before = (round.picks().to_vec(), round.is_finished(), round.safe_picks());
        match round.reveal(tile) {
            Ok(Reveal { safe: false, tile: t, finished, .. }) => {
                assert_eq!(i64::from(t), tile);
                assert!(grid.positions.contains(&t) && finished);
                assert_eq!(round.outcome(), Some(Outcome::Lost));
            }
            Ok(Reveal { safe_picks, multiplier, .. }) => {
                assert!((1..=25).contains(&tile) && !grid.positions.contains(&(tile as u8)));
                assert_eq!(safe_picks, round.safe_picks());
                let multiplier = multiplier.expect("a safe reveal has a multiplier");
                let f = rtp.factor();
                let expected = reference::multiplier(mines.get(), safe_picks, f.numer(), f.denom());
                assert_eq!(Some((multiplier.numer(), multiplier.denom())), expected);
            }
            Err(err) if err.code() == 13 && !strict() => {
                // Finding F2: with an RTP whose multipliers overflow 128 bits, reveal() records the pick,
                // then fails with INVALID_PICKS (the round changed on an error). Strict mode fails on it.
                return;
            }
            Err(err) => {
                let code = if before.1 {
                    10
                } else if !(1..=25).contains(&tile) {
                    3
                } else {
                    9
                };
                assert_eq!(err.code(), code, "reveal({tile}): {err}");
                let after = (round.picks().to_vec(), round.is_finished(), round.safe_picks());
                assert_eq!(before, after, "a refused reveal({tile}) changed the round");
            }
        }
    }
    if p.cash_out {
        let before = (round.picks().to_vec(), round.is_finished());
        match round.cash_out() {
            Ok(m) => {
                let f = rtp.factor();
                let expected = reference::multiplier(mines.get(), round.safe_picks(), f.numer(), f.denom());
                assert_eq!(Some((m.numer(), m.denom())), expected);
                assert_eq!(round.outcome(), Some(Outcome::CashedOut));
            }
            Err(err) if err.code() == 13 && !strict() => return, // Finding F2, as in reveal().
            Err(err) => {
                let code = if before.1 { 10 } else { 11 };
                assert_eq!(err.code(), code, "cash_out: {err}");
                assert_eq!(before, (round.picks().to_vec(), round.is_finished()), "a refused cash-out changed the round");
            }
        }
    }
    let Some(mut record) = round.record() else {
        assert!(!round.is_finished());
        return;
    };
    assert_eq!(round.mine_positions().as_deref(), Some(grid.positions.as_slice()));
    let genuine = verify_round(&record, &server).expect("a genuine record is a round");
    assert!(genuine.is_ok(), "a genuine record does not verify: {:?}", genuine.differences);
    match p.tamper {
        Tamper::Nothing => {}
        Tamper::Commitment(i) => {
            let mut bytes = *record.commitment.as_bytes();
            bytes[usize::from(i) % 32] ^= 1 << (i % 8);
            record.commitment = Digest::from_bytes(bytes);
        }
        Tamper::ClientSeed(c) => record.client_seed.push(char::from(c)),
        Tamper::Nonce(n) => record.nonce = n,
        Tamper::Mines(m) => record.mines = m,
        Tamper::Picks(picks) => record.picks = picks,
        Tamper::Outcome => {
            record.outcome = match record.outcome {
                Outcome::Lost => Outcome::CashedOut,
                Outcome::CashedOut => Outcome::Voided,
                Outcome::Voided => Outcome::Lost,
            }
        }
        Tamper::Multiplier(m) => record.multiplier = m.and_then(|(n, d)| Ratio::new(n, d)),
        Tamper::Rtp(r) => record.rtp = r.rtp(),
    }
    check(&record, &server);
}

/// What the picks give on a grid, as the record should say it.
struct Replay {
    /// The picks hold together: no repeat, nothing after a mine, a cash-out has a safe pick.
    consistent: bool,
    outcome: Outcome,
    /// As the core defines it: the multiplier of the safe picks before any mine (repeats counted), or
    /// None when lost or when that count is not a valid number of safe picks.
    multiplier: Option<Ratio>,
}

/// `claimed` decides only between a cash-out and a void, which the picks alone cannot tell apart.
fn replay(picks: &[u8], mines_at: &[u8], mines: u8, rtp: Rtp, claimed: Outcome) -> Replay {
    let mut consistent = true;
    let mut hit = None;
    for (i, tile) in picks.iter().enumerate() {
        if picks[..i].contains(tile) || hit.is_some() {
            consistent = false;
        }
        if hit.is_none() && mines_at.contains(tile) {
            hit = Some(i);
        }
    }
    let safe = hit.unwrap_or(picks.len());
    // A void is possible with no mine hit while a safe tile is still closed.
    let voided = claimed == Outcome::Voided && hit.is_none() && safe < 25 - usize::from(mines);
    if hit.is_none() && safe == 0 && !voided {
        consistent = false;
    }
    let f = rtp.factor();
    let multiplier = match hit {
        Some(_) => None,
        None if voided => None,
        None => u8::try_from(safe)
            .ok()
            .and_then(|k| reference::multiplier(mines, k, f.numer(), f.denom()))
            .and_then(|(n, d)| Ratio::new(n, d)),
    };
    let outcome = match hit {
        Some(_) => Outcome::Lost,
        None if voided => Outcome::Voided,
        None => Outcome::CashedOut,
    };
    Replay { consistent, outcome, multiplier }
}

/// `verify_round` against the independent replay.
fn check(record: &RoundRecord, server: &str) {
    let result = verify_round(record, server);
    if !(1..=24).contains(&record.mines) {
        let err = result.expect_err("mines outside 1..=24");
        assert_eq!(err.code(), 1, "{err}");
        return;
    }
    if record.picks.len() > 25 || record.picks.iter().any(|t| !(1..=25).contains(t)) {
        let err = result.expect_err("picks off the board");
        assert_eq!(err.code(), 3, "{err}");
        assert_eq!(err.argument(), Some("picks"));
        return;
    }
    let verdict = result.expect("a record that describes a round");
    let grid = reference::placement(server, &record.client_seed, record.nonce, usize::from(record.mines));
    let commitment_ok = record.commitment.to_string() == reference::commitment(server);
    let replay = replay(&record.picks, &grid.positions, record.mines, record.rtp, record.outcome);
    assert_eq!(verdict.commitment_ok, commitment_ok);
    assert_eq!(&*verdict.mine_positions, grid.positions.as_slice());
    assert_eq!(verdict.expected_outcome, replay.outcome);
    assert_eq!(verdict.expected_multiplier, replay.multiplier);
    let holds = commitment_ok && replay.consistent && record.outcome == replay.outcome && record.multiplier == replay.multiplier;
    // A cashed-out round must pay a multiplier: when it does not fit in 128 bits (an RTP whose denominator
    // is near 2^128) no round can pay it, and the record does not verify.
    let pays = replay.outcome != Outcome::CashedOut || replay.multiplier.is_some();
    let ok = holds && pays;
    assert_eq!(verdict.is_ok(), ok, "record {record:?}: differences {:?}", verdict.differences);
    assert_eq!(verdict.differences.is_empty(), verdict.is_ok());
}
