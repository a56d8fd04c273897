//! The nonces seen of each seed pair, as sets of ranges: duplicates and gaps in any row order.

use std::collections::{BTreeMap, HashMap};

use fairmines::Digest;
use serde::{Deserialize, Serialize};

/// A set of nonces kept as disjoint, non-adjacent inclusive ranges: a run of consecutive nonces costs one
/// entry however long it is, so a genuine history (nonces 0, 1, 2, … per seed pair) costs one entry per pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NonceRanges {
    ranges: BTreeMap<u64, u64>,
}

impl NonceRanges {
    /// Adds `nonce`; `false` if it was already there.
    pub fn insert(&mut self, nonce: u64) -> bool {
        // The common case first: the next nonce after the last range.
        if let Some(mut last) = self.ranges.last_entry()
            && last.get().checked_add(1) == Some(nonce)
        {
            *last.get_mut() = nonce;
            return true;
        }
        if let Some((&start, &end)) = self.ranges.range(..=nonce).next_back() {
            if nonce <= end {
                return false;
            }
            if end + 1 == nonce {
                let end = self.take_following(nonce);
                self.ranges.insert(start, end);
                return true;
            }
        }
        let end = self.take_following(nonce);
        self.ranges.insert(nonce, end);
        true
    }

    /// Removes the range starting right after `nonce`, if any, and returns where the merged range ends.
    fn take_following(&mut self, nonce: u64) -> u64 {
        nonce.checked_add(1).and_then(|next| self.ranges.remove(&next)).unwrap_or(nonce)
    }

    /// Adds every nonce of `first..=last`; returns the sub-ranges that were already there.
    pub fn insert_range(&mut self, first: u64, last: u64) -> Vec<(u64, u64)> {
        let (first, last) = (first.min(last), first.max(last));
        let from = match self.ranges.range(..=first).next_back() {
            Some((&start, &end)) if end.saturating_add(1) >= first => start,
            _ => first,
        };
        let touching: Vec<(u64, u64)> =
            self.ranges.range(from..=last.saturating_add(1)).map(|(&s, &e)| (s, e)).collect();
        let mut overlaps = Vec::new();
        let (mut lo, mut hi) = (first, last);
        for (start, end) in touching {
            if start <= last && end >= first {
                overlaps.push((start.max(first), end.min(last)));
            }
            lo = lo.min(start);
            hi = hi.max(end);
            self.ranges.remove(&start);
        }
        self.ranges.insert(lo, hi);
        overlaps
    }

    /// Removes every nonce of `first..=last`.
    pub fn remove_range(&mut self, first: u64, last: u64) {
        let overlapping: Vec<(u64, u64)> =
            self.ranges.range(..=last).rev().take_while(|&(_, &end)| end >= first).map(|(&s, &e)| (s, e)).collect();
        for (start, end) in overlapping {
            self.ranges.remove(&start);
            if start < first {
                self.ranges.insert(start, first - 1);
            }
            if end > last {
                self.ranges.insert(last + 1, end);
            }
        }
    }

    /// How many nonces of `first..=last` the set holds.
    pub fn count_within(&self, first: u64, last: u64) -> u64 {
        self.ranges
            .range(..=last)
            .rev()
            .take_while(|&(_, &end)| end >= first)
            .map(|(&s, &e)| e.min(last) - s.max(first) + 1)
            .sum()
    }

    /// The ranges, in order.
    pub fn ranges(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ranges.iter().map(|(&s, &e)| (s, e))
    }

    /// Whether the set holds `nonce`.
    pub fn contains(&self, nonce: u64) -> bool {
        self.ranges.range(..=nonce).next_back().is_some_and(|(_, &end)| nonce <= end)
    }

    /// The missing stretches between the first and the last nonce, in order.
    pub fn gaps(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ranges.iter().zip(self.ranges.iter().skip(1)).map(|((_, &end), (&next, _))| (end + 1, next - 1))
    }
}

/// The nonces of one seed pair, identified by its commitment (computed from the server seed, so no
/// server seed is kept) and its client seed: the mergeable part of a [`Report`](crate::Report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairNonces {
    /// SHA3-256 of the server seed, hex.
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The nonces seen, as inclusive `(first, last)` ranges in order.
    pub ranges: Vec<(u64, u64)>,
    /// The nonces whose first row passed every check, as ranges: what a merge needs to count a duplicate
    /// across parts exactly as one run would (the later row turns from ok to mismatched only if it was ok).
    #[serde(default)]
    pub ok: Vec<(u64, u64)>,
}

pub(crate) type PairKey = (Digest, String);

struct PairState {
    key: PairKey,
    nonces: NonceRanges,
    ok: NonceRanges,
    last_seen: u64,
    lines: GapLines,
}

/// Where a closed pair's gaps lie in the input: the line of the first row of each run of nonces (the row
/// right after a gap), and of the row with the largest nonce (for the rounds missing after it).
#[derive(Clone, Debug, Default)]
pub(crate) struct GapLines {
    starts: HashMap<u64, u64>,
    last: Option<(u64, u64)>,
}

impl GapLines {
    /// The line a gap `first..=last` is reported on: that of the row with nonce `last + 1`, or, for rounds
    /// missing after every row, of the row with the largest nonce.
    pub(crate) fn of(&self, (_, last): (u64, u64)) -> Option<u64> {
        match (last.checked_add(1).and_then(|next| self.starts.get(&next)), self.last) {
            (Some(&line), _) => Some(line),
            (None, Some((nonce, line))) if nonce < last => Some(line),
            _ => None,
        }
    }
}

/// Where a pair's state lies in an [`OpenPairs`]; valid until a pair is closed ([`OpenPairs::closed_early`]
/// changes).
pub(crate) type Slot = usize;

/// Every open seed pair's nonces, with at most `max_open` pairs held at once.
pub(crate) struct OpenPairs {
    slots: HashMap<PairKey, Slot>,
    states: Vec<Option<PairState>>,
    free: Vec<Slot>,
    max_open: usize,
    clock: u64,
    pub(crate) closed_early: u64,
}

impl OpenPairs {
    pub(crate) fn new(max_open: usize) -> Self {
        OpenPairs {
            slots: HashMap::new(),
            states: Vec::new(),
            free: Vec::new(),
            max_open: max_open.max(1),
            clock: 0,
            closed_early: 0,
        }
    }

    /// The pair's slot, opening the pair if it is new. When every slot is taken, the least recently seen half
    /// of the pairs is closed first and handed to `closed` (which makes every slot given before invalid).
    pub(crate) fn slot(&mut self, key: &PairKey, closed: &mut dyn FnMut(PairNonces, GapLines)) -> Slot {
        if let Some(&slot) = self.slots.get(key) {
            return slot;
        }
        if self.slots.len() >= self.max_open {
            self.close_oldest_half(closed);
        }
        let state = PairState {
            key: key.clone(),
            nonces: NonceRanges::default(),
            ok: NonceRanges::default(),
            last_seen: 0,
            lines: GapLines::default(),
        };
        let slot = match self.free.pop() {
            Some(slot) => {
                self.states[slot] = Some(state);
                slot
            }
            None => {
                self.states.push(Some(state));
                self.states.len() - 1
            }
        };
        self.slots.insert(key.clone(), slot);
        slot
    }

    /// Records `nonce`, of the row on `line`, for the pair in `slot`; `false` if the pair already had it.
    pub(crate) fn insert(&mut self, slot: Slot, nonce: u64, line: u64) -> bool {
        self.clock += 1;
        let Some(state) = self.states.get_mut(slot).and_then(Option::as_mut) else { return false };
        state.last_seen = self.clock;
        let next_of_last = state.lines.last.is_some_and(|(last, _)| last.checked_add(1) == Some(nonce));
        let fresh = state.nonces.insert(nonce);
        if fresh && !next_of_last {
            // A row that starts a run (a gap may end before it); the run after it, if any, now joins it.
            if nonce == 0 || !state.nonces.contains(nonce - 1) {
                state.lines.starts.insert(nonce, line);
            }
            if let Some(next) = nonce.checked_add(1) {
                state.lines.starts.remove(&next);
            }
        }
        if fresh && state.lines.last.is_none_or(|(last, _)| nonce > last) {
            state.lines.last = Some((nonce, line));
        }
        fresh
    }

    /// Notes that the first row of the pair in `slot` with `nonce` passed every check.
    pub(crate) fn mark_ok(&mut self, slot: Slot, nonce: u64) {
        if let Some(state) = self.states.get_mut(slot).and_then(Option::as_mut) {
            state.ok.insert(nonce);
        }
    }

    fn close_oldest_half(&mut self, closed: &mut dyn FnMut(PairNonces, GapLines)) {
        let mut ages: Vec<u64> = self.states.iter().flatten().map(|s| s.last_seen).collect();
        let keep = self.max_open / 2;
        let cut = ages.len() - keep;
        let (_, &mut threshold, _) = ages.select_nth_unstable(cut.saturating_sub(1));
        for slot in 0..self.states.len() {
            if self.states[slot].as_ref().is_some_and(|s| s.last_seen <= threshold)
                && let Some(mut state) = self.states[slot].take()
            {
                self.slots.remove(&state.key);
                self.free.push(slot);
                self.closed_early += 1;
                let lines = std::mem::take(&mut state.lines);
                closed(pair_nonces(state), lines);
            }
        }
    }

    /// Closes every pair, in a stable order (by commitment, then client seed), each with its gaps' lines.
    pub(crate) fn close_all(self) -> Vec<(PairNonces, GapLines)> {
        let mut pairs: Vec<(PairNonces, GapLines)> = self
            .states
            .into_iter()
            .flatten()
            .map(|mut state| {
                let lines = std::mem::take(&mut state.lines);
                (pair_nonces(state), lines)
            })
            .collect();
        pairs.sort_by(|(a, _), (b, _)| (&a.commitment, &a.client_seed).cmp(&(&b.commitment, &b.client_seed)));
        pairs
    }
}

fn pair_nonces(state: PairState) -> PairNonces {
    let (commitment, client_seed) = state.key;
    PairNonces {
        commitment: commitment.to_string(),
        client_seed,
        ranges: state.nonces.ranges().collect(),
        ok: state.ok.ranges().collect(),
    }
}

impl PairNonces {
    /// The missing stretches between the first and the last nonce.
    pub fn gaps(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.ranges.iter().zip(self.ranges.iter().skip(1)).map(|(&(_, end), &(next, _))| (end + 1, next - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_merge_in_any_order_and_duplicates_are_found() {
        let mut set = NonceRanges::default();
        for n in [5, 3, 4, 9, 0, 1, 8] {
            assert!(set.insert(n));
        }
        assert!(!set.insert(4));
        assert_eq!(set.ranges().collect::<Vec<_>>(), [(0, 1), (3, 5), (8, 9)]);
        assert_eq!(set.gaps().collect::<Vec<_>>(), [(2, 2), (6, 7)]);
        assert!(set.insert(u64::MAX) && !set.insert(u64::MAX));
        assert!(set.insert(2) && set.insert(6) && set.insert(7));
        assert_eq!(set.ranges().collect::<Vec<_>>(), [(0, 9), (u64::MAX, u64::MAX)]);
    }

    #[test]
    fn ranges_merge_and_report_overlaps() {
        let mut set = NonceRanges::default();
        assert!(set.insert_range(10, 19).is_empty());
        assert!(set.insert_range(0, 8).is_empty());
        assert_eq!(set.insert_range(5, 12), [(5, 8), (10, 12)]);
        assert_eq!(set.ranges().collect::<Vec<_>>(), [(0, 19)]);
        assert!(set.insert_range(20, 20).is_empty());
        assert_eq!(set.ranges().collect::<Vec<_>>(), [(0, 20)]);
    }

    #[test]
    fn too_many_open_pairs_close_the_oldest() {
        let mut open = OpenPairs::new(4);
        let mut closed = Vec::new();
        for pair in 0..8u8 {
            let key = (Digest::from_bytes([pair; 32]), String::new());
            let slot = open.slot(&key, &mut |p, _| closed.push(p));
            assert!(open.insert(slot, 0, 1));
        }
        assert_eq!(open.closed_early, 4);
        assert_eq!(closed.len() as u64, open.closed_early);
        assert_eq!(open.close_all().len(), 4);
    }

    #[test]
    fn a_gap_is_on_the_line_of_the_row_after_it() {
        let mut open = OpenPairs::new(4);
        let slot = open.slot(&(Digest::from_bytes([0; 32]), String::new()), &mut |_, _| {});
        // Nonces 0, 1, 5, 6, 3 on lines 2 to 6; then 2 fills one gap (line 7).
        for (nonce, line) in [(0, 2), (1, 3), (5, 4), (6, 5), (3, 6)] {
            assert!(open.insert(slot, nonce, line));
        }
        let (pair, lines) = open.close_all().remove(0);
        assert_eq!(pair.gaps().map(|g| (g, lines.of(g))).collect::<Vec<_>>(), [((2, 2), Some(6)), ((4, 4), Some(4))]);
        assert_eq!(lines.of((7, 9)), Some(5));
        let mut open = OpenPairs::new(4);
        let slot = open.slot(&(Digest::from_bytes([0; 32]), String::new()), &mut |_, _| {});
        for (nonce, line) in [(0, 2), (3, 3), (2, 4), (5, 5)] {
            assert!(open.insert(slot, nonce, line));
        }
        let (pair, lines) = open.close_all().remove(0);
        assert_eq!(pair.gaps().map(|g| (g, lines.of(g))).collect::<Vec<_>>(), [((1, 1), Some(4)), ((4, 4), Some(5))]);
    }
}
