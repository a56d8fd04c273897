//! The audit's one graded verdict: a level from the overall (Holm-adjusted) p-value, its words, and the
//! effect size (the largest tile deviation), owned here so that every front end says the same.

use serde::{Deserialize, Serialize};

use super::stats::{AuditReport, tile_ratios};

/// Below this overall p-value an audit is [`VerdictLevel::Unusual`]: fair draws give a result this uneven in
/// fewer than 1 history in 100.
pub const UNUSUAL_BELOW: f64 = 0.01;
/// Below this overall p-value an audit is [`VerdictLevel::StrongEvidence`]: fair draws give a result this
/// uneven in fewer than 1 history in a million.
pub const STRONG_EVIDENCE_BELOW: f64 = 1e-6;
/// Fewer rounds than this are [`VerdictLevel::TooFewRounds`]: with one mine, 125 rounds put 5 expected mines
/// on each tile, the least for which the chi-square approximation of the tile test holds.
pub const MIN_ROUNDS: u64 = 125;

/// How strongly an audit's counts speak against fair (uniform) draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictLevel {
    /// Fewer than [`MIN_ROUNDS`] rounds: nothing can be said either way.
    TooFewRounds,
    /// The overall p-value is at least [`UNUSUAL_BELOW`].
    Consistent,
    /// The overall p-value is below [`UNUSUAL_BELOW`], not below [`STRONG_EVIDENCE_BELOW`].
    Unusual,
    /// The overall p-value is below [`STRONG_EVIDENCE_BELOW`].
    StrongEvidence,
}

impl VerdictLevel {
    /// Its name in JSON: `too_few_rounds`, `consistent`, `unusual`, `strong_evidence`.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictLevel::TooFewRounds => "too_few_rounds",
            VerdictLevel::Consistent => "consistent",
            VerdictLevel::Unusual => "unusual",
            VerdictLevel::StrongEvidence => "strong_evidence",
        }
    }

    /// What it says, in a few words for a heading.
    pub fn words(self) -> &'static str {
        match self {
            VerdictLevel::TooFewRounds => "too few rounds to say anything",
            VerdictLevel::Consistent => "consistent with fair draws",
            VerdictLevel::Unusual => "unusual, look closer",
            VerdictLevel::StrongEvidence => "strong evidence of bias",
        }
    }
}

/// The tile furthest from its expected mine count, pooled over the mine counts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deviation {
    /// The tile (1 to 25).
    pub tile: u8,
    /// How far its mines are from the expected number, in percent of it (−100: never a mine).
    pub percent: f64,
    /// The same in standard deviations.
    pub z: f64,
}

/// The thresholds a [`Verdict`] was judged by.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thresholds {
    /// [`UNUSUAL_BELOW`].
    pub unusual: f64,
    /// [`STRONG_EVIDENCE_BELOW`].
    pub strong_evidence: f64,
    /// [`MIN_ROUNDS`].
    pub min_rounds: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { unusual: UNUSUAL_BELOW, strong_evidence: STRONG_EVIDENCE_BELOW, min_rounds: MIN_ROUNDS }
    }
}

/// The audit's verdict: what every front end shows as its conclusion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The level.
    pub level: VerdictLevel,
    /// The level in words ([`VerdictLevel::words`]).
    pub words: String,
    /// One or two sentences: why this level, with the numbers it rests on.
    pub explanation: String,
    /// The rounds tested (distinct rounds: a seed-pair audit's mine counts share theirs).
    pub rounds: u64,
    /// The overall p-value ([`AuditReport::overall_p_value`]) judged.
    pub p_value: Option<f64>,
    /// The effect size: the tile furthest from its expectation.
    pub largest_deviation: Option<Deviation>,
    /// The thresholds.
    pub thresholds: Thresholds,
}

impl Default for Verdict {
    /// The verdict on no rounds.
    fn default() -> Self {
        Verdict::judge(0, None, None, 0)
    }
}

/// The tile with the largest |z| of [`tile_ratios`].
fn largest_deviation(report: &AuditReport) -> Option<Deviation> {
    let ratios = tile_ratios(report)?;
    let (i, &(ratio, z)) = ratios.iter().enumerate().max_by(|a, b| a.1.1.abs().total_cmp(&b.1.1.abs()))?;
    Some(Deviation { tile: i as u8 + 1, percent: (ratio - 1.0) * 100.0, z })
}

impl Verdict {
    /// The verdict on a report.
    pub fn of(report: &AuditReport) -> Verdict {
        let counted = report.by_mines.iter().map(|m| m.rounds);
        let rounds = if report.shared_rounds { counted.max().unwrap_or(0) } else { counted.sum() };
        let tests = report.p_values.iter().filter(|p| p.name.ends_with(" mines") || p.name == "first draw").count();
        Verdict::judge(rounds, report.overall_p_value, largest_deviation(report), tests)
    }

    /// The verdict on `rounds` rounds whose `tests` tests give the overall `p_value`.
    fn judge(rounds: u64, p_value: Option<f64>, largest_deviation: Option<Deviation>, tests: usize) -> Verdict {
        let thresholds = Thresholds::default();
        let effect = largest_deviation.map_or(String::new(), |d| {
            let direction = if d.percent < 0.0 { "fewer" } else { "more" };
            format!(
                " The largest deviation: tile {} has {:.1}% {direction} mines than expected (z = {:.1}).",
                d.tile,
                d.percent.abs(),
                d.z
            )
        });
        let (level, explanation) = match p_value {
            _ if rounds < MIN_ROUNDS => (
                VerdictLevel::TooFewRounds,
                format!(
                    "{rounds} rounds: at least {MIN_ROUNDS} are needed before the tile counts can be tested (with \
                     one mine, 125 rounds put 5 expected mines on each tile); even a fair game can look uneven over \
                     so few rounds."
                ),
            ),
            Some(p) if p < STRONG_EVIDENCE_BELOW => (
                VerdictLevel::StrongEvidence,
                format!(
                    "Overall p = {p:.3e} over {rounds} rounds (Holm-adjusted over {tests} tests) is below \
                     {STRONG_EVIDENCE_BELOW:e}: fair draws give counts this uneven in fewer than 1 history in a \
                     million.{effect}"
                ),
            ),
            Some(p) if p < UNUSUAL_BELOW => (
                VerdictLevel::Unusual,
                format!(
                    "Overall p = {p:.2e} over {rounds} rounds (Holm-adjusted over {tests} tests) is below \
                     {UNUSUAL_BELOW}: fair draws give counts this uneven in fewer than 1 history in 100, so chance \
                     is still a plausible cause; audit more rounds before concluding.{effect}"
                ),
            ),
            p => (
                VerdictLevel::Consistent,
                format!(
                    "Overall p = {:.3} over {rounds} rounds (Holm-adjusted over {tests} tests) is not below \
                     {UNUSUAL_BELOW}: the mines fall as fair, uniform draws would.{effect}",
                    p.unwrap_or(1.0)
                ),
            ),
        };
        Verdict { level, words: level.words().to_owned(), explanation, rounds, p_value, largest_deviation, thresholds }
    }
}
