//! What a worker does with a chunk: each row recomputed from its seeds (four at a time where they share a
//! pair), without the seeds in what it hands on.

use std::collections::HashMap;

use fairmines::{Digest, Placement, RoundHasher, Tiles};

use super::report::{Failure, FailureKind};
use crate::chunk::Chunk;
use crate::nonces::PairKey;
use crate::row::{Partial, RowError, RowRef};

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
    pub(super) line: u64,
    pub(super) unterminated: bool,
    /// Where the round id of a readable row lies in the chunk's `ids` (a malformed row's is in its failure).
    pub(super) round_id: Option<std::ops::Range<usize>>,
    /// Boxed, as are a verdict's mismatches: they are rare, and a small `Checked` keeps the chunks that go
    /// from the workers to the collector small (80 bytes a row, not 264).
    /// A malformed row: its failure, and its seed pair and nonce where they could be read (they count as
    /// seen, so the row is not also reported as a gap).
    pub(super) outcome: Result<Verdict, (Box<Failure>, Option<Seen>)>,
}

/// A malformed row's seed pair (its index among the chunk's pairs) and nonce.
pub(super) type Seen = (u32, u64);

pub(super) struct Verdict {
    pub(super) pair: u32,
    pub(super) nonce: u64,
    pub(super) commitment: Option<Box<(Digest, Digest)>>,
    pub(super) positions: Option<Box<(Tiles, Tiles)>>,
    pub(super) play: Option<Box<[Failure]>>,
}

pub(crate) struct CheckedChunk {
    pub(super) rows: Vec<Checked>,
    /// The round ids of the rows, one after another (one buffer per chunk, not one per row).
    pub(super) ids: String,
    pub(super) pairs: Vec<PairKey>,
    pub(super) blank_lines: u64,
    pub(super) bytes: u64,
    pub(super) unterminated: bool,
}

pub(super) fn list(tiles: &[u8]) -> String {
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

/// The payout a round owes, by the exact multiplier of its replay (the core's rule, [`fairmines::payout`]): 0
/// for a lost round, the stake for a voided one, `floor(stake × multiplier)` for a cashed-out one. `None` when
/// it cannot be said (a cash-out without its rtp, so without a multiplier).
pub(crate) fn owed_payout(
    stake: u64,
    outcome: fairmines::Outcome,
    multiplier: Option<fairmines::Ratio>,
) -> Option<u128> {
    fairmines::payout(stake, outcome, multiplier).ok()
}

/// The failure of a payout that is not what the round owes ([`owed_payout`]): its message, the payout
/// owed and the one declared.
fn payout_failure(
    wager: &crate::row::Wager,
    outcome: fairmines::Outcome,
    multiplier: Option<fairmines::Ratio>,
    has_rtp: bool,
) -> Option<(String, String, String)> {
    let (stake, paid) = (wager.stake?, wager.payout?);
    if outcome == fairmines::Outcome::CashedOut && !has_rtp {
        return None;
    }
    let owed = owed_payout(stake, outcome, multiplier)?;
    if owed == u128::from(paid) {
        return None;
    }
    let message = match (outcome, multiplier) {
        (fairmines::Outcome::Lost, _) => format!("payout: a lost round pays 0, the record says {paid}"),
        (fairmines::Outcome::Voided, _) => {
            format!("payout: a voided round gives the stake back ({stake}), the record says {paid}")
        }
        (_, Some(m)) => format!(
            "payout: a stake of {stake} cashed out at multiplier {m} pays floor({stake} × {m}) = {owed}, the record \
             says {paid}"
        ),
        (_, None) => return None,
    };
    Some((message, owed.to_string(), paid.to_string()))
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
                    let payout = row.wager.as_deref().and_then(|wager| {
                        payout_failure(wager, check.expected_outcome, check.expected_multiplier, play.rtp.is_some())
                    });
                    // A displayed multiplier stands for the exact one rounded down to its decimals.
                    let displayed = play.displayed_places.zip(check.expected_multiplier).map(|(places, exact)| {
                        let shown = exact.to_decimal(places);
                        let declared = play.multiplier.map(|m| m.to_decimal(places));
                        (places, exact, shown.clone(), declared.clone(), declared.as_deref() == Some(shown.as_str()))
                    });
                    let failures: Box<[Failure]> = check
                        .differences
                        .into_iter()
                        .filter(|(field, _)| *field != "multiplier" || !displayed.as_ref().is_some_and(|d| d.4))
                        .map(|(field, message)| {
                            if let ("multiplier", Some((places, exact, shown, declared, _))) = (field, &displayed) {
                                let declared = declared.clone().unwrap_or_else(|| "none".to_owned());
                                return Failure {
                                    field: Some(field.to_owned()),
                                    expected: Some(shown.clone()),
                                    declared: Some(declared.clone()),
                                    ..Failure::new(
                                        FailureKind::Play,
                                        Some(raw.line),
                                        format!(
                                            "multiplier: the record displays {declared}, the picks give {exact}, \
                                             displayed as {shown} (rounded down to {} decimals)",
                                            places.get()
                                        ),
                                    )
                                };
                            }
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
                        .chain(payout.map(|(message, expected, declared)| Failure {
                            field: Some("payout".to_owned()),
                            expected: Some(expected),
                            declared: Some(declared),
                            ..Failure::new(FailureKind::Play, Some(raw.line), message)
                        }))
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
