//! `audit`: how often each tile holds a mine, tested against the uniform distribution. The counts and the
//! runs that gather them are here; the tests in `stats`, the pictures in `heatmap`.

use std::io::Read;
use std::ops::ControlFlow;

use fairmines::{MineCount, Nonces, TILES, mine_positions_batch};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::chunk::Chunk;
use crate::error::{HistoryError, from_json};
use crate::options::{Options, Proceed, Progress};
use crate::pipeline::{pipeline, thread_count};
use crate::reading::{Reading, read_chunks, value_chunks};

mod heatmap;
mod payout;
mod stats;
mod verdict;

pub use heatmap::{heatmap_svg, heatmap_text};
pub use payout::{
    Group, GroupSums, HitRate, MAX_GROUPS, MinesGroup, NamedGroup, PayoutAudit, PayoutCounts, PayoutRound,
};
pub use stats::{AuditReport, ChiSquare, MineAudit, PValue, draw_chi_square, holm, tile_chi_square, tile_ratios};
use stats::{DF, N, p_values};
pub use verdict::{Deviation, MIN_ROUNDS, STRONG_EVIDENCE_BELOW, Thresholds, UNUSUAL_BELOW, Verdict, VerdictLevel};

/// Counts being gathered; add them up with [`AuditCounts::merge`] and test with [`AuditCounts::report`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditCounts {
    /// Rows read.
    pub rows_read: u64,
    /// Rows that could not be read.
    pub malformed: u64,
    /// Rows left out of the tile counts.
    pub skipped: u64,
    /// Index `m − 1`: rounds with `m` mines.
    pub rounds: [u64; 24],
    /// Index `m − 1`, then tile index: rounds with `m` mines and a mine on that tile.
    pub tiles: [[u64; N]; 24],
    /// Rounds by the tile of their first draw.
    pub first_draw: [u64; N],
    /// Whether the mine counts share their rounds: a seed-pair audit computes every mine count from the same
    /// nonces, so the same words (set by [`audit_seed_pair_counts`]; [`AuditCounts::merge`] keeps it). In a
    /// history each row is a round of its own (its own seed pair and nonce), counted under one mine count.
    #[serde(default)]
    pub shared_rounds: bool,
    /// What the rounds with a play staked and paid, and their reveals ([`PayoutCounts`]).
    #[serde(default)]
    pub payout: PayoutCounts,
}

// The sums of the payout counts are finite floats: equal to themselves.
impl Eq for AuditCounts {}

impl Default for AuditCounts {
    fn default() -> Self {
        AuditCounts {
            rows_read: 0,
            malformed: 0,
            skipped: 0,
            rounds: [0; 24],
            tiles: [[0; N]; 24],
            first_draw: [0; N],
            shared_rounds: false,
            payout: PayoutCounts::default(),
        }
    }
}

impl AuditCounts {
    /// Counts one round: its positions (1-based) and, if known, the tile of its first draw (1-based).
    /// Positions that are not `mines` different tiles in 1..=25 are counted as skipped.
    pub fn add_round(&mut self, mines: MineCount, positions: &[u8], first_draw: Option<u8>) {
        self.rows_read += 1;
        if let Some(tile @ 1..=TILES) = first_draw {
            self.first_draw[usize::from(tile - 1)] += 1;
        }
        let mut seen = 0u32;
        let valid = positions.len() == usize::from(mines.get())
            && positions.iter().all(|&t| {
                (1..=TILES).contains(&t) && seen & (1 << t) == 0 && {
                    seen |= 1 << t;
                    true
                }
            });
        if !valid {
            self.skipped += 1;
            return;
        }
        let m = usize::from(mines.get() - 1);
        self.rounds[m] += 1;
        for &tile in positions {
            self.tiles[m][usize::from(tile - 1)] += 1;
        }
    }

    /// As JSON (every count; the tests are recomputed from them), for [`AuditCounts::from_json`].
    pub fn to_json(&self) -> String {
        // Plain data (numbers and arrays of them): serialising it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Parses [`AuditCounts::to_json`]'s form; [`fairmines::Error::InvalidState`] (argument `json`) when it
    /// does not.
    pub fn from_json(json: &str) -> Result<AuditCounts, fairmines::Error> {
        from_json(json)
    }

    /// Adds another part's counts.
    pub fn merge(&mut self, other: &AuditCounts) {
        self.rows_read += other.rows_read;
        self.malformed += other.malformed;
        self.skipped += other.skipped;
        for m in 0..24 {
            self.rounds[m] += other.rounds[m];
            for t in 0..N {
                self.tiles[m][t] += other.tiles[m][t];
            }
        }
        for t in 0..N {
            self.first_draw[t] += other.first_draw[t];
        }
        self.shared_rounds |= other.shared_rounds;
        self.payout.merge(&other.payout);
    }

    /// The counts of one mine count only (its rounds and tile counts; no first draws): for its heatmap.
    pub fn only(&self, mines: MineCount) -> AuditCounts {
        let m = usize::from(mines.get() - 1);
        let mut counts =
            AuditCounts { rows_read: self.rounds[m], shared_rounds: self.shared_rounds, ..AuditCounts::default() };
        counts.rounds[m] = self.rounds[m];
        counts.tiles[m] = self.tiles[m];
        counts
    }

    /// The tests over the counts.
    pub fn report(&self) -> AuditReport {
        let mut by_mines = Vec::new();
        for (m, &rounds) in self.rounds.iter().enumerate() {
            let Ok(mines) = MineCount::try_from(m + 1) else { continue };
            if rounds > 0 {
                by_mines.push(MineAudit::new(mines, rounds, self.tiles[m]));
            }
        }
        let tests: Vec<ChiSquare> = by_mines.iter().filter_map(|m| m.chi_square).collect();
        let adjusted = holm(&tests.iter().map(|t| t.p_value).collect::<Vec<_>>());
        for (mine, p) in by_mines.iter_mut().filter(|m| m.chi_square.is_some()).zip(&adjusted) {
            mine.holm_p_value = Some(*p);
        }
        // Independent parts only: the mine counts of a seed-pair audit share their words.
        let combined = (!tests.is_empty() && !self.shared_rounds)
            .then(|| ChiSquare::new(tests.iter().map(|t| t.statistic).sum(), DF * tests.len() as u32));
        let first_draw = draw_chi_square(&self.first_draw);
        let every: Vec<f64> = tests.iter().chain(&first_draw).map(|t| t.p_value).collect();
        let mut report = AuditReport {
            rows_read: self.rows_read,
            malformed: self.malformed,
            skipped: self.skipped,
            by_mines,
            first_draw_counts: self.first_draw,
            first_draw,
            combined,
            holm_p_value: adjusted.into_iter().reduce(f64::min),
            overall_p_value: holm(&every).into_iter().reduce(f64::min),
            shared_rounds: self.shared_rounds,
            p_values: Vec::new(),
            verdict: Verdict::default(),
            payout: self.payout.audit(),
        };
        report.p_values = p_values(&report);
        report.verdict = Verdict::of(&report);
        report
    }
}

/// Rounds per block of a seed-pair audit: the batch buffers stay under 24 × 2^16 bytes.
const BLOCK: usize = 1 << 16;

/// Audits the rounds of one seed pair with nonces `first..first + count`, for each of `mines`, with the
/// core's [`mine_positions_batch`] (every core). The first draws come from the one-mine batch: a round's
/// first mine is the same whatever its mine count. Every mine count is computed from the same nonces, so
/// their tests are dependent: the report has no `combined` test ([`AuditCounts::shared_rounds`]), and
/// `holm_p_value` / `overall_p_value` are the p-values that hold for all of them at once.
///
/// ```
/// use fairmines::MineCount;
/// let report = fairmines_history::audit_seed_pair("server", "client", 0, 5_000, &[MineCount::new(3)?])?;
/// assert_eq!(report.by_mines[0].rounds, 5_000);
/// assert_eq!(report.by_mines[0].tile_counts.iter().sum::<u64>(), 15_000);
/// assert!(report.by_mines[0].chi_square.unwrap().p_value > 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn audit_seed_pair(
    server_seed: &str,
    client_seed: &str,
    first: u64,
    count: u64,
    mines: &[MineCount],
) -> Result<AuditReport, HistoryError> {
    audit_seed_pair_counts(server_seed, client_seed, first, count, mines, |_| {}).map(|c| c.report())
}

/// [`audit_seed_pair`], returning the counts (to merge) and calling `on_progress` after every block of
/// 65,536 nonces; it may stop the run ([`HistoryError::Stopped`]). A range of nonces that passes 2^64 − 1
/// is [`HistoryError::Invalid`].
pub fn audit_seed_pair_counts<C: Proceed>(
    server_seed: &str,
    client_seed: &str,
    first: u64,
    count: u64,
    mines: &[MineCount],
    mut on_progress: impl FnMut(Progress) -> C,
) -> Result<AuditCounts, HistoryError> {
    fairmines::input::nonce_range(first, count)?;
    let mut mines: Vec<MineCount> = mines.to_vec();
    mines.sort();
    mines.dedup();
    let mut counts = AuditCounts { shared_rounds: true, ..AuditCounts::default() };
    let mut out = Vec::new();
    let mut done = 0u64;
    while done < count {
        let block = (count - done).min(BLOCK as u64) as usize;
        let nonces = Nonces::Range { start: first + done, count: block };
        out.resize(block, 0);
        mine_positions_batch(server_seed, client_seed, nonces, MineCount::new(1)?, &mut out)?;
        for &tile in &out {
            counts.first_draw[usize::from(tile - 1)] += 1;
        }
        for &m in &mines {
            let row = usize::from(m.get());
            out.resize(block * row, 0);
            mine_positions_batch(server_seed, client_seed, nonces, m, &mut out)?;
            let (rounds, tiles) = (&mut counts.rounds[row - 1], &mut counts.tiles[row - 1]);
            *rounds += block as u64;
            for &tile in &out {
                tiles[usize::from(tile - 1)] += 1;
            }
        }
        counts.rows_read += block as u64 * mines.len() as u64;
        done += block as u64;
        if on_progress(Progress { rows: done, bytes: 0 }).proceed().is_break() {
            return Err(HistoryError::Stopped);
        }
    }
    Ok(counts)
}

pub(crate) fn audit_chunk(chunk: Chunk) -> AuditCounts {
    let mut counts = AuditCounts::default();
    for raw in &chunk.rows {
        match raw.parse(&chunk) {
            Err(_) => {
                counts.rows_read += 1;
                counts.malformed += 1;
            }
            Ok(row) => {
                let placement = fairmines::placement(&row.server_seed, &row.client_seed, row.nonce, row.mines);
                let first = placement.draw_order().first().map(|&t| t + 1);
                counts.add_round(row.mines, &row.positions, first);
                if let Some(play) = row.play.as_deref() {
                    let seed_pair = format!("{}:{}", row.commitment, row.client_seed);
                    let round = PayoutRound {
                        mines: row.mines,
                        play: Some(play),
                        wager: row.wager.as_deref(),
                        seed_pair: &seed_pair,
                    };
                    counts.payout.add(round, Some(&placement));
                }
            }
        }
    }
    counts
}

/// Audits a history: the tile counts of the *declared* positions of every readable row (what was played),
/// and the first draws recomputed from the seeds. Streams on every core like
/// [`verify_history`](crate::verify_history); `on_progress` may stop the run ([`HistoryError::Stopped`]).
pub fn audit_history<R: Read + Send, C: Proceed>(
    input: R,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<AuditCounts, HistoryError> {
    let reading = Reading::new(options)?;
    audit_chunks(options, move |send| read_chunks(input, &reading, send), on_progress)
}

/// [`audit_history`] over rows given as JSON values (e.g. Python dicts), as
/// [`verify_values`](crate::verify_values) checks them. The errors are [`HistoryError::Stopped`] and
/// [`HistoryError::Argument`].
pub fn audit_values<I, C>(
    rows: I,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<AuditCounts, HistoryError>
where
    I: IntoIterator<Item = Value>,
    I::IntoIter: Send,
    C: Proceed,
{
    let (rows, reading) = (rows.into_iter(), Reading::new(options)?);
    audit_chunks(options, move |send| value_chunks(rows, &reading, send), on_progress)
}

pub(crate) fn audit_chunks<C: Proceed>(
    options: &Options,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    mut on_progress: impl FnMut(Progress) -> C,
) -> Result<AuditCounts, HistoryError> {
    let mut total = AuditCounts::default();
    pipeline(
        thread_count(options.threads),
        produce,
        || (),
        |(), chunk| {
            let bytes = chunk.bytes;
            (audit_chunk(chunk), bytes)
        },
        |(counts, bytes)| -> ControlFlow<()> {
            total.merge(&counts);
            on_progress(Progress { rows: total.rows_read, bytes }).proceed()
        },
    )?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_gives_each_mine_count_its_expectation_z_scores_and_holm_p_value() {
        let mut counts = AuditCounts::default();
        let (three, five) = (MineCount::new(3).unwrap(), MineCount::new(5).unwrap());
        for _ in 0..4 {
            counts.add_round(three, &[1, 2, 3], Some(1));
            counts.add_round(five, &[1, 2, 3, 4, 5], None);
        }
        let report = counts.report();
        let m = &report.by_mines[0];
        assert_eq!((m.mines, m.rounds, m.expected), (3, 4, 4.0 * 3.0 / 25.0));
        let sd = (4.0 * 0.12 * 0.88f64).sqrt();
        assert!((m.z_scores[0] - (4.0 - m.expected) / sd).abs() < 1e-12 && m.z_scores[24] < 0.0);
        let p: Vec<f64> = report.by_mines.iter().map(|m| m.chi_square.unwrap().p_value).collect();
        let adjusted: Vec<f64> = report.by_mines.iter().map(|m| m.holm_p_value.unwrap()).collect();
        assert_eq!(adjusted, holm(&p));
        assert_eq!(report.holm_p_value, adjusted.iter().copied().reduce(f64::min));
        let only = counts.only(five).report();
        assert_eq!((only.by_mines.len(), only.by_mines[0].mines, only.first_draw), (1, 5, None));
        assert!(heatmap_svg(&only, "t").contains("4 rounds with 5 mines: chi-square"));
        assert!(!heatmap_svg(&only, "t").contains("first draw"));
    }

    #[test]
    fn rows_that_are_not_a_board_are_skipped() {
        let mut counts = AuditCounts::default();
        let three = MineCount::new(3).unwrap();
        counts.add_round(three, &[7, 10, 19], Some(10));
        counts.add_round(three, &[7, 7, 19], None);
        counts.add_round(three, &[7, 19], None);
        assert_eq!((counts.rows_read, counts.skipped, counts.rounds[2]), (3, 2, 1));
        assert_eq!(counts.first_draw[9], 1);
    }
}
