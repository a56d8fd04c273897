//! What a verification finds: each failure, the counts, and the report that merges across parts.

use std::collections::HashMap;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::error::from_json;
use crate::nonces::{NonceRanges, PairNonces};
use crate::options::Progress;

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
    /// The row's nonce is at or past the round count of its revealed seed pair
    /// ([`Options::revealed`](crate::Options::revealed)).
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
    /// The row's first line in the input (1-based; the CSV header is line 1). For a gap, the line of the row
    /// right after it (the row with the next nonce of the pair; for rounds missing after a revealed pair's
    /// last row, that row's line); `None` for the gaps and duplicates found only when merging reports, and
    /// for a revealed pair with no row.
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
    pub(super) fn new(kind: FailureKind, line: Option<u64>, message: String) -> Self {
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

    pub(super) fn gap(pair: &PairNonces, (first, last): (u64, u64), line: Option<u64>) -> Self {
        let missing = last - first + 1;
        let what = if missing == 1 {
            format!("nonce {first} is missing")
        } else {
            format!("nonces {first} to {last} are missing ({missing})")
        };
        Failure {
            pair_commitment: Some(pair.commitment.clone()),
            client_seed: Some(pair.client_seed.clone()),
            nonce: Some(first),
            last_nonce: Some(last),
            field: Some("nonce".into()),
            ..Failure::new(FailureKind::NonceGap, line, format!("nonce: {what} in the seed pair"))
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
    /// Failures reported (handed to the report or sink): every one found, or the first
    /// [`Options::max_failures`](crate::Options::max_failures).
    #[serde(default)]
    pub failures_listed: u64,
    /// Failures found but not reported, past [`Options::max_failures`](crate::Options::max_failures).
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

    /// Every failure found, listed or not. A row that fails two checks gives two failures (and counts once
    /// among the rows that failed); a gap gives one.
    pub fn failures_found(&self) -> u64 {
        self.failures_listed + self.failures_omitted
    }

    /// The counts in one line of words, as every front end shows them: rows read, ok, failed (by kind, the
    /// kinds that occur), malformed, the nonce gaps, then the failures found, listed and not listed:
    ///
    /// `1,000,000 rows read: 0 ok, 1,000,000 failed (positions 1,000,000), 0 malformed; 0 nonce gaps;
    /// 1,000,000 failures found: the first 10,000 listed, 990,000 more counted but not listed`.
    pub fn text(&self) -> String {
        let n = grouped;
        let kinds: Vec<String> = [
            ("commitment", self.commitment_mismatches),
            ("positions", self.position_mismatches),
            ("play", self.play_mismatches),
            ("duplicate nonce", self.duplicate_nonces),
            ("nonce past the revealed end", self.nonces_past_end),
        ]
        .into_iter()
        .filter(|&(_, count)| count > 0)
        .map(|(kind, count)| format!("{kind} {}", n(count)))
        .collect();
        let kinds = if kinds.is_empty() { String::new() } else { format!(" ({})", kinds.join(", ")) };
        let gaps = match self.nonce_gaps {
            0 => "0 nonce gaps".to_owned(),
            1 => format!("1 nonce gap ({} missing)", n(self.missing_nonces)),
            gaps => format!("{} nonce gaps ({} missing)", n(gaps), n(self.missing_nonces)),
        };
        let found = self.failures_found();
        let failures = match (found, self.failures_omitted) {
            (0, _) => "no failures".to_owned(),
            (1, 0) => "1 failure found, listed".to_owned(),
            (found, 0) => format!("{} failures found, all listed", n(found)),
            (found, omitted) => format!(
                "{} failure{} found: the first {} listed, {} more counted but not listed",
                n(found),
                if found == 1 { "" } else { "s" },
                n(self.failures_listed),
                n(omitted)
            ),
        };
        format!(
            "{} row{} read: {} ok, {} failed{kinds}, {} malformed; {gaps}; {failures}",
            n(self.rows_read),
            if self.rows_read == 1 { "" } else { "s" },
            n(self.ok),
            n(self.mismatched),
            n(self.malformed),
        )
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
        self.failures_listed += other.failures_listed;
        self.failures_omitted += other.failures_omitted;
    }
}

/// A count with its thousands grouped by commas (`1,000,000`).
fn grouped(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// Where the findings of a run go, in input order (gaps come when their pair closes, mostly at the end).
pub trait Sink {
    /// A failing row, or a gap.
    fn failure(&mut self, failure: Failure);
    /// After every chunk of rows; `Break` stops the run ([`HistoryError::Stopped`](crate::HistoryError::Stopped)).
    fn progress(&mut self, _progress: Progress) -> ControlFlow<()> {
        ControlFlow::Continue(())
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
                failures.push(Failure::gap(pair, gap, None));
            }
        }
        // Gaps are found again over the whole and duplicates across the parts added: listed is what is kept.
        summary.failures_listed = failures.len() as u64;
        Report { summary, failures, pairs: merged }
    }
}
