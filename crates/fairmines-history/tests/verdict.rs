//! The audit's graded verdict: essentially never "strong evidence" on genuine histories, always on a tile
//! that is never a mine, and "too few rounds" on a handful.

use fairmines::{MineCount, Nonces, mine_positions_batch};
use fairmines_history::{AuditCounts, MIN_ROUNDS, Options, VerdictLevel, audit_history, audit_json};

mod common;
use common::Draws;

/// `mines` different tiles drawn uniformly from `tiles` (a partial Fisher–Yates shuffle).
fn round(draws: &mut Draws, mut tiles: Vec<u8>, mines: u8) -> Vec<u8> {
    for i in 0..usize::from(mines) {
        let j = i + draws.below((tiles.len() - i) as u64) as usize;
        tiles.swap(i, j);
    }
    tiles.truncate(usize::from(mines));
    tiles
}

/// `rounds` fair rounds with `mines` mines over `tiles`, counted as history rows.
fn simulate(counts: &mut AuditCounts, draws: &mut Draws, mines: u8, rounds: u64, tiles: &[u8]) {
    for _ in 0..rounds {
        let round = round(draws, tiles.to_vec(), mines);
        counts.add_round(MineCount::new(mines.into()).unwrap(), &round, Some(round[0]));
    }
}

/// The rounds of one seed pair with `mines` mines, nonces `first..first + count`, counted as history rows
/// (each its own round), keeping only those `keep` accepts.
fn add_rounds(
    counts: &mut AuditCounts,
    server: &str,
    mines: u8,
    first: u64,
    count: usize,
    keep: impl Fn(&[u8]) -> bool,
) {
    let m = MineCount::new(mines.into()).unwrap();
    let mut out = vec![0u8; count * usize::from(mines)];
    mine_positions_batch(server, "verdict-client", Nonces::Range { start: first, count }, m, &mut out).unwrap();
    for round in out.chunks(usize::from(mines)) {
        if keep(round) {
            counts.add_round(m, round, None);
        }
    }
}

#[test]
fn genuine_histories_are_essentially_never_strong_evidence() {
    // 1,000 genuine histories of 5 mine counts × 100 rounds: Holm's overall p-value is below 1e-6 for
    // at most one in a million of them, below 0.01 for at most one in a hundred.
    let (mut strong, mut unusual, mut consistent) = (0, 0, 0);
    for k in 0..1_000 {
        let mut counts = AuditCounts::default();
        let mut draws = Draws(k);
        for mines in [1u8, 3, 5, 12, 24] {
            simulate(&mut counts, &mut draws, mines, 100, &(1..=25).collect::<Vec<_>>());
        }
        let verdict = counts.report().verdict;
        assert_eq!(verdict.rounds, 500);
        match verdict.level {
            VerdictLevel::StrongEvidence => strong += 1,
            VerdictLevel::Unusual => unusual += 1,
            VerdictLevel::Consistent => consistent += 1,
            VerdictLevel::TooFewRounds => panic!("{verdict:?}"),
        }
    }
    assert!(strong <= 1, "{strong} of 1,000 genuine histories judged strong evidence");
    assert!(unusual <= 25, "{unusual} of 1,000 genuine histories judged unusual");
    assert!(consistent >= 970, "{consistent}");
}

#[test]
fn a_tile_never_a_mine_in_100_000_rounds_is_always_strong_evidence() {
    for (k, mines) in [1u8, 5, 12].into_iter().enumerate() {
        // Fair draws over every tile but 13; the real placement, with the rounds that put a mine on tile 13
        // dropped, for 2,000 of them.
        let mut counts = AuditCounts::default();
        let others: Vec<u8> = (1..=25).filter(|&t| t != 13).collect();
        simulate(&mut counts, &mut Draws(1_000 + k as u64), mines, 98_000, &others);
        let mut first = 0;
        while counts.rounds[usize::from(mines - 1)] < 100_000 {
            let left = 100_000 - counts.rounds[usize::from(mines - 1)] as usize;
            add_rounds(&mut counts, &format!("biased-{k}"), mines, first, left, |round| !round.contains(&13));
            first += left as u64;
        }
        let report = counts.report();
        let verdict = &report.verdict;
        assert_eq!((verdict.level, verdict.rounds), (VerdictLevel::StrongEvidence, 100_000), "{verdict:?}");
        assert_eq!(verdict.words, "strong evidence of bias");
        let deviation = verdict.largest_deviation.unwrap();
        assert_eq!((deviation.tile, deviation.percent), (13, -100.0), "{deviation:?}");
        assert!(deviation.z < -50.0, "{deviation:?}");
        assert!(
            verdict.explanation.contains("tile 13 has 100.0% fewer mines than expected"),
            "{}",
            verdict.explanation
        );
        assert!(verdict.p_value.unwrap() < 1e-6);
    }
}

#[test]
fn a_handful_of_rounds_is_too_few_to_say_anything() {
    let text = std::fs::read_to_string("../../examples/history/history.jsonl").unwrap();
    let rows = text.lines().filter(|l| !l.trim().is_empty()).count() as u64;
    assert!(rows < MIN_ROUNDS);
    let report = audit_history(text.as_bytes(), &Options::default(), |_| {}).unwrap().report();
    assert_eq!(report.verdict.level, VerdictLevel::TooFewRounds);
    assert_eq!(report.verdict.words, "too few rounds to say anything");
    let json = audit_json(&report, "history.jsonl");
    assert_eq!(json["verdict"]["level"], "too_few_rounds");
    assert_eq!(json["verdict"]["rounds"], rows);
    assert_eq!(json["verdict"]["thresholds"]["unusual"], 0.01);
    assert_eq!(json["verdict"]["thresholds"]["strong_evidence"], 1e-6);
    assert_eq!(json["verdict"]["thresholds"]["min_rounds"], 125);
    // Four rounds of the same tiles: a deviation, but no verdict on it.
    let mut counts = AuditCounts::default();
    for _ in 0..4 {
        counts.add_round(MineCount::new(3).unwrap(), &[1, 2, 3], Some(1));
    }
    assert_eq!(counts.report().verdict.level, VerdictLevel::TooFewRounds);
    assert_eq!(AuditCounts::default().report().verdict.level, VerdictLevel::TooFewRounds);
}

#[test]
fn a_genuine_history_of_many_rounds_is_consistent_and_says_its_effect_size() {
    let mut counts = AuditCounts::default();
    add_rounds(&mut counts, "genuine-large", 5, 0, 5_000, |_| true);
    let verdict = counts.report().verdict;
    assert_eq!((verdict.level, verdict.words.as_str()), (VerdictLevel::Consistent, "consistent with fair draws"));
    let deviation = verdict.largest_deviation.unwrap();
    assert!(deviation.percent.abs() < 5.0 && deviation.z.abs() < 5.0, "{deviation:?}");
}
