//! `verify_history`: every row recomputed from its seeds, on every core, in constant memory.

use std::collections::HashMap;
use std::io::Read;
use std::ops::ControlFlow;

use fairmines::{Digest, Placement, RoundHasher, Tiles};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::chunk::Chunk;
use crate::error::{HistoryError, from_json};
use crate::ledger::{Ledger, NonceRanges, PairKey, PairNonces, Slot};
use crate::options::{Options, Proceed, Progress};
use crate::pipeline::{pipeline, thread_count};
use crate::reading::{Reading, read_chunks, value_chunks};
use crate::row::{Partial, RowError, RowRef};

/// What went wrong with a row (or, for a gap, between rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The row could not be read (bad JSON, a wrong type, a missing field, bad hex, mines out of range, …).
    Malformed,
    /// The declared commitment is not SHA3-256 of the server seed.
    Commitment,
    /// The declared positions are not the ones the seeds give.
    Positions,
    /// The seed pair already had a row with this nonce.
    DuplicateNonce,
    /// Nonces missing between two that the seed pair has.
    NonceGap,
    /// The row's picks, outcome or multiplier are not what the picks give on the seeds' mines (one failure
    /// per difference, with [`fairmines::verify_play`]'s words; `field` is `picks`, `outcome` or `multiplier`).
    Play,
    /// The row's nonce is at or past the round count of its revealed seed pair ([`Options::revealed`]).
    NoncePastEnd,
}

impl FailureKind {
    /// Every kind, in the order of their declaration.
    pub const ALL: [FailureKind; 7] = [
        FailureKind::Malformed,
        FailureKind::Commitment,
        FailureKind::Positions,
        FailureKind::DuplicateNonce,
        FailureKind::NonceGap,
        FailureKind::Play,
        FailureKind::NoncePastEnd,
    ];

    /// The name used in JSON and tables: `malformed`, `commitment`, `positions`, `duplicate_nonce`, `nonce_gap`,
    /// `play`, `nonce_past_end`.
    pub const fn as_str(self) -> &'static str {
        match self {
            FailureKind::Malformed => "malformed",
            FailureKind::Commitment => "commitment",
            FailureKind::Positions => "positions",
            FailureKind::DuplicateNonce => "duplicate_nonce",
            FailureKind::NonceGap => "nonce_gap",
            FailureKind::Play => "play",
            FailureKind::NoncePastEnd => "nonce_past_end",
        }
    }
}

/// One finding, flat so that a list of them is a table (a DataFrame in Python).
///
/// A row that fails two checks gives two failures with the same `line`; it still counts once as mismatched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// What went wrong.
    pub kind: FailureKind,
    /// The row's first line in the input (1-based; the CSV header is line 1); `None` for gaps and for
    /// duplicates found only when merging reports.
    pub line: Option<u64>,
    /// The row's round id, where it has one.
    pub round_id: Option<String>,
    /// The seed pair: SHA3-256 of its server seed (computed, not declared), where the row could be read.
    pub pair_commitment: Option<String>,
    /// The seed pair's client seed, where the row could be read.
    pub client_seed: Option<String>,
    /// The row's nonce; for a gap or a merged duplicate range, the first nonce of it.
    pub nonce: Option<u64>,
    /// For a gap or a merged duplicate range, the last nonce of it.
    pub last_nonce: Option<u64>,
    /// The field at fault (`positions`, `commitment`, `mines`, …).
    pub field: Option<String>,
    /// What the seeds give.
    pub expected: Option<String>,
    /// What the history declares.
    pub declared: Option<String>,
    /// The finding in words.
    pub message: String,
}

impl Failure {
    fn new(kind: FailureKind, line: Option<u64>, message: String) -> Self {
        Failure {
            kind,
            line,
            round_id: None,
            pair_commitment: None,
            client_seed: None,
            nonce: None,
            last_nonce: None,
            field: None,
            expected: None,
            declared: None,
            message,
        }
    }

    fn gap(pair: &PairNonces, (first, last): (u64, u64)) -> Self {
        let missing = last - first + 1;
        let what = if missing == 1 {
            format!("nonce {first} is missing")
        } else {
            format!("nonces {first}..={last} are missing ({missing})")
        };
        Failure {
            pair_commitment: Some(pair.commitment.clone()),
            client_seed: Some(pair.client_seed.clone()),
            nonce: Some(first),
            last_nonce: Some(last),
            field: Some("nonce".into()),
            ..Failure::new(FailureKind::NonceGap, None, format!("nonce: {what} in the seed pair"))
        }
    }
}

/// The counts of a run. `ok + mismatched + malformed == rows_read`, always.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Rows read (blank lines are not rows).
    pub rows_read: u64,
    /// Rows that are well formed, whose commitment, positions and play (if any) check, and whose nonce is new
    /// for its pair.
    pub ok: u64,
    /// Well-formed rows that fail a check (commitment, positions, play, or a nonce seen before).
    pub mismatched: u64,
    /// Rows that could not be read; reported and skipped.
    pub malformed: u64,
    /// Rows whose declared commitment is wrong.
    pub commitment_mismatches: u64,
    /// Rows whose declared positions are wrong.
    pub position_mismatches: u64,
    /// Rows whose nonce their seed pair already had.
    pub duplicate_nonces: u64,
    /// Rows whose picks, outcome or multiplier are not what the picks give.
    #[serde(default)]
    pub play_mismatches: u64,
    /// Rows whose nonce is at or past their revealed seed pair's round count.
    #[serde(default)]
    pub nonces_past_end: u64,
    /// Stretches of missing nonces.
    pub nonce_gaps: u64,
    /// Nonces missing in all the gaps.
    pub missing_nonces: u64,
    /// Distinct seed pairs seen.
    pub seed_pairs: u64,
    /// Blank lines skipped (JSON Lines only; they are not rows).
    pub blank_lines: u64,
    /// Seed pairs closed before the end because more than `max_open_pairs` were open (see the README):
    /// if such a pair comes back, duplicates and gaps across the two stretches are not seen.
    pub pairs_closed_early: u64,
    /// The input's last line has no newline (counted, not a failure; a truncated row fails on its own).
    pub unterminated_last_line: bool,
    /// Failures found but not reported, past [`Options::max_failures`].
    #[serde(default)]
    pub failures_omitted: u64,
}

impl Summary {
    /// True when there are rows, every row is ok and no nonce is missing: a history without rows proves
    /// nothing and is not ok.
    pub fn is_ok(&self) -> bool {
        self.rows_read > 0 && self.mismatched == 0 && self.malformed == 0 && self.nonce_gaps == 0
    }

    /// The verdict in words: `OK, …`, `FAILED, no rounds: …` (no rows), or `FAILED, …`.
    pub fn verdict(&self) -> &'static str {
        if self.is_ok() {
            "OK, every row recomputes from its seeds and no nonce is missing or repeated"
        } else if self.rows_read == 0 {
            "FAILED, no rounds: the input has no rows to check"
        } else {
            "FAILED, see the rows above"
        }
    }

    fn add(&mut self, other: &Summary) {
        self.rows_read += other.rows_read;
        self.ok += other.ok;
        self.mismatched += other.mismatched;
        self.malformed += other.malformed;
        self.commitment_mismatches += other.commitment_mismatches;
        self.position_mismatches += other.position_mismatches;
        self.duplicate_nonces += other.duplicate_nonces;
        self.play_mismatches += other.play_mismatches;
        self.nonces_past_end += other.nonces_past_end;
        self.blank_lines += other.blank_lines;
        self.pairs_closed_early += other.pairs_closed_early;
        self.unterminated_last_line |= other.unterminated_last_line;
        self.failures_omitted += other.failures_omitted;
    }
}

/// Where the findings of a run go, in input order (gaps come when their pair closes, mostly at the end).
pub trait Sink {
    /// A failing row, or a gap.
    fn failure(&mut self, failure: Failure);
    /// After every chunk of rows; `Break` stops the run ([`HistoryError::Stopped`]).
    fn progress(&mut self, _progress: Progress) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// A [`Report`] being filled, with the caller's progress callback.
struct Collecting<F> {
    report: Report,
    on_progress: F,
}

impl<F: FnMut(Progress) -> C, C: Proceed> Sink for Collecting<F> {
    fn failure(&mut self, failure: Failure) {
        self.report.failures.push(failure);
    }
    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        (self.on_progress)(progress).proceed()
    }
}

/// Everything a run found: the summary, every failure, and each seed pair's nonces (for [`Report::merge`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The counts.
    pub summary: Summary,
    /// Every failing row and every gap, in input order, gaps after the rows.
    pub failures: Vec<Failure>,
    /// The nonces of every seed pair that was still open at the end.
    pub pairs: Vec<PairNonces>,
}

impl<T: Sink + ?Sized> Sink for &mut T {
    fn failure(&mut self, failure: Failure) {
        (**self).failure(failure);
    }
    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        (**self).progress(progress)
    }
}

impl Sink for Report {
    fn failure(&mut self, failure: Failure) {
        self.failures.push(failure);
    }
}

impl Report {
    /// Whether the history checks out ([`Summary::is_ok`]).
    pub fn is_ok(&self) -> bool {
        self.summary.is_ok()
    }

    /// As JSON (the summary, every failure, each seed pair's nonces; no server seed), for
    /// [`Report::from_json`].
    pub fn to_json(&self) -> String {
        // Plain data (numbers, strings, lists): serialising it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Parses [`Report::to_json`]'s form; [`fairmines::Error::InvalidState`] (argument `json`) when it does not.
    pub fn from_json(json: &str) -> Result<Report, fairmines::Error> {
        from_json(json)
    }

    /// The report of two parts of one history checked apart (e.g. the partitions of a Dask frame).
    ///
    /// Row counts and row failures add up; the seed pairs' nonces are merged, so gaps are found again over
    /// the whole, and a nonce that both parts have is a duplicate (reported as a range, without a line; a
    /// later row that had passed moves from `ok` to `mismatched`, as one run counts it). `self` is the part
    /// that comes first. Line numbers stay those of each part.
    pub fn merge(self, other: Report) -> Report {
        let mut summary = self.summary.clone();
        summary.add(&other.summary);
        let mut failures: Vec<Failure> =
            self.failures.into_iter().chain(other.failures).filter(|f| f.kind != FailureKind::NonceGap).collect();
        // Per pair: every nonce seen, and those whose first row passed.
        let mut pairs: HashMap<(String, String), (NonceRanges, NonceRanges)> = HashMap::new();
        for pair in self.pairs.into_iter().chain(other.pairs) {
            let (seen, ok) = pairs.entry((pair.commitment.clone(), pair.client_seed.clone())).or_default();
            let mut later_ok = NonceRanges::default();
            for &(first, last) in &pair.ok {
                later_ok.insert_range(first, last);
            }
            for (first, last) in pair.ranges {
                for (a, b) in seen.insert_range(first, last) {
                    // In one run these later rows are duplicates: each one that passed becomes mismatched.
                    let count = b - a + 1;
                    summary.duplicate_nonces += count;
                    let moved = later_ok.count_within(a, b).min(summary.ok);
                    summary.ok -= moved;
                    summary.mismatched += moved;
                    later_ok.remove_range(a, b);
                    failures.push(Failure {
                        pair_commitment: Some(pair.commitment.clone()),
                        client_seed: Some(pair.client_seed.clone()),
                        nonce: Some(a),
                        last_nonce: Some(b),
                        field: Some("nonce".into()),
                        ..Failure::new(
                            FailureKind::DuplicateNonce,
                            None,
                            format!("nonce: {count} nonce(s) {a}..={b} appear in both parts for the seed pair"),
                        )
                    });
                }
            }
            // What is left of the later part's passing nonces were first seen there.
            for (first, last) in later_ok.ranges().collect::<Vec<_>>() {
                ok.insert_range(first, last);
            }
        }
        let mut merged: Vec<PairNonces> = pairs
            .into_iter()
            .map(|((commitment, client_seed), (seen, ok))| PairNonces {
                commitment,
                client_seed,
                ranges: seen.ranges().collect(),
                ok: ok.ranges().collect(),
            })
            .collect();
        merged.sort_by(|a, b| (&a.commitment, &a.client_seed).cmp(&(&b.commitment, &b.client_seed)));
        summary.seed_pairs = merged.len() as u64;
        summary.nonce_gaps = 0;
        summary.missing_nonces = 0;
        for pair in &merged {
            for gap in pair.gaps() {
                summary.nonce_gaps += 1;
                summary.missing_nonces += gap.1 - gap.0 + 1;
                failures.push(Failure::gap(pair, gap));
            }
        }
        Report { summary, failures, pairs: merged }
    }
}

/// A bounded map from server seed to its commitment: two generations of at most `capacity / 2` seeds each.
/// A lookup that misses the newer generation but hits the older one moves the seed up; when the newer one
/// is full, the older one is dropped. So at most `capacity` seeds are held, and a seed in use stays.
pub(crate) struct CommitmentCache {
    young: HashMap<String, Digest>,
    old: HashMap<String, Digest>,
    half: usize,
    pub(crate) computed: u64,
}

impl CommitmentCache {
    pub(crate) fn new(capacity: usize) -> Self {
        CommitmentCache { young: HashMap::new(), old: HashMap::new(), half: (capacity / 2).max(1), computed: 0 }
    }

    pub(crate) fn get(&mut self, server_seed: &str) -> Digest {
        if let Some(&digest) = self.young.get(server_seed) {
            return digest;
        }
        let digest = match self.old.remove(server_seed) {
            Some(digest) => digest,
            None => {
                self.computed += 1;
                fairmines::commitment(server_seed)
            }
        };
        if self.young.len() >= self.half {
            self.old = std::mem::take(&mut self.young);
        }
        self.young.insert(server_seed.to_owned(), digest);
        digest
    }
}

/// A row as a worker leaves it: what the collector needs, without the seeds.
pub(crate) struct Checked {
    line: u64,
    unterminated: bool,
    /// Where the round id of a readable row lies in the chunk's `ids` (a malformed row's is in its failure).
    round_id: Option<std::ops::Range<usize>>,
    /// Boxed, as are a verdict's mismatches: they are rare, and a small `Checked` keeps the chunks that go
    /// from the workers to the collector small (80 bytes a row, not 264).
    /// A malformed row: its failure, and its seed pair and nonce where they could be read (they count as
    /// seen, so the row is not also reported as a gap).
    outcome: Result<Verdict, (Box<Failure>, Option<Seen>)>,
}

/// A malformed row's seed pair (its index among the chunk's pairs) and nonce.
type Seen = (u32, u64);

struct Verdict {
    pair: u32,
    nonce: u64,
    commitment: Option<Box<(Digest, Digest)>>,
    positions: Option<Box<(Tiles, Tiles)>>,
    play: Option<Box<[Failure]>>,
}

pub(crate) struct CheckedChunk {
    rows: Vec<Checked>,
    /// The round ids of the rows, one after another (one buffer per chunk, not one per row).
    ids: String,
    pairs: Vec<PairKey>,
    blank_lines: u64,
    bytes: u64,
    unterminated: bool,
}

fn list(tiles: &[u8]) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

/// The index among the chunk's `pairs` of the pair of these seeds (rows come in runs of one seed pair: the
/// previous row's commitment and pair are at hand).
fn pair_index<'r>(
    cache: &mut CommitmentCache,
    pairs: &mut Vec<PairKey>,
    previous: &mut Option<(&'r str, &'r str)>,
    computed: &mut Digest,
    (server_seed, client_seed): (&'r str, &'r str),
) -> u32 {
    let same_seeds = previous.is_some_and(|(server, client)| server == server_seed && client == client_seed);
    if !same_seeds {
        *computed = cache.get(server_seed);
        if pairs.last().is_none_or(|(c, s)| c != computed || s != client_seed) {
            pairs.push((*computed, client_seed.to_owned()));
        }
        *previous = Some((server_seed, client_seed));
    }
    (pairs.len() - 1) as u32
}

pub(crate) fn check_chunk(cache: &mut CommitmentCache, chunk: Chunk) -> CheckedChunk {
    let parsed: Vec<_> = chunk.rows.iter().map(|raw| raw.parse(&chunk)).collect();
    let expected = placements(&parsed);
    let mut pairs: Vec<PairKey> = Vec::new();
    let mut previous: Option<(&str, &str)> = None;
    let mut computed = Digest::from_bytes([0; 32]);
    let unterminated = chunk.rows.last().is_some_and(|r| r.unterminated);
    let mut ids = String::new();
    let rows = chunk
        .rows
        .iter()
        .zip(parsed.iter().zip(expected))
        .map(|(raw, (parsed, expected))| match parsed {
            Err((error, partial)) => {
                let mut failure = Failure {
                    round_id: partial.round_id.clone(),
                    field: error.field.map(str::to_owned),
                    ..Failure::new(FailureKind::Malformed, Some(raw.line), error.message.clone())
                };
                let seen = partial.round.as_deref().map(|(server, client, nonce)| {
                    let pair = pair_index(cache, &mut pairs, &mut previous, &mut computed, (server, client));
                    failure.pair_commitment = Some(computed.to_string());
                    failure.client_seed = Some(client.clone());
                    failure.nonce = Some(*nonce);
                    (pair, *nonce)
                });
                Checked {
                    line: raw.line,
                    unterminated: raw.unterminated,
                    round_id: None,
                    outcome: Err((Box::new(failure), seen)),
                }
            }
            Ok(row) => {
                let pair =
                    pair_index(cache, &mut pairs, &mut previous, &mut computed, (&row.server_seed, &row.client_seed));
                let grid = expected.unwrap_or_else(|| fairmines::placement("", "", 0, row.mines));
                let expected = grid.positions();
                // Both commitments are public: compared as bytes, not in constant time.
                let commitment_ok = computed.as_bytes() == row.commitment.as_bytes();
                let play = row.play.as_deref().and_then(|play| {
                    let check = fairmines::verify_play(
                        &grid,
                        row.mines,
                        &play.picks,
                        play.outcome,
                        play.rtp.map(|rtp| (rtp, play.multiplier)),
                    );
                    let failures: Box<[Failure]> = check
                        .differences
                        .into_iter()
                        .map(|(field, message)| {
                            let (expected, declared) = match field {
                                "outcome" => (
                                    Some(check.expected_outcome.as_str().to_owned()),
                                    Some(play.outcome.as_str().to_owned()),
                                ),
                                "multiplier" => {
                                    let show =
                                        |m: Option<fairmines::Ratio>| m.map_or("none".to_owned(), |m| m.to_string());
                                    (Some(show(check.expected_multiplier)), Some(show(play.multiplier)))
                                }
                                _ => (None, Some(list(&play.picks))),
                            };
                            Failure {
                                field: Some(field.to_owned()),
                                expected,
                                declared,
                                ..Failure::new(FailureKind::Play, Some(raw.line), message)
                            }
                        })
                        .collect();
                    (!failures.is_empty()).then_some(failures)
                });
                Checked {
                    line: raw.line,
                    unterminated: raw.unterminated,
                    round_id: row.round_id.as_deref().map(|id| {
                        ids.push_str(id);
                        ids.len() - id.len()..ids.len()
                    }),
                    outcome: Ok(Verdict {
                        pair,
                        nonce: row.nonce,
                        commitment: (!commitment_ok).then(|| Box::new((computed, row.commitment))),
                        positions: (expected != row.positions).then(|| Box::new((expected, row.positions))),
                        play,
                    }),
                }
            }
        })
        .collect();
    CheckedChunk { rows, ids, pairs, blank_lines: chunk.blank_lines, bytes: chunk.bytes, unterminated }
}

/// The mine positions the seeds give for each readable row (`None` for the others): four rows at a time
/// where four in a row share their seed pair (as a history's rows mostly do), on the core's four-lane
/// Keccak; one at a time otherwise.
fn placements(rows: &[Result<RowRef<'_>, (RowError, Partial)>]) -> Vec<Option<Placement>> {
    let mut out = Vec::with_capacity(rows.len());
    let mut hasher: Option<(usize, RoundHasher)> = None;
    let mut i = 0;
    while i < rows.len() {
        let Ok(first) = &rows[i] else {
            out.push(None);
            i += 1;
            continue;
        };
        let same_pair = |row: &Result<RowRef<'_>, _>| {
            row.as_ref().is_ok_and(|r| r.server_seed == first.server_seed && r.client_seed == first.client_seed)
        };
        if i + 4 <= rows.len() && rows[i + 1..i + 4].iter().all(same_pair) {
            let reuse = hasher.as_ref().is_some_and(|(at, _)| same_pair(&rows[*at]));
            if !reuse {
                hasher = Some((i, RoundHasher::new(&first.server_seed, &first.client_seed)));
            }
            let Some((_, rounds)) = &hasher else { unreachable!("set above") };
            let four: [&RowRef<'_>; 4] = core::array::from_fn(|k| rows[i + k].as_ref().ok().unwrap_or(first));
            let placements = rounds.placements_x4(four.map(|r| r.nonce), four.map(|r| r.mines));
            out.extend(placements.into_iter().map(Some));
            i += 4;
        } else {
            out.push(Some(fairmines::placement(&first.server_seed, &first.client_seed, first.nonce, first.mines)));
            i += 1;
        }
    }
    out
}

/// A sink that hands on at most `left` failures and counts the others.
struct Capped<S> {
    sink: S,
    left: Option<u64>,
    omitted: u64,
}

impl<S: Sink> Sink for Capped<S> {
    fn failure(&mut self, failure: Failure) {
        match &mut self.left {
            Some(0) => self.omitted += 1,
            Some(left) => {
                *left -= 1;
                self.sink.failure(failure);
            }
            None => self.sink.failure(failure),
        }
    }
    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        self.sink.progress(progress)
    }
}

/// Counts the checked rows in order, tracks each pair's nonces and sends the failures on.
pub(crate) struct Collector<S: Sink> {
    pub(crate) summary: Summary,
    ledger: Ledger,
    sink: Capped<S>,
    gaps_seen: u64,
    revealed: Revealed,
}

/// The revealed seed pairs: their round count by (commitment, client seed), and whether a row of each came.
#[derive(Default)]
struct Revealed(HashMap<(Digest, String), (u64, bool)>);

impl Revealed {
    fn rounds(&self, (commitment, client_seed): &PairKey) -> Option<u64> {
        if self.0.is_empty() {
            return None;
        }
        self.0.get(&(*commitment, client_seed.clone())).map(|&(rounds, _)| rounds)
    }

    /// The nonces missing at the ends of a closing pair (none for a pair not revealed).
    fn ends(&mut self, pair: &PairNonces) -> Vec<(u64, u64)> {
        let Ok(commitment) = Digest::parse_hex(&pair.commitment, "commitment") else { return Vec::new() };
        let Some((rounds, seen)) = self.0.get_mut(&(commitment, pair.client_seed.clone())) else { return Vec::new() };
        *seen = true;
        let mut ends = Vec::new();
        if let Some(&(first, _)) = pair.ranges.first()
            && first > 0
        {
            ends.push((0, (first - 1).min(rounds.saturating_sub(1))));
        }
        if let Some(&(_, last)) = pair.ranges.last()
            && last + 1 < *rounds
        {
            ends.push((last + 1, *rounds - 1));
        }
        ends.retain(|&(a, b)| a <= b && b < *rounds);
        ends
    }
}

impl<S: Sink> Collector<S> {
    pub(crate) fn new(options: &Options, sink: S) -> Self {
        let sink = Capped { sink, left: options.max_failures, omitted: 0 };
        let revealed = Revealed(
            options
                .revealed
                .iter()
                .map(|r| ((fairmines::commitment(&r.server_seed), r.client_seed.clone()), (r.rounds, false)))
                .collect(),
        );
        let ledger = Ledger::new(options.max_open_pairs);
        Collector { summary: Summary::default(), ledger, sink, gaps_seen: 0, revealed }
    }

    fn close(
        summary: &mut Summary,
        sink: &mut dyn Sink,
        gaps_seen: &mut u64,
        revealed: &mut Revealed,
        pair: &PairNonces,
    ) {
        summary.seed_pairs += 1;
        let mut gaps: Vec<(u64, u64)> = pair.gaps().collect();
        gaps.extend(revealed.ends(pair));
        gaps.sort_unstable();
        for gap in gaps {
            *gaps_seen += 1;
            summary.nonce_gaps += 1;
            summary.missing_nonces += gap.1 - gap.0 + 1;
            sink.failure(Failure::gap(pair, gap));
        }
    }

    /// The ledger's slot of the chunk's pair `pair`, looked up once per chunk (again after pairs were closed).
    fn slot(&mut self, pairs: &[PairKey], slots: &mut [Option<Slot>], pair: u32) -> Slot {
        if let Some(slot) = slots[pair as usize] {
            return slot;
        }
        let (summary, sink, gaps_seen) = (&mut self.summary, &mut self.sink, &mut self.gaps_seen);
        let revealed = &mut self.revealed;
        let closed_before = self.ledger.closed_early;
        let slot = self.ledger.slot(&pairs[pair as usize], &mut |closed| {
            Self::close(summary, sink, gaps_seen, revealed, &closed);
        });
        if self.ledger.closed_early != closed_before {
            slots.fill(None);
        }
        slots[pair as usize] = Some(slot);
        slot
    }

    pub(crate) fn collect(&mut self, chunk: CheckedChunk) -> ControlFlow<()> {
        self.summary.blank_lines += chunk.blank_lines;
        self.summary.unterminated_last_line |= chunk.unterminated;
        // Each of the chunk's pairs is looked up in the ledger once (again only after pairs were closed).
        let mut slots: Vec<Option<Slot>> = vec![None; chunk.pairs.len()];
        let rounds: Vec<Option<u64>> = chunk.pairs.iter().map(|pair| self.revealed.rounds(pair)).collect();
        for row in chunk.rows {
            self.summary.rows_read += 1;
            let verdict = match row.outcome {
                Err((failure, seen)) => {
                    self.summary.malformed += 1;
                    self.sink.failure(*failure);
                    if let Some((pair, nonce)) = seen {
                        let slot = self.slot(&chunk.pairs, &mut slots, pair);
                        self.ledger.insert(slot, nonce);
                    }
                    continue;
                }
                Ok(verdict) => verdict,
            };
            let (commitment, client_seed) = &chunk.pairs[verdict.pair as usize];
            let slot = self.slot(&chunk.pairs, &mut slots, verdict.pair);
            let new_nonce = self.ledger.insert(slot, verdict.nonce);
            let note = if row.unterminated { " (the last line has no newline: the input looks truncated)" } else { "" };
            let base = || Failure {
                round_id: row.round_id.clone().map(|at| chunk.ids[at].to_owned()),
                pair_commitment: Some(commitment.to_string()),
                client_seed: Some(client_seed.clone()),
                nonce: Some(verdict.nonce),
                ..Failure::new(FailureKind::Malformed, Some(row.line), String::new())
            };
            let mut failed = false;
            if let Some((expected, declared)) = verdict.commitment.map(|b| *b) {
                failed = true;
                self.summary.commitment_mismatches += 1;
                self.sink.failure(Failure {
                    kind: FailureKind::Commitment,
                    field: Some("commitment".into()),
                    expected: Some(expected.to_string()),
                    declared: Some(declared.to_string()),
                    message: format!("commitment: SHA3-256 of the server seed is not the declared commitment{note}"),
                    ..base()
                });
            }
            if let Some((expected, declared)) = verdict.positions.map(|b| *b) {
                failed = true;
                self.summary.position_mismatches += 1;
                self.sink.failure(Failure {
                    kind: FailureKind::Positions,
                    field: Some("positions".into()),
                    expected: Some(list(&expected)),
                    declared: Some(list(&declared)),
                    message: format!(
                        "positions: the seeds give {}, the history declares {}{note}",
                        list(&expected),
                        list(&declared)
                    ),
                    ..base()
                });
            }
            if let Some(play) = verdict.play {
                failed = true;
                self.summary.play_mismatches += 1;
                for failure in play {
                    self.sink.failure(Failure {
                        kind: failure.kind,
                        field: failure.field,
                        expected: failure.expected,
                        declared: failure.declared,
                        message: format!("{}{note}", failure.message),
                        ..base()
                    });
                }
            }
            if let Some(rounds) = rounds[verdict.pair as usize]
                && verdict.nonce >= rounds
            {
                failed = true;
                self.summary.nonces_past_end += 1;
                self.sink.failure(Failure {
                    kind: FailureKind::NoncePastEnd,
                    field: Some("nonce".into()),
                    message: format!(
                        "nonce: {} is past the revealed seed pair's {rounds} rounds (nonces 0..{rounds}){note}",
                        verdict.nonce
                    ),
                    ..base()
                });
            }
            if !new_nonce {
                failed = true;
                self.summary.duplicate_nonces += 1;
                self.sink.failure(Failure {
                    kind: FailureKind::DuplicateNonce,
                    field: Some("nonce".into()),
                    message: format!("nonce: the seed pair already had a round with nonce {}{note}", verdict.nonce),
                    ..base()
                });
            }
            if failed {
                self.summary.mismatched += 1;
            } else {
                self.summary.ok += 1;
                self.ledger.mark_ok(slot, verdict.nonce);
            }
        }
        self.sink.progress(Progress { rows: self.summary.rows_read, bytes: chunk.bytes })
    }

    /// Closes every pair (reporting their gaps) and returns the summary and the pairs' nonces.
    pub(crate) fn finish(self) -> (Summary, Vec<PairNonces>, S) {
        let Collector { mut summary, ledger, mut sink, mut gaps_seen, mut revealed } = self;
        summary.pairs_closed_early = ledger.closed_early;
        let pairs = ledger.close_all();
        for pair in &pairs {
            Self::close(&mut summary, &mut sink, &mut gaps_seen, &mut revealed, pair);
        }
        // A revealed pair without a single row: every one of its rounds is missing.
        let mut unseen: Vec<_> = revealed.0.into_iter().filter(|(_, (rounds, seen))| !seen && *rounds > 0).collect();
        unseen.sort_by(|(a, _), (b, _)| (a.0.as_bytes(), &a.1).cmp(&(b.0.as_bytes(), &b.1)));
        for ((commitment, client_seed), (rounds, _)) in unseen {
            let pair =
                PairNonces { commitment: commitment.to_string(), client_seed, ranges: Vec::new(), ok: Vec::new() };
            summary.nonce_gaps += 1;
            summary.missing_nonces += rounds;
            sink.failure(Failure::gap(&pair, (0, rounds - 1)));
        }
        summary.failures_omitted = sink.omitted;
        (summary, pairs, sink.sink)
    }
}

/// The pipeline of a verification: `produce` reads chunks, every core checks them, `sink` gets the findings.
pub(crate) fn verify_chunks(
    options: &Options,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    sink: &mut dyn Sink,
) -> Result<(Summary, Vec<PairNonces>), HistoryError> {
    let mut collector = Collector::new(options, sink);
    pipeline(
        thread_count(options.threads),
        produce,
        || CommitmentCache::new(options.commitment_cache),
        check_chunk,
        |checked| collector.collect(checked),
    )?;
    let (summary, pairs, _) = collector.finish();
    Ok((summary, pairs))
}

/// [`verify_chunks`] into a [`Report`], with the caller's progress callback.
pub(crate) fn verify_into_report<C: Proceed>(
    options: &Options,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError> {
    let mut sink = Collecting { report: Report::default(), on_progress };
    let (summary, pairs) = verify_chunks(options, produce, &mut sink)?;
    Ok(Report { summary, pairs, ..sink.report })
}

/// Verifies a whole history read from `input`, streaming: findings go to `sink` as they are made, in input
/// order. Malformed rows are reported and skipped; only an I/O error, a CSV header without the needed
/// columns, an input that is one JSON array, options that cannot be used ([`HistoryError::Argument`]) or a
/// stop asked for by [`Sink::progress`] end the run early. A gzip stream is read through.
pub fn verify_history_to<R: Read + Send>(
    input: R,
    options: &Options,
    sink: &mut dyn Sink,
) -> Result<(Summary, Vec<PairNonces>), HistoryError> {
    let reading = Reading::new(options)?;
    verify_chunks(options, move |send| read_chunks(input, &reading, send), sink)
}

/// Verifies a whole history read from `input` and returns everything it found; `on_progress` is called
/// after every chunk (from the calling thread) and may stop the run by returning `ControlFlow::Break(())`.
///
/// ```
/// let history = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/history.jsonl"))?;
/// let report = fairmines_history::verify_history(&history[..], &Default::default(), |_| {})?;
/// assert!(report.is_ok());
/// assert_eq!(report.summary.rows_read, report.summary.ok);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_history<R: Read + Send, C: Proceed>(
    input: R,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError> {
    let reading = Reading::new(options)?;
    verify_into_report(options, move |send| read_chunks(input, &reading, send), on_progress)
}

/// Verifies rows given as JSON values (e.g. Python dicts converted to `serde_json::Value`), on every core,
/// as [`verify_history`] verifies lines. Row `i` (0-based) is reported as line `i + 1`. The errors are
/// [`HistoryError::Stopped`], when `on_progress` stops the run, and [`HistoryError::Argument`].
pub fn verify_values<I, C>(
    rows: I,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError>
where
    I: IntoIterator<Item = Value>,
    I::IntoIter: Send,
    C: Proceed,
{
    let (rows, reading) = (rows.into_iter(), Reading::new(options)?);
    verify_into_report(options, move |send| value_chunks(rows, &reading, send), on_progress)
}
