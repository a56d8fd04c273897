//! The game as a state machine: random sequences of operations, valid and invalid, against a model kept by
//! the test. Nothing panics, every refusal is the typed error the model expects, the grid fixed at the
//! start never changes, every finished round's record verifies, and a record with a field changed verifies
//! exactly when an independent replay says it still describes a genuine round.

use fairmines::{
    Digest, Error, MineCount, Outcome, Ratio, RoundRecord, Rtp, SeedPair, ServerSeed, commitment, mine_positions,
    multiplier, verify_round,
};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Op {
    Start {
        mines: i64,
        rtp: u8,
    },
    /// A move on the `which`-th live round (modulo their number).
    Reveal {
        which: usize,
        tile: i64,
    },
    CashOut {
        which: usize,
    },
    Rotate {
        client_seed: Option<String>,
    },
    Void,
    /// The operator's restart: the pair comes back from its saved state, and its rounds in play by nonce.
    SaveAndRestore,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (-2i64..=27, 1u8..=100).prop_map(|(mines, rtp)| Op::Start { mines, rtp }),
        6 => (any::<usize>(), prop_oneof![4 => 1i64..=25, 1 => any::<i64>(), 1 => -1i64..=27])
            .prop_map(|(which, tile)| Op::Reveal { which, tile }),
        1 => any::<usize>().prop_map(|which| Op::CashOut { which }),
        2 => proptest::option::of("[a-z:é]{0,12}").prop_map(|client_seed| Op::Rotate { client_seed }),
        1 => Just(Op::Void),
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
        // Voided while in play: no mine hit, and a safe tile still closed.
        None if record.outcome == Outcome::Voided && picks.len() < 25 - usize::from(record.mines) => {
            (Outcome::Voided, None)
        }
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
        if let (Some(t), false) = ((1..=25).find(|t| !r.picks.contains(t)), r.picks.is_empty()) {
            r.picks[0] = t
        }
    });
    push("outcome", &|r| r.outcome = if r.outcome == Outcome::Lost { Outcome::CashedOut } else { Outcome::Lost });
    push("outcome=voided", &|r| {
        r.outcome = if r.outcome == Outcome::Voided { Outcome::CashedOut } else { Outcome::Voided }
    });
    push("multiplier", &|r| {
        r.multiplier = match r.multiplier {
            Some(m) => m.checked_mul(Ratio::new(101, 100).unwrap()),
            None => Some(Ratio::new(2, 1).unwrap()),
        }
    });
    out
}

struct Played {
    round: fairmines::Round,
    grid: Vec<u8>,
    server_seed: String,
    picks: Vec<u8>,
    /// By the model: neither finished nor voided.
    open: bool,
    recorded: bool,
}

impl Played {
    /// The record once the round has ended, collected once; the grid is hidden while in play and is the
    /// one fixed at the start once over.
    fn check(&mut self, finished: &mut Vec<(RoundRecord, String)>) -> Result<(), TestCaseError> {
        prop_assert_eq!(self.round.is_finished(), !self.open);
        prop_assert_eq!(self.round.picks(), self.picks.as_slice());
        match self.round.mine_positions() {
            None => prop_assert!(self.open),
            Some(grid) => prop_assert_eq!(&*grid, self.grid.as_slice()),
        }
        match self.round.record() {
            None => prop_assert!(self.open),
            Some(record) if !self.recorded => {
                self.recorded = true;
                finished.push((record, self.server_seed.clone()));
            }
            Some(_) => {}
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random starts, moves, rotations, voids and restarts, with several rounds in play at once. Beside the
    /// game's rules: no move is ever accepted on a round whose server seed was revealed, a rotation
    /// succeeds exactly when no round of the pair is in play, and a restored pair knows which are.
    #[test]
    fn any_sequence_of_operations_keeps_the_game_honest(
        seed in any::<[u8; 32]>(),
        client in "[ -~]{0,20}",
        ops in proptest::collection::vec(op(), 1..80),
    ) {
        let mut pair = SeedPair::from_parts(ServerSeed::from_bytes(&seed), &client, 0).unwrap();
        let mut live: Vec<Played> = Vec::new();
        let mut revealed: Vec<String> = Vec::new();
        let mut finished = Vec::new();
        for op in ops {
            match op {
                Op::Start { mines, rtp } => {
                    let Ok(count) = MineCount::try_from(mines) else {
                        prop_assert!(!(1..=24).contains(&mines));
                        continue;
                    };
                    let nonce = pair.public_part().nonce;
                    let server_seed = server_seed_of(&pair);
                    prop_assert!(!revealed.contains(&server_seed), "a pair plays on a revealed seed");
                    let grid = mine_positions(&server_seed, &pair.public_part().client_seed, nonce, count.get().into())
                        .unwrap()
                        .to_vec();
                    let round = pair.start_round(count, rtp_of(rtp)).unwrap();
                    prop_assert_eq!(round.nonce(), nonce);
                    prop_assert_eq!(pair.public_part().nonce, nonce + 1);
                    live.push(Played { round, grid, server_seed, picks: Vec::new(), open: true, recorded: false });
                }
                Op::Reveal { which, tile } => {
                    let Some(n) = (!live.is_empty()).then(|| which % live.len()) else { continue };
                    let play = &mut live[n];
                    let voided = play.open && !pair_lists(&pair, play);
                    match play.round.reveal(tile) {
                        Err(Error::RoundVoided) => prop_assert!(voided || (!play.open && play.round.outcome() == Some(Outcome::Voided))),
                        Err(Error::RoundFinished) => prop_assert!(!play.open && play.round.outcome() != Some(Outcome::Voided)),
                        Err(Error::InvalidTile { argument: "tile", .. }) => {
                            prop_assert!(play.open && !voided && !(1..=25).contains(&tile))
                        }
                        Err(Error::TileAlreadyRevealed { tile: t }) => {
                            prop_assert!(play.open && !voided && play.picks.contains(&t) && i64::from(t) == tile)
                        }
                        Err(e) => prop_assert!(false, "unexpected error {e}"),
                        Ok(reveal) => {
                            prop_assert!(play.open && !voided);
                            prop_assert!(!revealed.contains(&play.server_seed), "a move on a revealed seed");
                            let t = tile as u8;
                            prop_assert!(!play.picks.contains(&t));
                            play.picks.push(t);
                            prop_assert_eq!(reveal.tile, t);
                            prop_assert_eq!(reveal.safe, !play.grid.contains(&t));
                            if reveal.safe {
                                prop_assert_eq!(usize::from(reveal.safe_picks), play.picks.len());
                                play.open = play.picks.len() + play.grid.len() < 25;
                            } else {
                                prop_assert_eq!(usize::from(reveal.safe_picks), play.picks.len() - 1);
                                play.open = false;
                            }
                            prop_assert_eq!(reveal.multiplier, play.round.multiplier());
                            prop_assert_eq!(reveal.finished, !play.open);
                        }
                    }
                    if voided {
                        play.open = false;
                    }
                }
                Op::CashOut { which } => {
                    let Some(n) = (!live.is_empty()).then(|| which % live.len()) else { continue };
                    let play = &mut live[n];
                    let voided = play.open && !pair_lists(&pair, play);
                    match play.round.cash_out() {
                        Err(Error::RoundVoided) => prop_assert!(voided || (!play.open && play.round.outcome() == Some(Outcome::Voided))),
                        Err(Error::RoundFinished) => prop_assert!(!play.open && play.round.outcome() != Some(Outcome::Voided)),
                        Err(Error::NothingToCashOut) => prop_assert!(play.open && !voided && play.picks.is_empty()),
                        Err(e) => prop_assert!(false, "unexpected error {e}"),
                        Ok(m) => {
                            prop_assert!(play.open && !voided);
                            prop_assert!(!revealed.contains(&play.server_seed), "a cash-out on a revealed seed");
                            let mines = play.round.mines();
                            prop_assert_eq!(m, multiplier(mines, play.picks.len() as u8, play.round.rtp()).unwrap());
                            play.open = false;
                        }
                    }
                    if voided {
                        play.open = false;
                    }
                }
                Op::Rotate { client_seed } => {
                    let before = pair.public_part();
                    let old_seed = server_seed_of(&pair);
                    let mut in_play: Vec<u64> =
                        live.iter().filter(|p| p.open && p.server_seed == old_seed).map(|p| p.round.nonce()).collect();
                    in_play.sort_unstable();
                    prop_assert_eq!(pair.open_rounds(), in_play.clone());
                    // A new client seed rotates too: half of those go through `set_client_seed`.
                    let rotated = match client_seed.as_deref() {
                        Some(new) if new.len() % 2 == 0 => pair.set_client_seed(new),
                        other => pair.rotate(other),
                    };
                    match rotated {
                        Err(Error::RoundsInPlay { nonces }) => {
                            prop_assert_eq!(nonces, in_play);
                            prop_assert_eq!(pair.public_part(), before);
                        }
                        Err(e) => prop_assert!(false, "unexpected error {e}"),
                        Ok(shown) => {
                            prop_assert!(in_play.is_empty(), "rotated with rounds in play: {:?}", in_play);
                            prop_assert_eq!(&shown.server_seed, &old_seed);
                            prop_assert_eq!(shown.commitment, before.commitment);
                            prop_assert_eq!(shown.rounds, before.nonce);
                            revealed.push(old_seed);
                            let after = pair.public_part();
                            prop_assert_eq!(after.nonce, 0);
                            prop_assert_ne!(after.commitment, before.commitment);
                            prop_assert_eq!(after.client_seed, client_seed.unwrap_or(before.client_seed));
                        }
                    }
                }
                Op::Void => {
                    let seed = server_seed_of(&pair);
                    let mut in_play: Vec<u64> =
                        live.iter().filter(|p| p.open && p.server_seed == seed).map(|p| p.round.nonce()).collect();
                    in_play.sort_unstable();
                    prop_assert_eq!(pair.void_open_rounds(), in_play);
                    prop_assert!(pair.open_rounds().is_empty());
                    for play in live.iter_mut().filter(|p| p.open && p.server_seed == seed) {
                        play.open = false;
                        prop_assert_eq!(play.round.outcome(), Some(Outcome::Voided));
                    }
                }
                Op::SaveAndRestore => {
                    let public = pair.public_part();
                    let open = pair.open_rounds();
                    pair = SeedPair::from_state_json(&pair.to_state_json()).unwrap();
                    prop_assert_eq!(pair.public_part(), public);
                    prop_assert_eq!(pair.open_rounds(), open.clone());
                    // The rounds in memory are gone with the restart; those in play come back by nonce, the
                    // same rounds (the model's picks and grid go on with them).
                    let seed = server_seed_of(&pair);
                    let mut resumed = Vec::new();
                    for mut play in live.drain(..) {
                        play.check(&mut finished)?;
                        if play.open && play.server_seed == seed {
                            resumed.push(play);
                        }
                    }
                    prop_assert_eq!(resumed.iter().map(|p| p.round.nonce()).collect::<Vec<_>>(), open);
                    for play in &mut resumed {
                        play.round = pair.round(play.round.nonce()).unwrap();
                    }
                    live = resumed;
                }
            }
            for play in &mut live {
                play.check(&mut finished)?;
            }
        }
        for (record, server_seed) in finished {
            prop_assert!(genuine(&record, &server_seed), "the model disagrees with a played round: {record:?}");
            prop_assert_eq!(RoundRecord::from_json(&record.to_json()), Ok(record.clone()));
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

/// Whether the pair still lists the round as in play (false once voided); only for rounds of its seed.
fn pair_lists(pair: &SeedPair, play: &Played) -> bool {
    server_seed_of(pair) != play.server_seed || pair.open_rounds().contains(&play.round.nonce())
}

/// The mutations are not vacuous: on one fixed round, most of them are caught.
#[test]
fn changed_records_are_caught() {
    let server = ServerSeed::from_bytes(&[9; 32]);
    let text = server.reveal().to_owned();
    let mut pair = SeedPair::from_parts(server, "client", 0).unwrap();
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
