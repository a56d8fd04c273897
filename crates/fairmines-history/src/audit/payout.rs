//! The payout audit: what a history's rounds returned (Σ payout / Σ stake) against the RTP they declare,
//! overall and per mine count, currency, player and seed pair, with a 95% confidence interval from the
//! rounds' own variance; and the share of the k-th reveals that were safe against its exact probability.

use std::collections::{BTreeMap, BTreeSet};

use fairmines::{MineCount, Outcome, Placement, TILES};
use serde::{Deserialize, Serialize};

use crate::row::{Play, Wager};

/// The most groups of a kind (players, seed pairs, currencies) counted one by one; the rounds of further
/// groups count overall and per mine count only ([`PayoutCounts::groups_omitted`]).
pub const MAX_GROUPS: usize = 1_000;
/// The most distinct declared RTPs listed per group.
const MAX_RTPS: usize = 8;
/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The sums of one group of rounds, from which its return and interval follow. Staked rounds (with a stake
/// and a payout) count as they are; rounds without a stake at unit stake (their multiplier, 0 when lost).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GroupSums {
    /// Rounds counted (voided rounds are refunds, not bets: not counted).
    pub rounds: u64,
    /// Of them, with a stake and a payout.
    pub staked_rounds: u64,
    /// Σ stake (exact).
    pub stake_total: u128,
    /// Σ payout (exact).
    pub payout_total: u128,
    /// Σ stake², Σ payout², Σ stake × payout: the staked rounds' variance.
    pub stake_squares: f64,
    /// See `stake_squares`.
    pub payout_squares: f64,
    /// See `stake_squares`.
    pub products: f64,
    /// Rounds without a stake, at unit stake: their count, Σ multiplier and Σ multiplier².
    pub unit_rounds: u64,
    /// See `unit_rounds`.
    pub multipliers: f64,
    /// See `unit_rounds`.
    pub multiplier_squares: f64,
    /// Σ weight × rtp and Σ weight over the counted rounds that declare an rtp (weight: the stake, or 1 at
    /// unit stake): the declared return of the mix.
    pub declared_weighted: f64,
    /// See `declared_weighted`.
    pub declared_weight: f64,
    /// The distinct declared RTPs (their text, at most 8).
    pub declared: BTreeSet<String>,
}

impl GroupSums {
    fn add(&mut self, stake: Option<(u64, u64)>, unit: Option<f64>, rtp: Option<fairmines::Rtp>) {
        let weight = match (stake, unit) {
            (Some((stake, payout)), _) => {
                self.staked_rounds += 1;
                self.stake_total += u128::from(stake);
                self.payout_total += u128::from(payout);
                let (x, y) = (stake as f64, payout as f64);
                self.stake_squares += x * x;
                self.payout_squares += y * y;
                self.products += x * y;
                x
            }
            (None, Some(m)) => {
                self.unit_rounds += 1;
                self.multipliers += m;
                self.multiplier_squares += m * m;
                1.0
            }
            (None, None) => return,
        };
        self.rounds += 1;
        if let Some(rtp) = rtp {
            self.declared_weighted += weight * rtp.factor().to_f64();
            self.declared_weight += weight;
            if self.declared.len() < MAX_RTPS {
                self.declared.insert(rtp.to_string());
            }
        }
    }

    fn merge(&mut self, other: &GroupSums) {
        self.rounds += other.rounds;
        self.staked_rounds += other.staked_rounds;
        self.stake_total += other.stake_total;
        self.payout_total += other.payout_total;
        self.stake_squares += other.stake_squares;
        self.payout_squares += other.payout_squares;
        self.products += other.products;
        self.unit_rounds += other.unit_rounds;
        self.multipliers += other.multipliers;
        self.multiplier_squares += other.multiplier_squares;
        self.declared_weighted += other.declared_weighted;
        self.declared_weight += other.declared_weight;
        for rtp in &other.declared {
            if self.declared.len() < MAX_RTPS {
                self.declared.insert(rtp.clone());
            }
        }
    }

    /// The group's return and its interval.
    pub fn group(&self) -> Group {
        // Staked rounds: the ratio estimator Σy/Σx, its variance from the residuals y − R·x; at unit stake
        // the mean multiplier and its standard error.
        let (realised, variance) = if self.staked_rounds > 0 && self.stake_total > 0 {
            let (n, sx) = (self.staked_rounds as f64, self.stake_total as f64);
            let r = self.payout_total as f64 / sx;
            let residuals = (self.payout_squares - 2.0 * r * self.products + r * r * self.stake_squares).max(0.0);
            let variance = if n > 1.0 { n / (n - 1.0) * residuals / (sx * sx) } else { f64::NAN };
            (Some(r), variance)
        } else if self.unit_rounds > 0 {
            let n = self.unit_rounds as f64;
            let mean = self.multipliers / n;
            let spread = (self.multiplier_squares - n * mean * mean).max(0.0);
            (Some(mean), if n > 1.0 { spread / (n - 1.0) / n } else { f64::NAN })
        } else {
            (None, f64::NAN)
        };
        let standard_error = variance.is_finite().then(|| variance.sqrt());
        let interval = realised.zip(standard_error).map(|(r, se)| (r - Z95 * se, r + Z95 * se));
        // One RTP declared: it, exactly; several: their mean weighted by stake.
        let single = match self.declared.iter().collect::<Vec<_>>()[..] {
            [text] => fairmines::Rtp::parse(text).ok().map(|rtp| rtp.factor().to_f64()),
            _ => None,
        };
        let declared_rtp =
            (self.declared_weight > 0.0).then(|| single.unwrap_or(self.declared_weighted / self.declared_weight));
        Group {
            rounds: self.rounds,
            staked_rounds: self.staked_rounds,
            stake_total: self.stake_total,
            payout_total: self.payout_total,
            realised_return: realised,
            standard_error,
            ci_low: interval.map(|i| i.0),
            ci_high: interval.map(|i| i.1),
            declared_rtp,
            declared_rtps: self.declared.iter().cloned().collect(),
            declared_inside: interval.zip(declared_rtp).map(|((low, high), rtp)| low <= rtp && rtp <= high),
        }
    }
}

/// The payout audit's counts: add rounds with [`PayoutCounts::add`], add parts with
/// [`PayoutCounts::merge`], report with [`PayoutCounts::audit`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PayoutCounts {
    /// Every counted round.
    pub overall: GroupSums,
    /// Index `m − 1`: rounds with `m` mines.
    pub by_mines: Vec<GroupSums>,
    /// By currency (rounds with a stake and a currency).
    pub by_currency: BTreeMap<String, GroupSums>,
    /// By player (rounds with a player).
    pub by_player: BTreeMap<String, GroupSums>,
    /// By seed pair (`commitment:client_seed`).
    pub by_seed_pair: BTreeMap<String, GroupSums>,
    /// Rounds left out of a group kind that already held [`MAX_GROUPS`] groups.
    pub groups_omitted: u64,
    /// Index `(m − 1) × 24 + (k − 1)`: `[reveals, safe]` of pick number `k` in rounds with `m` mines.
    pub reveals: Vec<[u64; 2]>,
}

/// One round as the payout audit counts it.
pub struct PayoutRound<'a> {
    /// The mine count.
    pub mines: MineCount,
    /// The picks, outcome, rtp and multiplier.
    pub play: Option<&'a Play>,
    /// The stake, payout, currency and player.
    pub wager: Option<&'a Wager>,
    /// The seed pair's key (`commitment:client_seed`).
    pub seed_pair: &'a str,
}

fn add_to(groups: &mut BTreeMap<String, GroupSums>, key: &str, omitted: &mut u64, add: impl FnOnce(&mut GroupSums)) {
    if let Some(group) = groups.get_mut(key) {
        add(group);
    } else if groups.len() < MAX_GROUPS {
        add(groups.entry(key.to_owned()).or_default());
    } else {
        *omitted += 1;
    }
}

impl PayoutCounts {
    fn grow(&mut self) {
        if self.by_mines.is_empty() {
            self.by_mines = vec![GroupSums::default(); 24];
            self.reveals = vec![[0; 2]; 24 * 24];
        }
    }

    /// Counts one round; `grid` is the placement its seeds give (the truth its reveals are counted against;
    /// without it the reveals are not counted).
    pub fn add(&mut self, round: PayoutRound<'_>, grid: Option<&Placement>) {
        let Some(play) = round.play else {
            return;
        };
        self.grow();
        let m = usize::from(round.mines.get() - 1);
        let mut seen = 0u32;
        let picks: &[u8] = if grid.is_some() { &play.picks } else { &[] };
        for (k, &tile) in picks.iter().enumerate().take(usize::from(TILES - round.mines.get())) {
            let bit = 1u32 << tile;
            if seen & bit != 0 {
                break;
            }
            seen |= bit;
            let cell = &mut self.reveals[m * 24 + k];
            cell[0] += 1;
            if grid.is_some_and(|grid| grid.is_mine(tile)) {
                break;
            }
            cell[1] += 1;
        }
        if play.outcome == Outcome::Voided {
            return;
        }
        let stake = round.wager.and_then(|w| w.stake.zip(w.payout));
        let unit = match play.outcome {
            Outcome::Lost => Some(0.0),
            _ => play.multiplier.map(fairmines::Ratio::to_f64),
        };
        let unit = if stake.is_none() { unit } else { None };
        if stake.is_none() && unit.is_none() {
            return;
        }
        let rtp = play.rtp;
        self.overall.add(stake, unit, rtp);
        self.by_mines[m].add(stake, unit, rtp);
        let omitted = &mut self.groups_omitted;
        if let (Some(currency), Some(_)) = (round.wager.and_then(|w| w.currency.as_deref()), stake) {
            add_to(&mut self.by_currency, currency, omitted, |g| g.add(stake, unit, rtp));
        }
        if let Some(player) = round.wager.and_then(|w| w.player.as_deref()) {
            add_to(&mut self.by_player, player, omitted, |g| g.add(stake, unit, rtp));
        }
        add_to(&mut self.by_seed_pair, round.seed_pair, omitted, |g| g.add(stake, unit, rtp));
    }

    /// Adds another part's counts.
    pub fn merge(&mut self, other: &PayoutCounts) {
        if other.by_mines.is_empty() {
            return;
        }
        self.grow();
        self.overall.merge(&other.overall);
        for (mine, theirs) in self.by_mines.iter_mut().zip(&other.by_mines) {
            mine.merge(theirs);
        }
        for (cell, theirs) in self.reveals.iter_mut().zip(&other.reveals) {
            cell[0] += theirs[0];
            cell[1] += theirs[1];
        }
        self.groups_omitted += other.groups_omitted;
        for (mine, theirs) in [
            (&mut self.by_currency, &other.by_currency),
            (&mut self.by_player, &other.by_player),
            (&mut self.by_seed_pair, &other.by_seed_pair),
        ] {
            for (key, sums) in theirs {
                if let Some(group) = mine.get_mut(key) {
                    group.merge(sums);
                } else if mine.len() < MAX_GROUPS {
                    mine.insert(key.clone(), sums.clone());
                } else {
                    // A group left out leaves out every round of it.
                    self.groups_omitted += sums.rounds;
                }
            }
        }
    }

    /// The audit; `None` when no round has a play.
    pub fn audit(&self) -> Option<PayoutAudit> {
        if self.by_mines.is_empty() {
            return None;
        }
        let named = |groups: &BTreeMap<String, GroupSums>| {
            groups.iter().map(|(key, sums)| NamedGroup { key: key.clone(), group: sums.group() }).collect()
        };
        let mut hit_rates = Vec::new();
        for m in 1..=24u8 {
            for k in 1..=(TILES - m) {
                let [reveals, safe] = self.reveals[usize::from(m - 1) * 24 + usize::from(k - 1)];
                if reveals == 0 {
                    continue;
                }
                let (num, den) = (u64::from(TILES - m - k + 1), u64::from(TILES - k + 1));
                let p = num as f64 / den as f64;
                let n = reveals as f64;
                let sd = (n * p * (1.0 - p)).sqrt();
                hit_rates.push(HitRate {
                    mines: m,
                    pick: k,
                    reveals,
                    safe,
                    rate: safe as f64 / n,
                    expected: p,
                    expected_exact: fairmines::Ratio::new(u128::from(num), u128::from(den))
                        .map_or_else(String::new, |r| r.to_string()),
                    z: if sd > 0.0 { (safe as f64 - n * p) / sd } else { 0.0 },
                });
            }
        }
        Some(PayoutAudit {
            overall: self.overall.group(),
            by_mines: (1..=24u8)
                .zip(&self.by_mines)
                .filter(|(_, sums)| sums.rounds > 0)
                .map(|(mines, sums)| MinesGroup { mines, group: sums.group() })
                .collect(),
            by_currency: named(&self.by_currency),
            by_player: named(&self.by_player),
            by_seed_pair: named(&self.by_seed_pair),
            groups_omitted: self.groups_omitted,
            hit_rates,
        })
    }
}

/// What a group of rounds returned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Rounds counted (not voided, with a stake and payout, or a multiplier or a loss).
    pub rounds: u64,
    /// Of them, with a stake and a payout.
    pub staked_rounds: u64,
    /// Σ stake, minor units (in JSON a number; beyond 2^64 − 1, a float).
    #[serde(serialize_with = "wide")]
    pub stake_total: u128,
    /// Σ payout, minor units (as `stake_total`).
    #[serde(serialize_with = "wide")]
    pub payout_total: u128,
    /// Σ payout / Σ stake; without stakes, the mean multiplier at unit stake (0 for a lost round).
    pub realised_return: Option<f64>,
    /// Its standard error, from the rounds' own variance (the ratio estimator's); `None` for one round.
    pub standard_error: Option<f64>,
    /// The 95% confidence interval, `realised_return ± 1.96 × standard_error`.
    pub ci_low: Option<f64>,
    /// See `ci_low`.
    pub ci_high: Option<f64>,
    /// The RTP the rounds declare (their `rtp`, weighted by stake where there are several).
    pub declared_rtp: Option<f64>,
    /// The distinct RTPs declared (their text).
    pub declared_rtps: Vec<String>,
    /// Whether `declared_rtp` lies inside the interval: `false` says the game did not pay what it declares.
    pub declared_inside: Option<bool>,
}

/// A total as an integer where it fits 64 bits (every JSON reader takes those), else as a float.
fn wide<S: serde::Serializer>(total: &u128, serializer: S) -> Result<S::Ok, S::Error> {
    match u64::try_from(*total) {
        Ok(total) => serializer.serialize_u64(total),
        Err(_) => serializer.serialize_f64(*total as f64),
    }
}

/// A [`Group`] of one mine count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinesGroup {
    /// The mine count.
    pub mines: u8,
    /// Its rounds' return.
    #[serde(flatten)]
    pub group: Group,
}

/// A [`Group`] named by its currency, player or seed pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedGroup {
    /// The currency, player or `commitment:client_seed`.
    pub key: String,
    /// Its rounds' return.
    #[serde(flatten)]
    pub group: Group,
}

/// The share of the k-th reveals of rounds with `mines` mines that were safe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitRate {
    /// The mine count.
    pub mines: u8,
    /// The pick number k (1 is the first reveal).
    pub pick: u8,
    /// Rounds that made a k-th reveal.
    pub reveals: u64,
    /// Of them, safe.
    pub safe: u64,
    /// `safe / reveals`.
    pub rate: f64,
    /// The exact probability, `(25 − mines − k + 1) / (25 − k + 1)`, as a float.
    pub expected: f64,
    /// The same as a fraction (`"20/23"`).
    pub expected_exact: String,
    /// `(safe − reveals × expected) / √(reveals × expected × (1 − expected))`.
    pub z: f64,
}

/// The payout audit: returns overall and by group, and the hit rates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PayoutAudit {
    /// Every counted round.
    pub overall: Group,
    /// Per mine count.
    pub by_mines: Vec<MinesGroup>,
    /// Per currency.
    pub by_currency: Vec<NamedGroup>,
    /// Per player.
    pub by_player: Vec<NamedGroup>,
    /// Per seed pair.
    pub by_seed_pair: Vec<NamedGroup>,
    /// Rounds left out of the per-currency, per-player or per-seed-pair groups (each kind lists at most
    /// 1,000 groups; they still count overall and per mine count).
    pub groups_omitted: u64,
    /// Per mine count and pick number.
    pub hit_rates: Vec<HitRate>,
}
