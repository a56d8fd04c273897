//! Payouts: the fair multiplier C(25, k) / C(25 − m, k) after k safe picks with m mines, scaled by the
//! operator's return-to-player factor, in exact rational arithmetic.
//!
//! The operator's own RTP factor is not published with the algorithm, so it is always a parameter here;
//! nothing claims a default for any operator.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Error, MineCount, Number, TILES};

/// A non-negative exact fraction in lowest terms.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ratio {
    /// `num / den` in lowest terms; `None` when `den` is 0.
    pub fn new(num: u128, den: u128) -> Option<Self> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den).max(1);
        Some(Ratio { num: num / g, den: den / g })
    }

    /// The numerator, in lowest terms.
    pub const fn numer(&self) -> u128 {
        self.num
    }

    /// The denominator, in lowest terms (never 0).
    pub const fn denom(&self) -> u128 {
        self.den
    }

    /// The product, or `None` on overflow (which the game's numbers never reach).
    pub fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        // Cross-reduce first so the products stay small.
        let g1 = gcd(self.num, other.den).max(1);
        let g2 = gcd(other.num, self.den).max(1);
        Ratio::new((self.num / g1).checked_mul(other.num / g2)?, (self.den / g2).checked_mul(other.den / g1)?)
    }

    /// The nearest `f64`, for display and statistics only.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The decimal shown to users: the value rounded **down** (toward zero) to `places` decimal places,
    /// so a displayed multiplier never promises more than the exact one.
    ///
    /// ```
    /// use fairmines::{Places, Ratio};
    /// let m = Ratio::new(2475, 100).unwrap();
    /// assert_eq!(m.to_decimal(Places::new(2)?), "24.75");
    /// assert_eq!(Ratio::new(2, 3).unwrap().to_decimal(Places::new(2)?), "0.66");
    /// assert_eq!(Ratio::new(5, 1).unwrap().to_decimal(Places::new(0)?), "5");
    /// # Ok::<(), fairmines::Error>(())
    /// ```
    pub fn to_decimal(self, places: Places) -> String {
        let places = places.get();
        let mut text = (self.num / self.den).to_string();
        if places > 0 {
            text.push('.');
        }
        // Long division, one digit at a time; `next_digit` never overflows, whatever the denominator.
        let mut rem = self.num % self.den;
        for _ in 0..places {
            let (digit, next) = next_digit(rem, self.den);
            text.push(char::from(b'0' + digit));
            rem = next;
        }
        text
    }
}

/// A number of decimal places to show: 0..=18 (more would only show the rounding of the exact value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Places(u8);

impl Places {
    /// The most places shown.
    pub const MAX: u8 = 18;
    /// Two places, as multipliers are usually shown (`1.12`).
    pub const TWO: Places = Places(2);

    /// Checks `places` (any number a binding has): an error naming `places` outside 0..=18, never a clamp.
    pub fn new(places: impl Into<Number>) -> Result<Self, Error> {
        let places = places.into();
        match places.integer().and_then(|p| u8::try_from(p).ok()) {
            Some(p) if p <= Self::MAX => Ok(Places(p)),
            _ => Err(Error::InvalidNumber {
                argument: "places",
                detail: format!("must be a whole number from 0 to {}, got {places}", Self::MAX),
            }),
        }
    }

    /// The number of places.
    pub const fn get(self) -> u32 {
        self.0 as u32
    }
}

/// For `rem < den`: the digit and remainder of `10 × rem / den`, by adding `rem` ten times modulo `den`
/// (`10 × rem` itself may not fit in 128 bits).
fn next_digit(rem: u128, den: u128) -> (u8, u128) {
    let (mut digit, mut acc) = (0, 0u128);
    for _ in 0..10 {
        // acc + rem ≥ den, written without overflow (both are below den).
        if acc >= den - rem {
            acc -= den - rem;
            digit += 1;
        } else {
            acc += rem;
        }
    }
    (digit, acc)
}

impl fmt::Display for Ratio {
    /// `num/den`, or just `num` for a whole number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 { write!(f, "{}", self.num) } else { write!(f, "{}/{}", self.num, self.den) }
    }
}

impl fmt::Debug for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Ratio({self})")
    }
}

impl FromStr for Ratio {
    type Err = Error;
    /// Parses `num/den`, a whole number, or a decimal such as `0.99` (exactly: 99/100).
    fn from_str(text: &str) -> Result<Self, Error> {
        Ratio::parse(text, "ratio")
    }
}

impl Ratio {
    /// `numerator / denominator` from values as a binding received them, in lowest terms: each part an
    /// integer in 0..2^128, the denominator not 0.
    pub fn from_parts(numerator: impl Into<Number>, denominator: impl Into<Number>) -> Result<Ratio, Error> {
        let num = crate::input::ratio_part(numerator.into(), "numerator")?;
        let den = crate::input::ratio_part(denominator.into(), "denominator")?;
        Ratio::try_new(num, den)
    }

    /// `num / den` in lowest terms; an error naming `denominator` when it is 0 (where [`Ratio::new`] gives
    /// `None`).
    pub fn try_new(num: u128, den: u128) -> Result<Ratio, Error> {
        Ratio::new(num, den)
            .ok_or_else(|| Error::InvalidNumber { argument: "denominator", detail: "must not be 0".to_owned() })
    }

    /// Parses `num/den`, a whole number, or a decimal such as `0.99` (exactly: 99/100); the error names
    /// `argument`.
    pub fn parse(text: &str, argument: &'static str) -> Result<Ratio, Error> {
        let bad = || Error::InvalidNumber {
            argument,
            detail: format!("{text:?} is not a fraction like 99/100 or a decimal like 0.99"),
        };
        let text_t = text.trim();
        let parsed = if let Some((num, den)) = text_t.split_once('/') {
            Ratio::new(num.trim().parse().map_err(|_| bad())?, den.trim().parse().map_err(|_| bad())?)
        } else if let Some((whole, frac)) = text_t.split_once('.') {
            if frac.is_empty() || frac.len() > 30 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            let whole: u128 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad())? };
            let scale = 10u128.pow(frac.len() as u32);
            let frac: u128 = frac.parse().map_err(|_| bad())?;
            whole.checked_mul(scale).and_then(|w| w.checked_add(frac)).and_then(|num| Ratio::new(num, scale))
        } else {
            Ratio::new(text_t.parse().map_err(|_| bad())?, 1)
        };
        parsed.ok_or_else(bad)
    }
}

impl Serialize for Ratio {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ratio {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The return-to-player factor: a fraction in (0, 1], e.g. `Rtp::parse("0.99")`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "Ratio", into = "Ratio")]
pub struct Rtp(Ratio);

impl Rtp {
    /// Checks that `factor` is above 0 and at most 1.
    pub fn new(factor: Ratio) -> Result<Self, Error> {
        if factor.num == 0 || factor.num > factor.den {
            return Err(Error::InvalidRtp { detail: format!("must be above 0 and at most 1, got {factor}") });
        }
        Ok(Rtp(factor))
    }

    /// Parses `0.99`, `99/100` or `1`; white space around the text is refused (a padded value is a caller's
    /// slip, the same in every binding), not trimmed.
    pub fn parse(text: &str) -> Result<Self, Error> {
        let bad =
            || Error::InvalidRtp { detail: format!("{text:?} is not a fraction like 99/100 or a decimal like 0.99") };
        if text.trim() != text {
            return Err(bad());
        }
        Rtp::new(text.parse().map_err(|_| bad())?)
    }

    /// The factor.
    pub const fn factor(self) -> Ratio {
        self.0
    }
}

impl TryFrom<Ratio> for Rtp {
    type Error = Error;
    fn try_from(factor: Ratio) -> Result<Self, Error> {
        Rtp::new(factor)
    }
}

impl From<Rtp> for Ratio {
    fn from(rtp: Rtp) -> Ratio {
        rtp.0
    }
}

impl fmt::Display for Rtp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// C(n, k), exactly.
fn binomial(n: u8, k: u8) -> u128 {
    if k > n {
        return 0;
    }
    let (n, k) = (u128::from(n), u128::from(k.min(n - k)));
    // Each partial product C(n, i) is a whole number, so the division is exact at every step.
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The most safe picks a round with `mines` mines allows.
pub fn max_safe_picks(mines: MineCount) -> u8 {
    TILES - mines.get()
}

/// The multiplier after `safe_picks` safe picks: C(25, k) / C(25 − m, k) × RTP, exactly.
/// `safe_picks` (any integer type) must be from 1 to 25 − mines; any other value is an error naming it.
///
/// ```
/// use fairmines::{multiplier, MineCount, Places, Rtp};
/// let m = multiplier(MineCount::new(3)?, 1, Rtp::parse("0.99")?)?;
/// assert_eq!(m, fairmines::Ratio::new(9, 8).unwrap()); // 25/22 × 99/100 = 1.125
/// assert_eq!(m.to_decimal(Places::new(2)?), "1.12");
/// assert_eq!(multiplier(MineCount::new(3)?, 259, Rtp::parse("0.99")?).unwrap_err().code(), 13);
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn multiplier(mines: MineCount, safe_picks: impl Into<Number>, rtp: Rtp) -> Result<Ratio, Error> {
    let max = max_safe_picks(mines);
    let wide = safe_picks.into();
    let Some(safe_picks) = wide.integer().and_then(|k| u8::try_from(k).ok()).filter(|k| (1..=max).contains(k)) else {
        return Err(Error::InvalidPicks {
            detail: format!("must be from 1 to {max} with {} mines, got {wide}", mines.get()),
        });
    };
    let fair = Ratio::new(binomial(TILES, safe_picks), binomial(max, safe_picks));
    fair.and_then(|f| f.checked_mul(rtp.0))
        .ok_or_else(|| Error::InvalidPicks { detail: "the multiplier does not fit in 128 bits".to_owned() })
}

/// One entry of the payout table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TableEntry {
    /// Mines in the round.
    pub mines: u8,
    /// Safe picks made.
    pub safe_picks: u8,
    /// The exact multiplier.
    pub multiplier: Ratio,
}

/// The whole table: every mine count 1..=24 and every number of safe picks 1..=25 − mines.
pub fn payout_table(rtp: Rtp) -> Vec<TableEntry> {
    let mut table = Vec::new();
    for m in MineCount::MIN..=MineCount::MAX {
        let Ok(mines) = MineCount::new(u32::from(m)) else { continue };
        for k in 1..=max_safe_picks(mines) {
            if let Ok(multiplier) = multiplier(mines, k, rtp) {
                table.push(TableEntry { mines: m, safe_picks: k, multiplier });
            }
        }
    }
    table
}

/// Every multiplier a round can reach must be exact in 128 bits, so that no reveal or cash-out can fail on
/// arithmetic once a pick is made (only RTPs with enormous denominators come near).
pub(crate) fn check_exact_multipliers(mines: MineCount, rtp: Rtp) -> Result<(), Error> {
    // Every C(25, k) and C(25 − m, k) is below 2^23 and the RTP's numerator is at most its denominator, so
    // with a denominator below 2^105 no product reaches 2^128: every multiplier is exact, none need be made
    // (a restored state checks its rounds this way on every move of a service).
    if rtp.0.den < EXACT_DENOMINATORS {
        return Ok(());
    }
    first_inexact_multiplier(mines, rtp).map_or(Ok(()), |safe_picks| {
        Err(Error::InvalidRtp {
            detail: format!(
                "{rtp} makes the multiplier after {safe_picks} safe picks with {} mines too large to be exact",
                mines.get()
            ),
        })
    })
}

/// RTP denominators below this make every multiplier exact (see `check_exact_multipliers`).
const EXACT_DENOMINATORS: u128 = 1 << 105;

/// The fewest safe picks whose multiplier does not fit in 128 bits, each multiplier made.
fn first_inexact_multiplier(mines: MineCount, rtp: Rtp) -> Option<u8> {
    (1..=max_safe_picks(mines)).find(|&safe_picks| multiplier(mines, safe_picks, rtp).is_err())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    #[test]
    fn binomials_stay_below_the_bound_the_exactness_shortcut_assumes() {
        assert!((0..=25).all(|k| binomial(25, k) < 1 << 23));
    }

    #[test]
    fn the_exactness_shortcut_agrees_with_making_every_multiplier() {
        let below = EXACT_DENOMINATORS - 1;
        let above = EXACT_DENOMINATORS + 1;
        // Denominators just below and above the bound (Ratio::new reduces each to lowest terms).
        let rtps = [
            (below - 1, below),
            (1, below),
            (below / 3, below),
            (above - 1, above),
            (1, above),
            (u128::MAX - 1, u128::MAX),
            (99, 100),
        ];
        let mut refused = 0;
        for (num, den) in rtps {
            let rtp = Rtp::new(Ratio::new(num, den).unwrap()).unwrap();
            for m in 1..=24 {
                let mines = MineCount::new(m).unwrap();
                let full = first_inexact_multiplier(mines, rtp);
                assert_eq!(check_exact_multipliers(mines, rtp).is_ok(), full.is_none(), "{rtp} with {m} mines");
                if den < EXACT_DENOMINATORS {
                    assert_eq!(full, None, "{rtp} with {m} mines: the shortcut says exact");
                }
                refused += usize::from(full.is_some());
            }
        }
        assert!(refused > 0, "some RTP above the bound is refused, so the comparison means something");
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(25, 0), 1);
        assert_eq!(binomial(25, 1), 25);
        assert_eq!(binomial(25, 12), 5_200_300);
        assert_eq!(binomial(25, 25), 1);
        assert_eq!(binomial(5, 3), 10);
    }

    /// The chance of surviving k picks, computed pick by pick, independently of the binomials.
    fn survival(mines: u8, picks: u8) -> Ratio {
        (0..picks).fold(Ratio::new(1, 1).unwrap(), |p, i| {
            p.checked_mul(Ratio::new(u128::from(TILES - mines - i), u128::from(TILES - i)).unwrap()).unwrap()
        })
    }

    #[test]
    fn every_fixed_pick_strategy_returns_exactly_the_rtp() {
        for rtp in ["0.99", "0.97", "1", "987/1000", "0.5"] {
            let rtp = Rtp::parse(rtp).unwrap();
            let table = payout_table(rtp);
            assert_eq!(table.len(), (1..=24).map(|m| 25 - m).sum::<usize>());
            for entry in table {
                let expected = survival(entry.mines, entry.safe_picks).checked_mul(entry.multiplier).unwrap();
                assert_eq!(expected, rtp.factor(), "{entry:?}");
            }
        }
    }

    #[test]
    fn known_multipliers() {
        let one = Rtp::parse("1").unwrap();
        let m = |mines: u32, k| multiplier(MineCount::new(mines).unwrap(), k, one).unwrap();
        assert_eq!(m(1, 1), Ratio::new(25, 24).unwrap());
        assert_eq!(m(24, 1), Ratio::new(25, 1).unwrap());
        assert_eq!(m(3, 22), Ratio::new(2300, 1).unwrap()); // C(25,22) / C(22,22)
        assert!(multiplier(MineCount::new(3).unwrap(), 23, one).is_err());
        assert!(multiplier(MineCount::new(3).unwrap(), 0, one).is_err());
    }

    #[test]
    fn parsing_and_rounding() {
        assert_eq!("0.99".parse::<Ratio>().unwrap(), Ratio::new(99, 100).unwrap());
        assert_eq!("198/200".parse::<Ratio>().unwrap().to_string(), "99/100");
        assert_eq!(".5".parse::<Ratio>().unwrap(), Ratio::new(1, 2).unwrap());
        for bad in ["", "x", "1/0", "0.", "-1", "1.2.3", "1/-2"] {
            assert!(bad.parse::<Ratio>().is_err(), "{bad}");
        }
        assert!(Rtp::parse("0").is_err());
        assert!(Rtp::parse("1.01").is_err());
        assert_eq!(Rtp::parse("abc").unwrap_err().argument(), Some("rtp"));
        for padded in ["0.99 ", " 0.99", "\t99/100", "1\n"] {
            let error = Rtp::parse(padded).unwrap_err();
            assert_eq!((error.kind(), error.argument()), (ErrorKind::InvalidRtp, Some("rtp")), "{padded:?}");
        }
        let places = |p: u8| Places::new(p).unwrap();
        assert_eq!(Ratio::new(1, 3).unwrap().to_decimal(places(4)), "0.3333");
        assert_eq!(Ratio::new(2, 1).unwrap().to_decimal(places(2)), "2.00");
        assert_eq!(Ratio::new(199, 100).unwrap().to_decimal(places(1)), "1.9");
        // Denominators near 2^128: the digits stay exact.
        assert_eq!(Ratio::new(u128::MAX, 1 << 127).unwrap().to_decimal(places(2)), "1.99");
        let third: Ratio = "0.333333333333333333333333333333".parse().unwrap();
        assert_eq!(third.to_decimal(places(18)), "0.333333333333333333");
        assert_eq!(Ratio::new(u128::MAX - 1, u128::MAX).unwrap().to_decimal(places(18)), "0.999999999999999999");
        for refused in [19, 255, 256, -1, i128::MAX] {
            let e = Places::new(refused).unwrap_err();
            assert_eq!((e.code(), e.argument()), (14, Some("places")));
            assert_eq!(e.to_string(), format!("places: must be a whole number from 0 to 18, got {refused}"));
        }
    }

    /// The table is ordered by mines, then safe picks; multipliers rise with every safe pick and every
    /// extra mine; and each decimal is the exact value rounded down, at every number of places
    /// (checked with floor(value × 10^places), an independent computation for these small fractions).
    #[test]
    fn the_table_is_ordered_rising_and_rounded_down() {
        // Under Miri (about a thousand times slower) one factor and a few place counts.
        let (rtps, places): (&[&str], Vec<u8>) = if cfg!(miri) {
            (&["0.99"], vec![0, 2, 18])
        } else {
            (&["0.99", "0.97", "1", "1/3"], (0..=Places::MAX).collect())
        };
        for &rtp in rtps {
            let rtp = Rtp::parse(rtp).unwrap();
            let table = payout_table(rtp);
            let keys: Vec<(u8, u8)> = table.iter().map(|e| (e.mines, e.safe_picks)).collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            assert_eq!(keys, sorted);
            let value = |m: u8, k: u8| multiplier(MineCount::new(u32::from(m)).unwrap(), k, rtp).unwrap();
            for e in &table {
                let m = e.multiplier;
                if e.safe_picks > 1 {
                    let before = value(e.mines, e.safe_picks - 1);
                    assert!(m.num * before.den > before.num * m.den, "{e:?}");
                }
                if e.mines < MineCount::MAX
                    && e.safe_picks <= max_safe_picks(MineCount::new(u32::from(e.mines) + 1).unwrap())
                {
                    let more = value(e.mines + 1, e.safe_picks);
                    assert!(more.num * m.den > m.num * more.den, "{e:?}");
                }
                for &p in &places {
                    let scale = 10u128.pow(u32::from(p));
                    let floor = m.num * scale / m.den; // fits: these numerators are far below 2^128 / 10^18
                    let (whole, frac) = (floor / scale, floor % scale);
                    let expected =
                        if p == 0 { whole.to_string() } else { format!("{whole}.{frac:0w$}", w = usize::from(p)) };
                    assert_eq!(m.to_decimal(Places::new(p).unwrap()), expected, "{e:?} at {p}");
                }
            }
        }
    }
}
