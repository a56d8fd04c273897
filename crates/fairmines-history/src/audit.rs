//! `audit`: how often each tile holds a mine, tested against the uniform distribution.

use std::io::Read;
use std::ops::ControlFlow;

use fairmines::{MineCount, Nonces, TILES, mine_positions_batch};
use serde::{Deserialize, Serialize};
use statrs::distribution::{ChiSquared, ContinuousCDF};

use serde_json::Value;

use crate::chunk::Chunk;
use crate::error::{HistoryError, from_json};
use crate::options::{Options, Proceed, Progress};
use crate::pipeline::{pipeline, thread_count};
use crate::reading::{Reading, read_chunks, value_chunks};

const N: usize = TILES as usize;
/// Degrees of freedom of a test over the 25 tiles.
const DF: u32 = TILES as u32 - 1;

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
    fn new(mines: MineCount, rounds: u64, tile_counts: [u64; N]) -> MineAudit {
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
    /// Whether the mine counts were computed from the same rounds ([`AuditCounts::shared_rounds`]): then
    /// their tests are dependent (the same words place the mines of every count; the one-mine test *is* the
    /// first-draw test) and there is no `combined` test.
    pub shared_rounds: bool,
    /// Every p-value above with what it tests, in the order a report shows them: each mine count, `combined`
    /// (when computed), the first draw, `holm_p_value`, `overall_p_value`.
    pub p_values: Vec<PValue>,
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
fn p_values(report: &AuditReport) -> Vec<PValue> {
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

/// Counts being gathered; add them up with [`AuditCounts::merge`] and test with [`AuditCounts::report`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
}

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
        };
        report.p_values = p_values(&report);
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

fn describe(test: Option<ChiSquare>) -> String {
    test.map_or_else(
        || "no rounds".to_owned(),
        |t| format!("chi-square {:.2} (df {}), p = {:.4}", t.statistic, t.degrees_of_freedom, t.p_value),
    )
}

/// The 5 × 5 grid as text: each tile's mine frequency against the expected one, in percent
/// (`+1.2` = 1.2 % more often than uniform), with a shade for the z-score (` ` |z| < 1, `░` < 2, `▒` < 3,
/// `▓` < 4, `█` ≥ 4).
pub fn heatmap_text(report: &AuditReport) -> String {
    let Some(ratios) = tile_ratios(report) else { return "no rounds to show\n".to_owned() };
    let mut out = String::from("mine frequency per tile, % above (+) or below (-) uniform; shade = |z|\n");
    for row in 0..5 {
        out.push_str("  ");
        for col in 0..5 {
            let (ratio, z) = ratios[row * 5 + col];
            let shade = match z.abs() {
                z if z < 1.0 => ' ',
                z if z < 2.0 => '░',
                z if z < 3.0 => '▒',
                z if z < 4.0 => '▓',
                _ => '█',
            };
            out.push_str(&format!(" {shade}{:>+6.2}{shade}", (ratio - 1.0) * 100.0));
        }
        out.push_str(&format!("   tiles {:>2}-{}\n", row * 5 + 1, row * 5 + 5));
    }
    out
}

/// The heatmap as a standalone SVG document: one square per tile, red above uniform and blue below,
/// full colour at |z| = 4, labelled with the tile number and its deviation in percent.
pub fn heatmap_svg(report: &AuditReport, title: &str) -> String {
    const CELL: usize = 96;
    const TOP: usize = 72;
    // Wide enough for the title at about 9 px per character.
    let width = (CELL * 5 + 40).max(40 + title.chars().count() * 9);
    let height = TOP + CELL * 5 + 96;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"20\" y=\"28\" font-size=\"16\">{}</text>\n<text x=\"20\" y=\"52\" font-size=\"13\">{}</text>\n",
        escape(title),
        escape(&match &report.by_mines[..] {
            [one] => format!("{} rounds with {} mines: {}", one.rounds, one.mines, describe(one.chi_square)),
            all => format!(
                "{} rounds · all mine counts: {}",
                all.iter().map(|m| m.rounds).sum::<u64>(),
                match (report.combined, report.holm_p_value) {
                    (Some(t), _) => describe(Some(t)),
                    (None, Some(p)) => format!("smallest Holm-adjusted p = {p:.4}"),
                    (None, None) => describe(None),
                }
            ),
        }),
    );
    let ratios = tile_ratios(report).unwrap_or([(1.0, 0.0); N]);
    for (i, (ratio, z)) in ratios.iter().enumerate() {
        let (x, y) = (20 + (i % 5) * CELL, TOP + (i / 5) * CELL);
        let strength = (z.abs() / 4.0).min(1.0);
        let fade = (255.0 * (1.0 - strength)).round() as u8;
        let fill = if *z >= 0.0 { format!("rgb(255,{fade},{fade})") } else { format!("rgb({fade},{fade},255)") };
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#444\"/>\n\
             <text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"#333\">{}</text>\n\
             <text x=\"{}\" y=\"{}\" font-size=\"16\" text-anchor=\"middle\">{:+.2}%</text>\n\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">z {:+.2}</text>\n",
            x + 6,
            y + 16,
            i + 1,
            x + CELL / 2,
            y + CELL / 2 + 6,
            (ratio - 1.0) * 100.0,
            x + CELL / 2,
            y + CELL / 2 + 26,
            z
        ));
    }
    let legend_y = TOP + CELL * 5 + 28;
    if report.first_draw.is_some() {
        let first = escape(&describe(report.first_draw));
        svg.push_str(&format!("<text x=\"20\" y=\"{legend_y}\" font-size=\"13\">first draw: {first}</text>\n"));
    }
    svg.push_str(&format!(
        "<text x=\"20\" y=\"{}\" font-size=\"12\" fill=\"#333\">red: more mines than uniform, blue: fewer; full colour at |z| = 4</text>\n</svg>\n",
        legend_y + 24
    ));
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
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
