//! The game as a state machine: random sequences of operations, valid and invalid, against a model kept by
//! the test. Nothing panics, every refusal is the typed error the model expects, the grid fixed at the
//! start never changes, every finished round's record verifies, and a record with a field changed verifies
//! exactly when an independent replay says it still describes a genuine round.

use fairmines::{
    Digest, Error, MineCount, Outcome, Ratio, Reveal, RoundRecord, Rtp, SeedPair, ServerSeed, commitment,
    mine_positions, multiplier, verify_round,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Start { mines: i64, rtp: u8 },
    Reveal { tile: i64 },
    CashOut,
    Rotate { client_seed: Option<String> },
    SaveAndRestore,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (-2i64..=27, 1u8..=100).prop_map(|(mines, rtp)| Op::Start { mines, rtp }),
        6 => prop_oneof![4 => 1i64..=25, 1 => any::<i64>(), 1 => -1i64..=27].prop_map(|tile| Op::Reveal { tile }),
        1 => Just(Op::CashOut),
        1 => proptest::option::of("[a-z:é]{0,12}").prop_map(|client_seed| Op::Rotate { client_seed }),
        1 => Just(Op::SaveAndRestore),
    ]
}

/// The server seed of the pair, read from the operator's state (the test is the operator here).
fn server_seed_of(pair: &SeedPair) -> String {
    let state: serde_json::Value = serde_json::from_str(&pair.to_state_json()).unwrap();
    state["server_seed"].as_str().unwrap().to_owned()
}

fn rtp_of(percent: u8) -> Rtp {
    Rtp::new(Ratio::new(u128::from(percent), 100).unwrap()).unwrap()
}

/// Independent replay: is `record` what `server_seed` and the record's own picks give?
fn genuine(record: &RoundRecord, server_seed: &str) -> bool {
    let Ok(grid) = mine_positions(server_seed, &record.client_seed, record.nonce, u32::from(record.mines)) else {
        return false;
    };
    let picks = &record.picks;
    let distinct = picks.iter().enumerate().all(|(i, t)| (1..=25).contains(t) && !picks[..i].contains(t));
    let first_mine = picks.iter().position(|t| grid.contains(t));
    let (outcome, paid) = match first_mine {
        Some(at) if at + 1 == picks.len() => (Outcome::Lost, None),
        Some(_) => return false, // picks after a mine
        None if picks.is_empty() => return false,
        None => {
            let mines = MineCount::new(u32::from(record.mines)).unwrap();
            (Outcome::CashedOut, multiplier(mines, picks.len() as u8, record.rtp).ok())
        }
    };
    distinct && commitment(server_seed) == record.commitment && record.outcome == outcome && record.multiplier == paid
}

/// Every single-field change of a record the test can make.
fn mutations(record: &RoundRecord) -> Vec<(&'static str, RoundRecord)> {
    let mut out = Vec::new();
    let mut push = |what, change: &dyn Fn(&mut RoundRecord)| {
        let mut changed = record.clone();
        change(&mut changed);
        out.push((what, changed));
    };
    push("commitment", &|r| {
        let mut bytes = *r.commitment.as_bytes();
        bytes[0] ^= 1;
        r.commitment = Digest::from_bytes(bytes);
    });
    push("client_seed", &|r| r.client_seed.push('x'));
    push("nonce", &|r| r.nonce = r.nonce.wrapping_add(1));
    push("mines", &|r| r.mines = if r.mines == 24 { 23 } else { r.mines + 1 });
    push("rtp", &|r| r.rtp = rtp_of(if r.rtp == rtp_of(50) { 51 } else { 50 }));
    push("picks+", &|r| {
        if let Some(t) = (1..=25).find(|t| !r.picks.contains(t)) {
            r.picks.push(t)
        }
    });
    push("picks-", &|r| {
        r.picks.pop();
    });
    push("picks[0]", &|r| {
        if let Some(t) = (1..=25).find(|t| !r.picks.contains(t)) {
            r.picks[0] = t
        }
    });
    push("outcome", &|r| r.outcome = if r.outcome == Outcome::Lost { Outcome::CashedOut } else { Outcome::Lost });
    push("multiplier", &|r| {
        r.multiplier = match r.multiplier {
            Some(m) => m.checked_mul(Ratio::new(101, 100).unwrap()),
            None => Some(Ratio::new(2, 1).unwrap()),
        }
    });
    out
}

struct InPlay {
    round: fairmines::Round,
    grid: Vec<u8>,
    server_seed: String,
    picks: Vec<u8>,
    recorded: bool,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_sequence_of_operations_keeps_the_game_honest(
        seed in any::<[u8; 32]>(),
        client in "[ -~]{0,20}",
        ops in proptest::collection::vec(op(), 1..60),
    ) {
        let mut pair = SeedPair::from_parts(ServerSeed::from_bytes(&seed), &client, 0);
        let mut current: Option<InPlay> = None;
        let mut finished = Vec::new();
        for op in ops {
            match op {
                Op::Start { mines, rtp } => {
                    let Ok(count) = MineCount::try_from(mines) else {
                        prop_assert!(!(1..=24).contains(&mines));
                        continue;
                    };
                    let nonce = pair.public().nonce;
                    let server_seed = server_seed_of(&pair);
                    let grid = mine_positions(&server_seed, &pair.public().client_seed, nonce, count.get().into())
                        .unwrap()
                        .to_vec();
                    let round = pair.start_round(count, rtp_of(rtp)).unwrap();
                    prop_assert_eq!(round.nonce(), nonce);
                    prop_assert_eq!(pair.public().nonce, nonce + 1);
                    // Starting anew abandons a round in play, as an operator's service may.
                    current = Some(InPlay { round, grid, server_seed, picks: Vec::new(), recorded: false });
                }
                Op::Reveal { tile } => {
                    let Some(play) = current.as_mut() else { continue };
                    let was_finished = play.round.is_finished();
                    match play.round.reveal(tile) {
                        Err(Error::RoundFinished) => prop_assert!(was_finished),
                        Err(Error::InvalidTile { argument: "tile", .. }) => {
                            prop_assert!(!was_finished && !(1..=25).contains(&tile))
                        }
                        Err(Error::TileAlreadyRevealed { tile: t }) => {
                            prop_assert!(!was_finished && play.picks.contains(&t) && i64::from(t) == tile)
                        }
                        Err(e) => prop_assert!(false, "unexpected error {e}"),
                        Ok(reveal) => {
                            prop_assert!(!was_finished);
                            let t = tile as u8;
                            prop_assert!(!play.picks.contains(&t));
                            play.picks.push(t);
                            match reveal {
                                Reveal::Mine => prop_assert!(play.grid.contains(&t)),
                                Reveal::Safe { safe_picks, multiplier: m } => {
                                    prop_assert!(!play.grid.contains(&t));
                                    prop_assert_eq!(usize::from(safe_picks), play.picks.len());
                                    prop_assert_eq!(Some(m), play.round.multiplier());
                                }
                            }
                        }
                    }
                }
                Op::CashOut => {
                    let Some(play) = current.as_mut() else { continue };
                    let was_finished = play.round.is_finished();
                    match play.round.cash_out() {
                        Err(Error::RoundFinished) => prop_assert!(was_finished),
                        Err(Error::NothingToCashOut) => prop_assert!(!was_finished && play.picks.is_empty()),
                        Err(e) => prop_assert!(false, "unexpected error {e}"),
                        Ok(m) => {
                            prop_assert!(!was_finished);
                            let mines = play.round.mines();
                            prop_assert_eq!(m, multiplier(mines, play.picks.len() as u8, play.round.rtp()).unwrap());
                        }
                    }
                }
                Op::Rotate { client_seed } => {
                    let before = pair.public();
                    let old_seed = server_seed_of(&pair);
                    let revealed = pair.rotate(client_seed.as_deref()).unwrap();
                    prop_assert_eq!(&revealed.server_seed, &old_seed);
                    prop_assert_eq!(revealed.commitment, before.commitment);
                    prop_assert_eq!(revealed.rounds, before.nonce);
                    let after = pair.public();
                    prop_assert_eq!(after.nonce, 0);
                    prop_assert_ne!(after.commitment, before.commitment);
                    prop_assert_eq!(after.client_seed, client_seed.unwrap_or(before.client_seed));
                }
                Op::SaveAndRestore => {
                    let public = pair.public();
                    pair = SeedPair::from_state_json(&pair.to_state_json()).unwrap();
                    prop_assert_eq!(pair.public(), public);
                }
            }
            // After every step: the grid is hidden while in play and is the one fixed at the start once over.
            if let Some(play) = current.as_mut() {
                match play.round.mine_positions() {
                    None => prop_assert!(!play.round.is_finished()),
                    Some(grid) => prop_assert_eq!(&*grid, play.grid.as_slice()),
                }
                prop_assert_eq!(play.round.picks(), play.picks.as_slice());
                match play.round.record() {
                    None => prop_assert!(!play.round.is_finished()),
                    Some(record) if !play.recorded => {
                        play.recorded = true;
                        finished.push((record, play.server_seed.clone()));
                    }
                    Some(_) => {}
                }
            }
        }
        for (record, server_seed) in finished {
            prop_assert!(genuine(&record, &server_seed), "the model disagrees with a played round: {record:?}");
            let verdict = verify_round(&record, &server_seed).unwrap();
            prop_assert!(verdict.is_ok(), "{:?}", verdict.differences);
            for (what, changed) in mutations(&record) {
                if changed == record {
                    continue;
                }
                let holds = verify_round(&changed, &server_seed).map(|v| v.is_ok()).unwrap_or(false);
                prop_assert_eq!(holds, genuine(&changed, &server_seed), "{} changed: {:?}", what, changed);
            }
        }
    }
}

/// The mutations are not vacuous: on one fixed round, most of them are caught.
#[test]
fn changed_records_are_caught() {
    let server = ServerSeed::from_bytes(&[9; 32]);
    let text = server.reveal().to_owned();
    let mut pair = SeedPair::from_parts(server, "client", 0);
    let mut round = pair.start_round(MineCount::new(5).unwrap(), rtp_of(99)).unwrap();
    let grid = mine_positions(&text, "client", 0, 5).unwrap();
    for tile in (1..=25).filter(|t| !grid.contains(t)).take(3) {
        round.reveal(i64::from(tile)).unwrap();
    }
    round.cash_out().unwrap();
    let record = round.record().unwrap();
    let caught: Vec<_> = mutations(&record)
        .into_iter()
        .filter(|(_, changed)| !verify_round(changed, &text).map(|v| v.is_ok()).unwrap_or(false))
        .map(|(what, _)| what)
        .collect();
    // Every change is caught here except, possibly, the nonce or client seed (a new grid may leave the
    // three picks safe: the record lists picks, not the grid).
    for must in ["commitment", "mines", "rtp", "picks+", "picks-", "outcome", "multiplier"] {
        assert!(caught.contains(&must), "{must} not caught: {caught:?}");
    }
}
