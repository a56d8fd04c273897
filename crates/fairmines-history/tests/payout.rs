//! The payout audit: the realised return's interval holds the declared RTP about 95% of the time on a
//! genuine history, excludes it when the operator pays less, and hit rates meet their exact probabilities.

use fairmines::{MineCount, Outcome, Ratio, Rtp, Tiles};
use fairmines_history::{
    Format, Options, PayoutCounts, PayoutRound, Play, Row, Wager, audit_history, audit_json, verify_history,
};

mod common;
use common::Draws;

/// `rounds` simulated rounds: mines 1, 3 or 5, a player who stops after 1 to 5 safe picks, stakes of
/// 10,000 to 1,000,000 minor units; the round survives its picks with their exact probability and pays
/// `floor(stake × multiplier)` at `paid`, while every row declares `declared`.
fn simulate(counts: &mut PayoutCounts, seed: u64, rounds: u64, paid: &str, declared: &str) {
    let (paid, declared) = (Rtp::parse(paid).unwrap(), Rtp::parse(declared).unwrap());
    let mut draws = Draws(seed);
    // The multipliers and survival chances, once per (mines, picks).
    let table: Vec<Vec<(Ratio, Ratio, f64)>> = [1u32, 3, 5]
        .iter()
        .map(|&m| {
            (1..=5u8)
                .map(|k| {
                    let mines = MineCount::new(m).unwrap();
                    let survive: f64 =
                        (0..k).map(|i| f64::from(25 - m - u32::from(i)) / f64::from(25 - u32::from(i))).product();
                    (
                        fairmines::multiplier(mines, k, paid).unwrap(),
                        fairmines::multiplier(mines, k, declared).unwrap(),
                        survive,
                    )
                })
                .collect()
        })
        .collect();
    let picks = Tiles::declared([1i128], "picks").unwrap();
    for _ in 0..rounds {
        let (m, k) = (draws.below(3) as usize, draws.below(5) as usize);
        let (pays, shown, survive) = table[m][k];
        let stake = 10_000 + draws.below(990_001);
        let won = (draws.next() >> 11) as f64 / (1u64 << 53) as f64 <= survive;
        let payout = if won { (u128::from(stake) * pays.numer() / pays.denom()) as u64 } else { 0 };
        let play = Play {
            picks,
            outcome: if won { Outcome::CashedOut } else { Outcome::Lost },
            rtp: Some(declared),
            multiplier: won.then_some(shown),
            displayed_places: None,
        };
        let wager = Wager { stake: Some(stake), currency: Some("EUR".into()), payout: Some(payout), player: None };
        let mines = MineCount::new([1, 3, 5][m]).unwrap();
        counts.add(PayoutRound { mines, play: Some(&play), wager: Some(&wager), seed_pair: "pair" }, None);
    }
}

#[test]
fn a_genuine_history_at_rtp_099_lands_inside_its_interval_about_95_percent_of_the_time() {
    let inside = (0..200)
        .filter(|&seed| {
            let mut counts = PayoutCounts::default();
            simulate(&mut counts, seed, 2_000, "0.99", "0.99");
            let overall = counts.audit().unwrap().overall;
            assert_eq!((overall.rounds, overall.staked_rounds), (2_000, 2_000));
            assert_eq!(overall.declared_rtps, ["99/100"]);
            overall.declared_inside.unwrap()
        })
        .count();
    assert!((180..=198).contains(&inside), "{inside} of 200 intervals hold the declared 0.99");
}

#[test]
fn an_operator_paying_097_while_declaring_099_is_flagged_at_a_million_rounds() {
    let mut counts = PayoutCounts::default();
    // In four parts, merged as the pipeline merges its workers' counts.
    for part in 0..4 {
        let mut piece = PayoutCounts::default();
        simulate(&mut piece, 7 + part, 250_000, "0.97", "0.99");
        counts.merge(&piece);
    }
    let audit = counts.audit().unwrap();
    let overall = &audit.overall;
    assert_eq!(overall.rounds, 1_000_000);
    let (realised, high) = (overall.realised_return.unwrap(), overall.ci_high.unwrap());
    assert!((realised - 0.97).abs() < 0.01, "{overall:?}");
    assert!(high < 0.99 && overall.declared_inside == Some(false), "{overall:?}");
    assert_eq!(overall.declared_rtp, Some(0.99));
    assert_eq!(audit.by_currency[0].key, "EUR");
    assert_eq!(audit.by_currency[0].group.rounds, 1_000_000);
    assert_eq!(audit.by_mines.iter().map(|g| g.mines).collect::<Vec<_>>(), [1, 3, 5]);
    assert!(audit.by_mines.iter().all(|g| g.group.declared_inside == Some(false)), "{:?}", audit.by_mines);
    // The same operator at 0.99 is not flagged.
    let mut fair = PayoutCounts::default();
    simulate(&mut fair, 7, 1_000_000, "0.99", "0.99");
    assert_eq!(fair.audit().unwrap().overall.declared_inside, Some(true));
}

/// Genuine rows with a play and a wager: `picks` tiles in a fixed order, stopping at the first mine or after
/// `stop` safe ones, at RTP 99/100, a stake of 1,000 and what it pays.
fn played_rows(count: u64, mines: u32, stop: usize) -> Vec<Row> {
    let server = "payout-server";
    let commitment = fairmines::commitment(server);
    (0..count)
        .map(|nonce| {
            let m = MineCount::new(mines).unwrap();
            let grid = fairmines::placement(server, "payout-client", nonce, m);
            let order = [13u8, 7, 19, 1, 25, 5, 21, 12, 14, 3, 23, 8, 18, 2, 24, 10, 16, 4, 22, 6, 20, 9, 17, 11, 15];
            let mut picks = Vec::new();
            for &tile in &order {
                picks.push(tile);
                if grid.is_mine(tile) || picks.len() == stop {
                    break;
                }
            }
            let lost = picks.iter().any(|&t| grid.is_mine(t));
            let rtp = Rtp::parse("99/100").unwrap();
            let multiplier = (!lost).then(|| fairmines::multiplier(m, picks.len() as u8, rtp).unwrap());
            let payout = multiplier.map_or(0, |x| (1_000u128 * x.numer() / x.denom()) as u64);
            Row {
                server_seed: server.into(),
                commitment,
                client_seed: "payout-client".into(),
                nonce,
                mines: m,
                positions: grid.positions(),
                round_id: Some(format!("p{}", nonce + 1)),
                play: Some(Play {
                    picks: fairmines::input::tiles(picks, "picks").unwrap(),
                    outcome: if lost { Outcome::Lost } else { Outcome::CashedOut },
                    rtp: Some(rtp),
                    multiplier,
                    displayed_places: None,
                }),
                wager: Some(Wager {
                    stake: Some(1_000),
                    currency: Some("EUR".into()),
                    payout: Some(payout),
                    player: Some(["ann", "bob"][nonce as usize % 2].into()),
                }),
            }
        })
        .collect()
}

#[test]
fn hit_rates_meet_the_exact_probability_of_each_pick() {
    let rows = played_rows(3_000, 3, 22);
    let text: String = rows.iter().map(|r| r.to_json_line() + "\n").collect();
    let report = audit_history(text.as_bytes(), &Options::default(), |_| {}).unwrap().report();
    let payout = report.payout.as_ref().unwrap();
    // Every round reveals its first tile; pick k is made by the rounds whose k − 1 first picks were safe.
    assert_eq!(payout.hit_rates[0].reveals, 3_000);
    for pair in payout.hit_rates.windows(2) {
        assert_eq!(pair[1].reveals, pair[0].safe, "{pair:?}");
    }
    for h in &payout.hit_rates {
        let (num, den) = (25 - u32::from(h.mines) - u32::from(h.pick) + 1, 25 - u32::from(h.pick) + 1);
        let exact = Ratio::new(num.into(), den.into()).unwrap();
        assert_eq!((h.mines, h.expected_exact.as_str()), (3, exact.to_string().as_str()), "{h:?}");
        assert_eq!(h.expected, f64::from(num) / f64::from(den));
        assert_eq!(h.rate, h.safe as f64 / h.reveals as f64);
        assert!(h.z.abs() < 4.5, "{h:?}");
    }
    assert_eq!(payout.hit_rates[0].expected_exact, "22/25");
    assert_eq!(payout.hit_rates[1].expected_exact, "7/8"); // 21/24
    // The payouts: 1,000 a round, and what the rows paid, by player too.
    assert_eq!(payout.overall.stake_total, 3_000_000);
    let paid: u64 = rows.iter().map(|r| r.wager.as_ref().unwrap().payout.unwrap()).sum();
    assert_eq!(payout.overall.payout_total, u128::from(paid));
    assert_eq!(
        payout.by_player.iter().map(|g| (g.key.as_str(), g.group.rounds)).collect::<Vec<_>>(),
        [("ann", 1_500), ("bob", 1_500)]
    );
    assert_eq!(payout.by_seed_pair.len(), 1);
    // The JSON of `audit --json`.
    let json = audit_json(&report, "t");
    assert_eq!(json["payout"]["overall"]["stake_total"], 3_000_000);
    assert_eq!(json["payout"]["hit_rates"][0]["expected_exact"], "22/25");
    assert_eq!(json["payout"]["by_mines"][0]["mines"], 3);
    assert_eq!(json["payout"]["groups_omitted"], 0);
    // No play: no payout audit.
    let plain = audit_history(&b"{}\n"[..], &Options::default(), |_| {}).unwrap().report();
    assert!(plain.payout.is_none() && audit_json(&plain, "t")["payout"].is_null());
}

#[test]
fn the_payout_example_is_genuine_and_audited() {
    let rows = played_rows(12, 3, 4);
    let text: String = rows.iter().map(|r| r.to_json_line() + "\n").collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/payout.jsonl");
    if std::env::var_os("FAIRMINES_WRITE_EXAMPLES").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(std::fs::read_to_string(path).unwrap(), text, "run with FAIRMINES_WRITE_EXAMPLES=1 to rewrite it");
    let options = Options { format: Format::JsonLines, ..Options::default() };
    let report = verify_history(text.as_bytes(), &options, |_| {}).unwrap();
    assert!(report.is_ok(), "{:?}", report.failures);
    // A payout one unit short fails its row as play.
    let mut forged = rows.clone();
    let w = forged[0].wager.as_mut().unwrap();
    w.payout = Some(w.payout.unwrap() + 1);
    let forged: String = forged.iter().map(|r| r.to_json_line() + "\n").collect();
    let report = verify_history(forged.as_bytes(), &options, |_| {}).unwrap();
    assert_eq!((report.summary.play_mismatches, report.failures[0].field.as_deref()), (1, Some("payout")));
}

#[test]
fn totals_beyond_64_bits_still_make_json() {
    let mut counts = PayoutCounts::default();
    let play = Play {
        picks: Tiles::declared([1i128], "picks").unwrap(),
        outcome: Outcome::Lost,
        rtp: None,
        multiplier: None,
        displayed_places: None,
    };
    let big = fairmines_history::MAX_AMOUNT;
    let wager = Wager { stake: Some(big), currency: None, payout: Some(0), player: None };
    for _ in 0..4_096 {
        let round =
            PayoutRound { mines: MineCount::new(3).unwrap(), play: Some(&play), wager: Some(&wager), seed_pair: "p" };
        counts.add(round, None);
    }
    let audit = counts.audit().unwrap();
    assert_eq!(audit.overall.stake_total, u128::from(big) * 4_096);
    let json = serde_json::to_value(&audit).unwrap();
    assert_eq!(json["overall"]["stake_total"].as_f64(), Some(big as f64 * 4_096.0));
    assert_eq!(json["overall"]["realised_return"], 0.0);
}
