//! What the collecting thread does: the checked rows counted in input order, each seed pair's nonces
//! tracked (duplicates, gaps, revealed ends), and the failures sent on.

use std::collections::HashMap;
use std::ops::ControlFlow;

use fairmines::Digest;

use super::check::{CheckedChunk, list};
use super::report::{Failure, FailureKind, Sink, Summary};
use crate::nonces::{GapLines, OpenPairs, PairKey, PairNonces, Slot};
use crate::options::{Options, Progress};

/// A sink that hands on at most `left` failures and counts those it hands on and the others.
struct Capped<S> {
    sink: S,
    left: Option<u64>,
    listed: u64,
    omitted: u64,
}

impl<S: Sink> Sink for Capped<S> {
    fn failure(&mut self, failure: Failure) {
        match &mut self.left {
            Some(0) => self.omitted += 1,
            Some(left) => {
                *left -= 1;
                self.listed += 1;
                self.sink.failure(failure);
            }
            None => {
                self.listed += 1;
                self.sink.failure(failure);
            }
        }
    }
    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        self.sink.progress(progress)
    }
}

/// Counts the checked rows in order, tracks each pair's nonces and sends the failures on.
pub(crate) struct Collector<S: Sink> {
    pub(crate) summary: Summary,
    open_pairs: OpenPairs,
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
        let sink = Capped { sink, left: options.max_failures, listed: 0, omitted: 0 };
        let revealed = Revealed(
            options
                .revealed
                .iter()
                .map(|r| ((fairmines::commitment(&r.server_seed), r.client_seed.clone()), (r.rounds, false)))
                .collect(),
        );
        let open_pairs = OpenPairs::new(options.max_open_pairs);
        Collector { summary: Summary::default(), open_pairs, sink, gaps_seen: 0, revealed }
    }

    fn close(
        summary: &mut Summary,
        sink: &mut dyn Sink,
        gaps_seen: &mut u64,
        revealed: &mut Revealed,
        pair: &PairNonces,
        lines: &GapLines,
    ) {
        summary.seed_pairs += 1;
        let mut gaps: Vec<(u64, u64)> = pair.gaps().collect();
        gaps.extend(revealed.ends(pair));
        gaps.sort_unstable();
        for gap in gaps {
            *gaps_seen += 1;
            summary.nonce_gaps += 1;
            summary.missing_nonces += gap.1 - gap.0 + 1;
            sink.failure(Failure::gap(pair, gap, lines.of(gap)));
        }
    }

    /// The slot among the open pairs of the chunk's pair `pair`, looked up once per chunk (again after pairs
    /// were closed).
    fn slot(&mut self, pairs: &[PairKey], slots: &mut [Option<Slot>], pair: u32) -> Slot {
        if let Some(slot) = slots[pair as usize] {
            return slot;
        }
        let (summary, sink, gaps_seen) = (&mut self.summary, &mut self.sink, &mut self.gaps_seen);
        let revealed = &mut self.revealed;
        let closed_before = self.open_pairs.closed_early;
        let slot = self.open_pairs.slot(&pairs[pair as usize], &mut |closed, lines| {
            Self::close(summary, sink, gaps_seen, revealed, &closed, &lines);
        });
        if self.open_pairs.closed_early != closed_before {
            slots.fill(None);
        }
        slots[pair as usize] = Some(slot);
        slot
    }

    pub(crate) fn collect(&mut self, chunk: CheckedChunk) -> ControlFlow<()> {
        self.summary.blank_lines += chunk.blank_lines;
        self.summary.unterminated_last_line |= chunk.unterminated;
        // Each of the chunk's pairs is looked up among the open pairs once (again only after pairs were closed).
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
                        self.open_pairs.insert(slot, nonce, row.line);
                    }
                    continue;
                }
                Ok(verdict) => verdict,
            };
            let (commitment, client_seed) = &chunk.pairs[verdict.pair as usize];
            let slot = self.slot(&chunk.pairs, &mut slots, verdict.pair);
            let new_nonce = self.open_pairs.insert(slot, verdict.nonce, row.line);
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
                self.open_pairs.mark_ok(slot, verdict.nonce);
            }
        }
        self.sink.progress(Progress { rows: self.summary.rows_read, bytes: chunk.bytes })
    }

    /// Closes every pair (reporting their gaps) and returns the summary and the pairs' nonces.
    pub(crate) fn finish(self) -> (Summary, Vec<PairNonces>, S) {
        let Collector { mut summary, open_pairs, mut sink, mut gaps_seen, mut revealed } = self;
        summary.pairs_closed_early = open_pairs.closed_early;
        let (pairs, lines): (Vec<PairNonces>, Vec<GapLines>) = open_pairs.close_all().into_iter().unzip();
        for (pair, lines) in pairs.iter().zip(&lines) {
            Self::close(&mut summary, &mut sink, &mut gaps_seen, &mut revealed, pair, lines);
        }
        // A revealed pair without a single row: every one of its rounds is missing.
        let mut unseen: Vec<_> = revealed.0.into_iter().filter(|(_, (rounds, seen))| !seen && *rounds > 0).collect();
        unseen.sort_by(|(a, _), (b, _)| (a.0.as_bytes(), &a.1).cmp(&(b.0.as_bytes(), &b.1)));
        for ((commitment, client_seed), (rounds, _)) in unseen {
            let pair =
                PairNonces { commitment: commitment.to_string(), client_seed, ranges: Vec::new(), ok: Vec::new() };
            summary.nonce_gaps += 1;
            summary.missing_nonces += rounds;
            sink.failure(Failure::gap(&pair, (0, rounds - 1), None));
        }
        (summary.failures_listed, summary.failures_omitted) = (sink.listed, sink.omitted);
        (summary, pairs, sink.sink)
    }
}
