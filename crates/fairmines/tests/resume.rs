//! Rounds that survive a restart: the pair's state holds every round in play, and a pair restored from
//! it gives each one back by its nonce, to go on exactly as if the process had never stopped.

use std::collections::BTreeMap;

use fairmines::{
    Error, ErrorKind, MineCount, Outcome, Ratio, Reveal, Round, RoundRecord, Rtp, SeedPair, ServerSeed, mine_positions,
    verify_round,
};
use proptest::prelude::*;

const CLIENT: &str = "player:seed é";

fn rtp_of(percent: u8) -> Rtp {
    Rtp::new(Ratio::new(u128::from(percent), 100).unwrap()).unwrap()
}

#[derive(Clone, Debug)]
enum Op {
    Start {
        mines: u8,
        rtp: u8,
    },
    /// A move on the `which`-th round in play (modulo their number, in nonce order).
    Safe {
        which: usize,
        k: usize,
    },
    Mine {
        which: usize,
        k: usize,
    },
    Tile {
        which: usize,
        tile: i64,
    },
    CashOut {
        which: usize,
    },
    /// Every safe tile still closed, one move at a time: the round ends paid.
    Clear {
        which: usize,
    },
    Void,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (1u8..=24, 1u8..=100).prop_map(|(mines, rtp)| Op::Start { mines, rtp }),
        6 => (any::<usize>(), any::<usize>()).prop_map(|(which, k)| Op::Safe { which, k }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(which, k)| Op::Mine { which, k }),
        1 => (any::<usize>(), -1i64..=27).prop_map(|(which, tile)| Op::Tile { which, tile }),
        2 => any::<usize>().prop_map(|which| Op::CashOut { which }),
        1 => any::<usize>().prop_map(|which| Op::Clear { which }),
        1 => Just(Op::Void),
    ]
}

/// What a call answered, comparable between the two tables.
#[derive(Debug, PartialEq)]
enum Answer {
    Started(u64),
    Revealed(Result<Reveal, Error>),
    Paid(Result<Ratio, Error>),
    Voided(Vec<u64>),
}

/// A seed pair with its rounds in play. `restart` makes it store its state after every move and come
/// back from it, resuming each round by its nonce, as a service that restarts between any two moves.
struct Table {
    pair: SeedPair,
    rounds: BTreeMap<u64, Round>,
    restart: bool,
    /// Every round's record as it finished, in order.
    records: Vec<RoundRecord>,
}

impl Table {
    fn new(seed: [u8; 32], restart: bool) -> Self {
        let pair = SeedPair::from_parts(ServerSeed::from_bytes(&seed), CLIENT, 0).unwrap();
        Table { pair, rounds: BTreeMap::new(), restart, records: Vec::new() }
    }

    fn nonce(&self, which: usize) -> Option<u64> {
        (!self.rounds.is_empty()).then(|| *self.rounds.keys().nth(which % self.rounds.len()).unwrap())
    }

    /// One move, then (for the restarting table) the pair written, dropped with its rounds, restored, and
    /// each round in play resumed; the round must be the same afterwards, and hide its grid.
    fn apply(&mut self, answer: Answer) -> Result<Answer, TestCaseError> {
        let finished: Vec<u64> = self.rounds.iter().filter(|(_, r)| r.is_finished()).map(|(&n, _)| n).collect();
        for nonce in finished {
            let round = self.rounds.remove(&nonce).unwrap();
            self.records.push(round.record().unwrap());
        }
        if self.restart {
            let before: Vec<(u64, Vec<u8>, Option<Ratio>)> =
                self.rounds.iter().map(|(&n, r)| (n, r.picks().to_vec(), r.multiplier())).collect();
            let state = self.pair.to_state_json();
            self.rounds.clear();
            self.pair = SeedPair::from_state_json(&state).unwrap();
            prop_assert_eq!(self.pair.to_state_json(), state);
            for nonce in self.pair.open_rounds() {
                let round = self.pair.round(nonce).unwrap();
                prop_assert!(round.mine_positions().is_none() && round.record().is_none());
                self.rounds.insert(nonce, round);
            }
            let after: Vec<(u64, Vec<u8>, Option<Ratio>)> =
                self.rounds.iter().map(|(&n, r)| (n, r.picks().to_vec(), r.multiplier())).collect();
            prop_assert_eq!(after, before);
        }
        Ok(answer)
    }

    fn grid(&self, nonce: u64) -> Vec<u8> {
        let state: serde_json::Value = serde_json::from_str(&self.pair.to_state_json()).unwrap();
        let round = &self.rounds[&nonce];
        mine_positions(state["server_seed"].as_str().unwrap(), CLIENT, nonce, round.mines().get().into())
            .unwrap()
            .to_vec()
    }

    fn closed_safe(&self, nonce: u64) -> Vec<u8> {
        let grid = self.grid(nonce);
        let picks = self.rounds[&nonce].picks();
        (1..=25).filter(|t| !grid.contains(t) && !picks.contains(t)).collect()
    }

    fn reveal(&mut self, nonce: u64, tile: i64) -> Result<Answer, TestCaseError> {
        let answer = self.rounds.get_mut(&nonce).unwrap().reveal(tile);
        self.apply(Answer::Revealed(answer))
    }

    fn run(&mut self, op: &Op) -> Result<Vec<Answer>, TestCaseError> {
        let mut answers = Vec::new();
        match *op {
            Op::Start { mines, rtp } => {
                let round = self.pair.start_round(MineCount::new(mines.into()).unwrap(), rtp_of(rtp)).unwrap();
                let nonce = round.nonce();
                self.rounds.insert(nonce, round);
                answers.push(self.apply(Answer::Started(nonce))?);
            }
            Op::Safe { which, k } => {
                if let Some(nonce) = self.nonce(which) {
                    let safe = self.closed_safe(nonce);
                    answers.push(self.reveal(nonce, i64::from(safe[k % safe.len()]))?);
                }
            }
            Op::Mine { which, k } => {
                if let Some(nonce) = self.nonce(which) {
                    let grid = self.grid(nonce);
                    answers.push(self.reveal(nonce, i64::from(grid[k % grid.len()]))?);
                }
            }
            Op::Tile { which, tile } => {
                if let Some(nonce) = self.nonce(which) {
                    answers.push(self.reveal(nonce, tile)?);
                }
            }
            Op::CashOut { which } => {
                if let Some(nonce) = self.nonce(which) {
                    let paid = self.rounds.get_mut(&nonce).unwrap().cash_out();
                    answers.push(self.apply(Answer::Paid(paid))?);
                }
            }
            Op::Clear { which } => {
                if let Some(nonce) = self.nonce(which) {
                    for tile in self.closed_safe(nonce) {
                        answers.push(self.reveal(nonce, i64::from(tile))?);
                    }
                }
            }
            Op::Void => {
                let voided = self.pair.void_open_rounds();
                answers.push(self.apply(Answer::Voided(voided))?);
            }
        }
        Ok(answers)
    }
}

/// The same moves on two tables, one restarting after every move: every answer, record and payout equal.
fn same_game(seed: [u8; 32], ops: &[Op]) -> Result<(), TestCaseError> {
    let mut steady = Table::new(seed, false);
    let mut restarting = Table::new(seed, true);
    for op in ops {
        let answers = steady.run(op)?;
        prop_assert_eq!(restarting.run(op)?, answers, "{:?}", op);
        prop_assert_eq!(restarting.pair.to_state_json(), steady.pair.to_state_json());
    }
    prop_assert_eq!(&restarting.records, &steady.records);
    let server = ServerSeed::from_bytes(&seed).reveal().to_owned();
    for record in &steady.records {
        let verdict = verify_round(record, &server).unwrap();
        prop_assert!(verdict.is_ok(), "{:?}: {:?}", record, verdict.differences);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_round_resumed_after_every_move_ends_as_if_never_interrupted(
        seed in any::<[u8; 32]>(),
        ops in proptest::collection::vec(op(), 1..60),
    ) {
        same_game(seed, &ops)?;
    }
}

/// Every mine count, each ending every way a round ends: a loss after a safe pick, a cash-out after two,
/// a full clear, and a void after a safe pick.
#[test]
fn every_mine_count_and_every_ending_resumes_exactly() {
    for mines in 1..=24 {
        let ops = [
            Op::Start { mines, rtp: 99 },
            Op::Safe { which: 0, k: 0 },
            Op::Mine { which: 0, k: 1 },
            Op::Start { mines, rtp: 97 },
            Op::Safe { which: 0, k: 3 },
            Op::Safe { which: 0, k: 5 },
            Op::CashOut { which: 0 },
            Op::Start { mines, rtp: 100 },
            Op::Clear { which: 0 },
            Op::Start { mines, rtp: 96 },
            Op::Safe { which: 0, k: 2 },
            Op::Void,
        ];
        let mut table = Table::new([mines; 32], true);
        for op in &ops {
            table.run(op).unwrap();
        }
        let outcomes: Vec<Outcome> = table.records.iter().map(|r| r.outcome).collect();
        let expected = if mines == 24 {
            // One safe tile: the first safe pick already clears the board.
            [Outcome::CashedOut, Outcome::CashedOut, Outcome::CashedOut, Outcome::CashedOut]
        } else {
            [Outcome::Lost, Outcome::CashedOut, Outcome::CashedOut, Outcome::Voided]
        };
        assert_eq!(outcomes, expected, "mines {mines}");
        same_game([mines; 32], &ops).unwrap();
    }
}

fn not_in_play(err: Error, says: &str) {
    assert_eq!(
        (err.kind(), err.code(), err.name(), err.argument()),
        (ErrorKind::RoundNotInPlay, 18, "ROUND_NOT_IN_PLAY", Some("nonce"))
    );
    assert!(err.to_string().starts_with("nonce: ") && err.to_string().contains(says), "{err}");
}

#[test]
fn only_a_round_in_play_is_handed_back_and_only_once_while_it_lives() {
    let seed = ServerSeed::from_bytes(&[5; 32]);
    let server = seed.reveal().to_owned();
    let mut pair = SeedPair::from_parts(seed, CLIENT, 0).unwrap();
    let mines = MineCount::new(3).unwrap();
    let grid = mine_positions(&server, CLIENT, 0, 3).unwrap();
    let safe: Vec<u8> = (1..=25).filter(|t| !grid.contains(t)).collect();
    let mut first = pair.start_round(mines, rtp_of(99)).unwrap();
    not_in_play(pair.round(0).unwrap_err(), "already handed out");
    not_in_play(pair.round(1).unwrap_err(), "never started");
    first.reveal(safe[0]).unwrap();
    assert!(pair.to_state_json().contains(&format!(r#""picks":[{}]"#, safe[0])), "the move is in the state at once");
    drop(first);
    // Dropped in play: the pair hands it back, with its pick.
    let mut again = pair.round(0).unwrap();
    assert_eq!(again.picks(), &safe[..1]);
    not_in_play(pair.round(0).unwrap_err(), "already handed out");
    again.cash_out().unwrap();
    not_in_play(pair.round(0).unwrap_err(), "has finished");
    let _open = pair.start_round(mines, rtp_of(99)).unwrap();
    pair.void_open_rounds();
    not_in_play(pair.round(1).unwrap_err(), "voided");
    not_in_play(pair.round(u64::MAX).unwrap_err(), "nonce 18446744073709551615");
}

#[test]
fn a_state_of_the_first_version_restores_its_rounds_as_void_only() {
    let seed = ServerSeed::from_bytes(&[6; 32]);
    let (server, commitment) = (seed.reveal().to_owned(), seed.commitment());
    let old = format!(
        r#"{{"server_seed":"{server}","commitment":"{commitment}","client_seed":"c","nonce":4,"open_rounds":[3,1]}}"#
    );
    let mut pair = SeedPair::from_state_json(&old).unwrap();
    assert_eq!(pair.open_rounds(), [1, 3]);
    not_in_play(pair.round(3).unwrap_err(), "it can only be voided");
    not_in_play(pair.round(2).unwrap_err(), "never started");
    assert_eq!(pair.rotate(None).unwrap_err(), Error::RoundsInPlay { nonces: vec![1, 3] });
    // Written again in the current version, they stay void-only.
    let state = pair.to_state_json();
    assert!(
        state.starts_with(r#"{"version":2,"#) && state.ends_with(r#""rounds":[{"nonce":1},{"nonce":3}]}"#),
        "{state}"
    );
    let mut pair = SeedPair::from_state_json(&state).unwrap();
    not_in_play(pair.round(1).unwrap_err(), "it can only be voided");
    let _new = pair.start_round(MineCount::new(2).unwrap(), rtp_of(99)).unwrap();
    assert_eq!(pair.void_open_rounds(), [1, 3, 4]);
    assert_eq!(pair.rotate(None).unwrap().server_seed, server);
    // An explicit version 1 reads the same; its rounds are checked as those of version 2 are.
    assert!(SeedPair::from_state_json(&old.replace(r#"{"server_seed""#, r#"{"version":1,"server_seed""#)).is_ok());
    for (bad, says) in [
        ("[3,4]", "open_rounds[1]: 4 is not below the pair's next nonce 4"),
        ("[3,3]", "open_rounds[1]: 3 is listed twice"),
    ] {
        let err = SeedPair::from_state_json(&old.replace("[3,1]", bad)).unwrap_err();
        assert_eq!(err.to_string(), format!("state: {says}"));
    }
}

#[test]
fn a_state_that_does_not_hold_together_is_refused_naming_the_field() {
    let seed = ServerSeed::from_bytes(&[8; 32]);
    let server = seed.reveal().to_owned();
    let grid = mine_positions(&server, CLIENT, 0, 3).unwrap();
    let safe: Vec<u8> = (1..=25).filter(|t| !grid.contains(t)).collect();
    let mut pair = SeedPair::from_parts(seed, CLIENT, 0).unwrap();
    let mut round = pair.start_round(MineCount::new(3).unwrap(), rtp_of(99)).unwrap();
    round.reveal(safe[0]).unwrap();
    round.reveal(safe[1]).unwrap();
    let state = pair.to_state_json();
    let saved = format!(r#"{{"nonce":0,"mines":3,"rtp":"99/100","picks":[{},{}]}}"#, safe[0], safe[1]);
    assert!(state.contains(&saved), "{state}");
    let with = |round: &str| state.replace(&saved, round);
    let all_safe: Vec<String> = safe.iter().map(u8::to_string).collect();
    let cases = [
        (with(&saved.replace(&format!(",{}]", safe[1]), &format!(",{}]", safe[0]))), "rounds[0].picks[1]: tile"),
        (
            with(&saved.replace(&format!("[{},", safe[0]), "[26,")),
            "rounds[0].picks[0]: tile 26 is not between 1 and 25",
        ),
        (with(&saved.replace(&format!("[{},", safe[0]), "[0,")), "rounds[0].picks[0]: tile 0 is not between 1 and 25"),
        (with(&saved.replace(&format!("[{},", safe[0]), &format!("[{},", grid[0]))), "is a mine"),
        (
            with(&format!(r#"{{"nonce":0,"mines":3,"rtp":"99/100","picks":[{}]}}"#, all_safe.join(","))),
            "rounds[0].picks: 22 picks",
        ),
        (with(&saved.replace(r#""mines":3"#, r#""mines":0"#)), "rounds[0].mines: must be a whole number from 1 to 24"),
        (with(&saved.replace(r#""mines":3"#, r#""mines":25"#)), "rounds[0].mines: must be a whole number from 1 to 24"),
        (with(&saved.replace("99/100", "3/2")), "rtp"),
        (with(&saved.replace("99/100", &format!("1/{}", u128::MAX))), "rounds[0].rtp: "),
        (with(r#"{"nonce":0,"mines":3,"picks":[]}"#), "rounds[0].mines: mines, rtp and picks are given together"),
        (
            with(&saved.replace(r#""nonce":0"#, r#""nonce":1"#)),
            "rounds[0].nonce: 1 is not below the pair's next nonce 1",
        ),
        (with(&format!("{saved},{saved}")), "rounds[1].nonce: 0 is listed twice"),
        (state.replace(r#""version":2"#, r#""version":3"#), "version: 3 is not a state version"),
        (state.replace(r#""version":2,"#, ""), "open_rounds: a state without a version"),
        (state.replace(r#","rounds""#, r#","open_rounds":[],"rounds""#), "rounds: a state of version 2"),
        (state.replace(r#""picks""#, r#""picked""#), "unknown field"),
    ];
    for (bad, says) in cases {
        let err = SeedPair::from_state_json(&bad).unwrap_err();
        assert_eq!((err.code(), err.argument()), (15, Some("state")), "{bad}");
        assert!(err.to_string().contains(says), "{bad}: {err}");
    }
    // The genuine state still restores, and the round goes on.
    let pair = SeedPair::from_state_json(&state).unwrap();
    assert_eq!(pair.round(0).unwrap().picks(), &safe[..2]);
}
