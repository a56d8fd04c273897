//! The statistics of an audit: chi-square tests against the uniform distribution, Holm's adjustment, and
//! each tile's deviation.

use fairmines::{MineCount, TILES};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};

pub(super) const N: usize = TILES as usize;
/// Degrees of freedom of a test over the 25 tiles.
pub(super) const DF: u32 = TILES as u32 - 1;

/// A chi-square goodness-of-fit test against the uniform distribution.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChiSquare {
    /// The statistic.
    pub statistic: f64,
    /// Its degrees of freedom.
    pub degrees_of_freedom: u32,
    /// The probability of a statistic at least this large if the tiles are uniform (statrs' `ChiSquared::sf`).
    pub p_value: f64,
}

impl ChiSquare {
    /// The test of a statistic with `df` degrees of freedom.
    pub fn new(statistic: f64, degrees_of_freedom: u32) -> ChiSquare {
        let p_value = ChiSquared::new(f64::from(degrees_of_freedom.max(1))).map_or(f64::NAN, |d| d.sf(statistic));
        ChiSquare { statistic, degrees_of_freedom, p_value }
    }
}

/// Pearson's statistic of `counts` against equal expected counts.
fn pearson(counts: &[u64; N]) -> Option<f64> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let expected = total as f64 / N as f64;
    Some(counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum())
}

/// The test of the tile counts of `rounds` rounds with `mines` mines each.
///
/// A round's mines are `mines` *different* tiles, so the counts are not multinomial: each tile count has
/// variance `n·p·(1−p)` with `p = mines/25`, and two tiles' counts covary by `−n·p·(1−p)/24`. Pearson's
/// statistic is therefore scaled by `24 / (25 − mines)`, which makes it chi-square with 24 degrees of
/// freedom for every mine count (for one mine the factor is 1: plain Pearson).
pub fn tile_chi_square(counts: &[u64; N], mines: MineCount) -> Option<ChiSquare> {
    let scale = f64::from(DF) / f64::from(TILES - mines.get());
    pearson(counts).map(|x| ChiSquare::new(x * scale, DF))
}

/// The test of a distribution of single draws over the 25 tiles (plain Pearson, 24 degrees of freedom).
pub fn draw_chi_square(counts: &[u64; N]) -> Option<ChiSquare> {
    pearson(counts).map(|x| ChiSquare::new(x, DF))
}

/// The counts for one mine count: per tile, how many rounds had a mine there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MineAudit {
    /// The mine count.
    pub mines: u8,
    /// Rounds with this mine count.
    pub rounds: u64,
    /// Index `i`: rounds with a mine on tile `i + 1`.
    pub tile_counts: [u64; N],
    /// The uniformity test of `tile_counts` ([`tile_chi_square`]).
    pub chi_square: Option<ChiSquare>,
    /// The mines each tile holds in `rounds` rounds if placement is uniform: `rounds × mines / 25`.
    pub expected: f64,
    /// Index `i`: how far tile `i + 1`'s count is from `expected`, in standard deviations
    /// (`(count − expected) / √(rounds · p · (1 − p))`, `p = mines / 25`).
    pub z_scores: [f64; N],
    /// The p-value of `chi_square` adjusted for testing every mine count of the report (Holm's step-down
    /// method, [`holm`]): the one to hold against a threshold when every mine count is looked at.
    pub holm_p_value: Option<f64>,
}

impl MineAudit {
    pub(super) fn new(mines: MineCount, rounds: u64, tile_counts: [u64; N]) -> MineAudit {
        let p = f64::from(mines.get()) / f64::from(TILES);
        let expected = rounds as f64 * p;
        let deviation = (rounds as f64 * p * (1.0 - p)).sqrt().max(f64::MIN_POSITIVE);
        MineAudit {
            mines: mines.get(),
            rounds,
            tile_counts,
            chi_square: tile_chi_square(&tile_counts, mines),
            expected,
            z_scores: tile_counts.map(|c| (c as f64 - expected) / deviation),
            holm_p_value: None,
        }
    }
}

/// Holm's step-down adjustment of `p_values` (one per test of a family), in their order: the `k`-th
/// smallest becomes `max` over `j ≤ k` of `min(1, (m − j + 1) · p₍ⱼ₎)`, `m` tests. Rejecting the tests
/// whose adjusted p-value is below `α` keeps the chance of any false rejection in the family at most `α`.
///
/// ```
/// assert_eq!(fairmines_history::holm(&[0.0625, 0.25, 0.125]), [0.1875, 0.25, 0.25]);
/// ```
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let m = p_values.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![0.0; m];
    let mut running = 0f64;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p_values[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// What an audit found, per mine count and over the first draw of every round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    /// Rows read (history audits) or rounds computed (seed-pair audits).
    pub rows_read: u64,
    /// Rows that could not be read (history audits; `verify-history` says why).
    pub malformed: u64,
    /// Rows whose declared positions are not `mines` different tiles, left out of the tile counts.
    pub skipped: u64,
    /// One entry per mine count that has rounds, in order.
    pub by_mines: Vec<MineAudit>,
    /// Index `i`: rounds whose first mine was drawn on tile `i + 1`. The first draw does not depend on the
    /// mine count (it is the first accepted word mod 25), so it is counted once per distinct round.
    pub first_draw_counts: [u64; N],
    /// The uniformity test of `first_draw_counts`.
    pub first_draw: Option<ChiSquare>,
    /// Every mine count's tiles uniform, in one test: the sum of their statistics, with 24 degrees of
    /// freedom each. A sum of chi-squares is chi-square only when the parts are independent, so this is
    /// computed only when every round counts under one mine count (a history: each row is its own round);
    /// `None` when the mine counts share their rounds ([`AuditReport::shared_rounds`]).
    pub combined: Option<ChiSquare>,
    /// The smallest of the mine counts' Holm-adjusted p-values ([`MineAudit::holm_p_value`]): one p-value for
    /// "some mine count is not uniform" that accounts for the number of mine counts tested (about one test in
    /// twenty is below 0.05 by chance alone). Valid whatever the dependence between the mine counts.
    pub holm_p_value: Option<f64>,
    /// The one p-value for "something is not uniform": the smallest Holm-adjusted p-value over every test of
    /// the report (each mine count and the first draw), so `min(1, k · smallest p)` for `k` tests. Valid
    /// whatever the dependence between the tests; `fairmines audit --fail-below` holds it against its
    /// threshold.
    pub overall_p_value: Option<f64>,
    /// Whether the mine counts were computed from the same rounds
    /// ([`AuditCounts::shared_rounds`](super::AuditCounts::shared_rounds)): then their tests are dependent
    /// (the same words place the mines of every count; the one-mine test *is* the first-draw test) and there
    /// is no `combined` test.
    pub shared_rounds: bool,
    /// Every p-value above with what it tests, in the order a report shows them: each mine count, `combined`
    /// (when computed), the first draw, `holm_p_value`, `overall_p_value`.
    pub p_values: Vec<PValue>,
    /// The conclusion: a level from `overall_p_value`, its words and the largest tile deviation
    /// ([`Verdict::of`](super::Verdict::of)).
    #[serde(default)]
    pub verdict: super::Verdict,
    /// The payout audit: returns against the declared RTP, and hit rates; `None` when no row has a play.
    #[serde(default)]
    pub payout: Option<super::PayoutAudit>,
}

/// One p-value of an [`AuditReport`] and what it tests: the words every report (text, JSON, Python) shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PValue {
    /// Which test: `"3 mines"`, `"combined"`, `"first draw"`, `"holm"` or `"overall"`.
    pub name: String,
    /// The p-value.
    pub p_value: f64,
    /// What a small value says is not uniform, and how the p-value is computed, in one sentence.
    pub what: String,
}

impl PValue {
    fn new(name: impl Into<String>, p_value: f64, what: impl Into<String>) -> PValue {
        PValue { name: name.into(), p_value, what: what.into() }
    }
}

/// The [`AuditReport::p_values`] of a report's tests.
pub(super) fn p_values(report: &AuditReport) -> Vec<PValue> {
    let mut all = Vec::new();
    for m in &report.by_mines {
        if let Some(t) = m.chi_square {
            let what =
                format!("tiles of the {}-mine rounds uniform (chi-square of the 25 tile counts, df 24)", m.mines);
            all.push(PValue::new(format!("{} mines", m.mines), t.p_value, what));
        }
    }
    let tested = all.len();
    if let Some(t) = report.combined {
        let what = format!(
            "tiles of every mine count uniform, in one test (sum of {tested} independent statistics, df {})",
            t.degrees_of_freedom
        );
        all.push(PValue::new("combined", t.p_value, what));
    }
    if let Some(t) = report.first_draw {
        all.push(PValue::new("first draw", t.p_value, "first mine of every round uniform (chi-square, df 24)"));
    }
    if let Some(p) = report.holm_p_value {
        let what =
            format!("every mine count uniform: smallest Holm-adjusted p of the {tested}, valid under any dependence");
        all.push(PValue::new("holm", p, what));
    }
    if let Some(p) = report.overall_p_value {
        let k = tested + usize::from(report.first_draw.is_some());
        let what = format!("everything uniform: smallest Holm-adjusted p of all {k} tests, valid under any dependence");
        all.push(PValue::new("overall", p, what));
    }
    all
}

/// Per tile: observed mines over expected mines, pooled over the mine counts, and the z-score of the
/// difference (`None` when there are no rounds).
pub fn tile_ratios(report: &AuditReport) -> Option<[(f64, f64); N]> {
    let mut observed = [0f64; N];
    let mut expected = 0f64;
    let mut variance = 0f64;
    for m in &report.by_mines {
        let p = f64::from(m.mines) / f64::from(TILES);
        let n = m.rounds as f64;
        expected += n * p;
        variance += n * p * (1.0 - p);
        for (o, &c) in observed.iter_mut().zip(&m.tile_counts) {
            *o += c as f64;
        }
    }
    (expected > 0.0).then(|| observed.map(|o| (o / expected, (o - expected) / variance.sqrt().max(f64::MIN_POSITIVE))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statistic_is_zero_on_a_perfectly_even_grid() {
        let even = [40; N];
        let t = tile_chi_square(&even, MineCount::new(5).unwrap()).unwrap();
        assert_eq!(t.statistic, 0.0);
        assert!((t.p_value - 1.0).abs() < 1e-12);
        assert!(draw_chi_square(&[0; N]).is_none());
    }

    #[test]
    fn p_values_come_from_the_chi_square_tail() {
        // The 95th percentile of chi-square with 24 degrees of freedom is 36.415.
        let t = ChiSquare::new(36.415, 24);
        assert!((t.p_value - 0.05).abs() < 1e-4, "{t:?}");
    }

    #[test]
    fn holm_adjusts_step_down_and_stays_monotone() {
        assert_eq!(holm(&[]), Vec::<f64>::new());
        assert_eq!(holm(&[0.2]), [0.2]);
        // Sorted 0.0625, 0.125, 0.5: 3 × 0.0625, max(0.1875, 2 × 0.125), max(0.25, 0.5); capped at 1.
        assert_eq!(holm(&[0.5, 0.0625, 0.125]), [0.5, 0.1875, 0.25]);
        assert_eq!(holm(&[0.6, 0.7]), [1.0, 1.0]);
    }
}
