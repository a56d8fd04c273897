//! The audit's p-values: uniform on the genuine algorithm, tiny on a biased placement.

use fairmines::{MineCount, WordStream, round_signature};
use fairmines_history::{
    AuditCounts, ChiSquare, Options, audit_counts_from_json, audit_history, audit_json, audit_seed_pair,
    audit_seed_pair_counts, draw_chi_square, heatmap_svg, heatmap_text,
};

/// The Kolmogorov–Smirnov distance between the p-values and the uniform distribution on [0, 1].
fn ks_distance(mut p: Vec<f64>) -> f64 {
    p.sort_by(f64::total_cmp);
    let n = p.len() as f64;
    p.iter().enumerate().map(|(i, &x)| (x - i as f64 / n).abs().max(((i + 1) as f64 / n - x).abs())).fold(0.0, f64::max)
}

#[test]
fn p_values_on_the_genuine_algorithm_look_uniform() {
    // 4 mine counts × 50 independent seed pairs × 2,000 rounds, fixed seeds: deterministic.
    let mut tiles = Vec::new();
    let mut first_draws = Vec::new();
    for mines in [1, 3, 12, 24] {
        let m = MineCount::new(mines).unwrap();
        for k in 0..50 {
            let report =
                audit_seed_pair(&format!("audit-server-{mines}-{k}"), "audit-client", 1_000, 2_000, &[m]).unwrap();
            assert_eq!(report.by_mines[0].rounds, 2_000);
            assert_eq!(report.by_mines[0].tile_counts.iter().sum::<u64>(), 2_000 * u64::from(mines));
            tiles.push(report.by_mines[0].chi_square.unwrap().p_value);
            first_draws.push(report.first_draw.unwrap().p_value);
        }
    }
    for (what, p) in [("tiles", tiles), ("first draw", first_draws)] {
        let n = p.len() as f64;
        let small = p.iter().filter(|&&x| x < 0.05).count();
        // 1.63 / sqrt(n) is the 1 % critical value of the KS distance; 5 % of 200 is 10, 22 is far beyond.
        let d = ks_distance(p.clone());
        assert!(d < 1.63 / n.sqrt(), "{what}: KS distance {d}, p-values {p:?}");
        assert!(small <= 22, "{what}: {small} of {n} p-values below 0.05");
        assert!(p.iter().any(|&x| x > 0.9) && p.iter().any(|&x| x < 0.1), "{what}: {p:?}");
    }
}

/// A deliberately wrong placement: each word cut to its top `bits` bits and reduced mod P with no
/// rejection, so the first `2^bits mod P` of the free tiles are favoured by one part in `2^bits / P`.
fn biased_positions(signature: &fairmines::Digest, mines: u8, bits: u32) -> (Vec<u8>, u8) {
    let mut free: Vec<u8> = (0..25).collect();
    let mut words = WordStream::new(signature);
    let mut drawn = Vec::new();
    for _ in 0..mines {
        let word = words.next().unwrap_or_default() >> (32 - bits);
        drawn.push(free.remove(word as usize % free.len()));
    }
    let first = drawn[0] + 1;
    let mut positions: Vec<u8> = drawn.iter().map(|t| t + 1).collect();
    positions.sort_unstable();
    (positions, first)
}

fn biased_counts(mines: u8, bits: u32, rounds: u64) -> AuditCounts {
    let mut counts = AuditCounts::default();
    let m = MineCount::new(u32::from(mines)).unwrap();
    for nonce in 0..rounds {
        let (positions, first) = biased_positions(&round_signature("biased-server", "client", nonce), mines, bits);
        counts.add_round(m, &positions, Some(first));
    }
    counts
}

#[test]
fn a_biased_placement_is_detected_when_the_bias_is_large_enough() {
    // 8-bit words: 256 = 10 × 25 + 6, so 6 tiles get 11/256 of the first draws and 19 get 10/256 (10 % more).
    // Over 100,000 rounds the statistic's noncentrality is about 170: far past any chance deviation.
    for mines in [1, 5] {
        let report = biased_counts(mines, 8, 100_000).report();
        let tiles = report.by_mines[0].chi_square.unwrap();
        assert!(tiles.p_value < 1e-6, "{mines} mines: {tiles:?}");
        assert!(report.first_draw.unwrap().p_value < 1e-6);
        assert!(heatmap_text(&report).contains('█'), "{}", heatmap_text(&report));
    }
    // 16-bit words: 65,536 = 2,621 × 25 + 11, a bias of 1 in 2,621 that 20,000 rounds cannot show.
    let faint = biased_counts(3, 16, 20_000).report();
    assert!(faint.by_mines[0].chi_square.unwrap().p_value > 1e-3, "{faint:?}");
    // The same rounds placed by the core (32-bit words with rejection) for comparison.
    let mut genuine = AuditCounts::default();
    let three = MineCount::new(3).unwrap();
    for nonce in 0..20_000 {
        let placement = fairmines::placement("biased-server", "client", nonce, three);
        genuine.add_round(three, &placement.positions(), Some(placement.draw_order()[0] + 1));
    }
    assert!(genuine.report().by_mines[0].chi_square.unwrap().p_value > 1e-3);
}

#[test]
fn a_history_audit_counts_its_declared_positions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/");
    let counts =
        audit_history(std::fs::File::open(format!("{dir}history.csv")).unwrap(), &Options::default(), |_| {}).unwrap();
    assert_eq!(counts.rows_read, 60);
    assert_eq!(counts.malformed, 0);
    assert_eq!(counts.first_draw.iter().sum::<u64>(), 60);
    let report = counts.report();
    let mines: u64 = report.by_mines.iter().map(|m| u64::from(m.mines) * m.rounds).sum();
    assert_eq!(report.by_mines.iter().map(|m| m.tile_counts.iter().sum::<u64>()).sum::<u64>(), mines);
    let tampered =
        audit_history(std::fs::File::open(format!("{dir}tampered.jsonl")).unwrap(), &Options::default(), |_| {})
            .unwrap();
    assert_eq!((tampered.rows_read, tampered.malformed), (30, 6));
    let svg = heatmap_svg(&report, "a <title> & more");
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect").count(), 26, "a background and 25 tiles");
    assert!(svg.contains("a &lt;title&gt; &amp; more"));
    assert!(draw_chi_square(&counts.first_draw).is_some());
}

/// Runs of `test` below 0.05 over `runs` genuine seed pairs (fixed seeds: deterministic), each audited over
/// `nonces` nonces for every one of `mines`: (the old sum of the mine counts' statistics, the report's
/// `holm_p_value`, its `overall_p_value`).
fn false_positives(tag: &str, runs: usize, nonces: u64, mines: &[u32]) -> (usize, usize, usize) {
    let mines: Vec<MineCount> = mines.iter().map(|&m| MineCount::new(m).unwrap()).collect();
    let (mut old, mut holm, mut overall) = (0, 0, 0);
    for k in 0..runs {
        let report = audit_seed_pair(&format!("fpr-{tag}-server-{k}"), "fpr-client", 0, nonces, &mines).unwrap();
        assert!(report.shared_rounds && report.combined.is_none());
        // What `combined` was before: the statistics added up as if the mine counts were independent.
        let tests: Vec<_> = report.by_mines.iter().map(|m| m.chi_square.unwrap()).collect();
        let summed = ChiSquare::new(tests.iter().map(|t| t.statistic).sum(), 24 * tests.len() as u32);
        old += usize::from(summed.p_value < 0.05);
        holm += usize::from(report.holm_p_value.unwrap() < 0.05);
        overall += usize::from(report.overall_p_value.unwrap() < 0.05);
    }
    (old, holm, overall)
}

/// The most runs out of `runs` below 0.05 that a rate of at most 5 % gives, with three standard deviations of
/// binomial noise (a 0.13 % chance of more).
fn at_most_five_percent(runs: usize) -> usize {
    let n = runs as f64;
    (n * 0.05 + 3.0 * (n * 0.05 * 0.95).sqrt()).floor() as usize
}

#[test]
#[cfg_attr(miri, ignore = "millions of rounds")]
fn a_seed_pair_audits_joint_p_values_hold_their_level_where_the_old_sum_did_not() {
    for (tag, runs, nonces, mines) in
        [("1-3-24", 6_000, 500, vec![1, 3, 24]), ("1-24", 400, 200, (1..=24).collect::<Vec<u32>>())]
    {
        let (old, holm, overall) = false_positives(tag, runs, nonces, &mines);
        let rate = |k: usize| k as f64 / runs as f64 * 100.0;
        println!(
            "mines {tag}, {runs} genuine seed pairs x {nonces} nonces: p < 0.05 in {:.1} % of runs with the old \
             sum of chi-squares, {:.1} % with holm_p_value, {:.1} % with overall_p_value",
            rate(old),
            rate(holm),
            rate(overall)
        );
        let bound = at_most_five_percent(runs);
        assert!(holm <= bound && overall <= bound, "{tag}: {holm} and {overall} of {runs} runs, at most {bound}");
        // The old sum treated dependent statistics as independent: its rate is beyond what 5 % gives.
        assert!(old > bound, "{tag}: the old sum was below 0.05 in {old} of {runs} runs, at most {bound} expected");
    }
}

#[test]
#[cfg_attr(miri, ignore = "millions of rounds")]
fn a_history_audits_combined_test_holds_its_level() {
    // A history: each mine count played on rounds of its own (here: its own nonces), counted under one mine
    // count only, so the parts of `combined` are independent and it is computed.
    let runs = 1_000;
    let mut small = 0;
    for k in 0..runs {
        let mut counts = AuditCounts::default();
        for (i, mines) in [1u32, 3, 24].into_iter().enumerate() {
            let m = MineCount::new(mines).unwrap();
            let first = 1_000 * i as u64;
            for nonce in first..first + 500 {
                let placement = fairmines::placement(&format!("history-server-{k}"), "client", nonce, m);
                counts.add_round(m, &placement.positions(), Some(placement.draw_order()[0] + 1));
            }
        }
        let report = counts.report();
        assert!(!report.shared_rounds && report.combined.unwrap().degrees_of_freedom == 72);
        small += usize::from(report.combined.unwrap().p_value < 0.05);
    }
    println!("history, mines 1,3,24 on rounds of their own: combined p < 0.05 in {small} of {runs} runs");
    assert!(small <= at_most_five_percent(runs), "{small} of {runs}");
}

#[test]
fn the_shared_rounds_mark_survives_merges_and_json() {
    let three = [MineCount::new(3).unwrap(), MineCount::new(5).unwrap()];
    let pair = audit_seed_pair_counts("s", "c", 0, 1_000, &three, |_| {}).unwrap();
    assert!(pair.shared_rounds);
    let mut history = AuditCounts::default();
    history.add_round(three[0], &[1, 2, 3], Some(1));
    assert!(!history.shared_rounds && history.report().combined.is_some());
    let mut merged = history.clone();
    merged.merge(&pair);
    assert!(merged.shared_rounds && merged.report().combined.is_none());
    assert_eq!(AuditCounts::from_json(&pair.to_json()).unwrap(), pair);
    let json = audit_json(&pair.report(), "pair");
    assert_eq!(json["shared_rounds"], true);
    assert_eq!(audit_counts_from_json(&json).unwrap().report(), pair.report());
    // Counts written before the mark existed read as a history's.
    let old = pair.to_json().replace(",\"shared_rounds\":true", "");
    assert!(!AuditCounts::from_json(&old).unwrap().shared_rounds);
    // The p-values in the order the reports show them, each saying what it tests.
    let report = pair.report();
    let names: Vec<&str> = report.p_values.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["3 mines", "5 mines", "first draw", "holm", "overall"]);
    assert_eq!(report.p_values[3].p_value, report.holm_p_value.unwrap());
    assert_eq!(report.p_values[4].p_value, report.overall_p_value.unwrap());
    assert!(report.p_values.iter().all(|p| !p.what.is_empty()));
}
