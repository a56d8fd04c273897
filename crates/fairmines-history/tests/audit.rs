//! The audit's p-values: uniform on the genuine algorithm, tiny on a biased placement.

use fairmines::{MineCount, WordStream, round_signature};
use fairmines_history::{
    AuditCounts, Options, audit_history, audit_seed_pair, draw_chi_square, heatmap_svg, heatmap_text,
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
