//! Values as the bindings receive them, and the rules that judge them: every input rule of the library is
//! here (or in the type it builds), reachable with the widest value any binding has, so that no binding
//! checks a range, formats a rule's message or rewrites one.

use core::fmt;

use crate::{Error, MineCount, Outcome, TILES, Tiles};

/// A number as a binding received it, before any rule has judged it: an integer of any width (Python's
/// `int`, a JavaScript `bigint`, C's `int64_t`), or a float (a JavaScript `number`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An integer that fits in 128 bits.
    Int(i128),
    /// A floating-point number; it counts as an integer only when it is one exactly and within
    /// ±[`Number::MAX_EXACT_FLOAT`] (beyond it, a float may be a rounded literal).
    Float(f64),
    /// A whole number above `i128::MAX` that fits in 128 bits unsigned (only a ratio's part can be one).
    Big(u128),
    /// An integer beyond both (below −2^127 or from 2^128 up): out of range for every rule; its sign.
    Huge {
        /// Whether it is below zero.
        negative: bool,
    },
}

impl Number {
    /// 2^53 − 1: the largest integer up to which every integer is exactly a float (JavaScript's
    /// `Number.MAX_SAFE_INTEGER`).
    pub const MAX_EXACT_FLOAT: f64 = 9_007_199_254_740_991.0;

    /// An integer given as its sign and magnitude (a JavaScript `bigint`, a Python `int`); `None` for a
    /// magnitude beyond 128 bits.
    pub fn from_sign_magnitude(negative: bool, magnitude: Option<u128>) -> Number {
        match magnitude {
            Some(0) => Number::Int(0),
            Some(m) if !negative => i128::try_from(m).map_or(Number::Big(m), Number::Int),
            Some(m) if m <= i128::MIN.unsigned_abs() => Number::Int(0i128.wrapping_sub_unsigned(m)),
            _ => Number::Huge { negative },
        }
    }

    /// The integer this number is exactly, if it is one that fits in an `i128`.
    #[inline]
    pub fn integer(self) -> Option<i128> {
        match self {
            Number::Int(value) => Some(value),
            Number::Float(x) if x.fract() == 0.0 && x.abs() <= Self::MAX_EXACT_FLOAT => Some(x as i128),
            Number::Float(_) | Number::Big(_) | Number::Huge { .. } => None,
        }
    }

    /// The integer if it is one in `range`, else `None`.
    #[inline]
    fn within<T: TryFrom<i128>>(self, range: core::ops::RangeInclusive<i128>) -> Option<T> {
        self.integer().filter(|v| range.contains(v)).and_then(|v| T::try_from(v).ok())
    }

    /// A float beyond the exact range is shown with the reason it is refused.
    fn shown(self) -> String {
        match self {
            Number::Float(x) if x.is_finite() && x.fract() == 0.0 && x.abs() > Self::MAX_EXACT_FLOAT => {
                format!("{self} (a float is exact only up to {})", Self::MAX_EXACT_FLOAT)
            }
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Number {
    /// Integers in decimal; floats as JavaScript prints them (`3.9`, `NaN`, `Infinity`, `1e+21`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Number::Int(value) => write!(f, "{value}"),
            Number::Float(x) if x.is_nan() => f.write_str("NaN"),
            Number::Float(x) if x.is_infinite() => f.write_str(if x > 0.0 { "Infinity" } else { "-Infinity" }),
            Number::Float(0.0) => f.write_str("0"), // also -0.0, as JavaScript shows it
            Number::Float(x) if x.abs() >= 1e21 || x.abs() < 1e-6 => {
                // JavaScript's exponent form: 1e+21, 1.5e-7.
                let text = format!("{x:e}");
                match text.split_once('e') {
                    Some((mantissa, exp)) if !exp.starts_with('-') => write!(f, "{mantissa}e+{exp}"),
                    _ => f.write_str(&text),
                }
            }
            Number::Float(x) => write!(f, "{x}"),
            Number::Big(value) => write!(f, "{value}"),
            Number::Huge { negative: true } => f.write_str("an integer below -2^127"),
            Number::Huge { negative: false } => f.write_str("an integer of 2^128 or more"),
        }
    }
}

macro_rules! number_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            #[inline]
            fn from(value: $t) -> Number {
                Number::Int(i128::from(value))
            }
        }
    )*};
}
number_from_int!(u8, u16, u32, u64, i8, i16, i32, i64, i128);

impl From<u128> for Number {
    fn from(value: u128) -> Number {
        Number::from_sign_magnitude(false, Some(value))
    }
}

impl From<usize> for Number {
    fn from(value: usize) -> Number {
        Number::Int(value as i128)
    }
}

impl From<f64> for Number {
    fn from(value: f64) -> Number {
        Number::Float(value)
    }
}

impl TryFrom<Number> for MineCount {
    type Error = Error;
    #[inline]
    fn try_from(mines: Number) -> Result<Self, Error> {
        let range = i128::from(MineCount::MIN)..=i128::from(MineCount::MAX);
        mines.within(range).map(MineCount::from_checked).ok_or(Error::InvalidMines { got: mines })
    }
}

/// A nonce: an integer in 0..=2^64 − 1.
#[inline]
pub fn nonce(nonce: Number) -> Result<u64, Error> {
    nonce.within(0..=i128::from(u64::MAX)).ok_or_else(|| Error::InvalidNonce {
        detail: format!("must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got {}", nonce.shown()),
    })
}

/// A range of `count` nonces from `first`: its last nonce must be at most 2^64 − 1. Returns the last one
/// (`None` for an empty range).
pub fn nonce_range(first: u64, count: u64) -> Result<Option<u64>, Error> {
    if count == 0 {
        return Ok(None);
    }
    first.checked_add(count - 1).map(Some).ok_or_else(|| Error::InvalidNonce {
        detail: format!("the range from {first} with {count} nonces passes 2^64 - 1"),
    })
}

/// The most bytes one batch writes (rounds × mines): 4 GiB, the largest typed array JavaScript engines make.
/// Larger audits run as several batches.
pub const MAX_BATCH_BYTES: u64 = 1 << 32;

/// The bytes a batch of `rounds` rounds of `mines` mines writes, refused with an error naming `nonces`
/// above [`MAX_BATCH_BYTES`] (or above what this platform can address).
pub fn batch_bytes(rounds: u128, mines: MineCount) -> Result<usize, Error> {
    let bytes = rounds.saturating_mul(u128::from(mines.get()));
    u64::try_from(bytes).ok().filter(|&b| b <= MAX_BATCH_BYTES).and_then(|b| usize::try_from(b).ok()).ok_or_else(|| {
        Error::InvalidNumber {
            argument: "nonces",
            detail: format!(
                "{rounds} rounds at mines = {} need {bytes} bytes, and one batch writes at most {MAX_BATCH_BYTES} \
                 (4 GiB): split it into batches of at most {} rounds",
                mines.get(),
                MAX_BATCH_BYTES / u64::from(mines.get())
            ),
        }
    })
}

/// A cap on the threads a batch runs on (`BatchOptions::threads`): an integer of at least 1. `argument`
/// names it in the error.
pub fn threads(threads: Number, argument: &'static str) -> Result<core::num::NonZeroUsize, Error> {
    let cap = threads.within(1..=i128::MAX).and_then(core::num::NonZeroUsize::new);
    cap.ok_or_else(|| Error::InvalidNumber {
        argument,
        detail: format!("must be an integer of at least 1, got {}", threads.shown()),
    })
}

/// A count that may be 0 (`max_failures`: how many failures a report keeps): an integer in 0..=2^64 − 1.
/// `argument` names it in the error.
pub fn count(count: Number, argument: &'static str) -> Result<u64, Error> {
    count.within(0..=i128::from(u64::MAX)).ok_or_else(|| Error::InvalidNumber {
        argument,
        detail: format!("must be an integer of at least 0, got {}", count.shown()),
    })
}

/// A tile of the board: an integer in 1..=25. `argument` names it in the error (`tile`).
#[inline]
pub fn tile(tile: Number, argument: &'static str) -> Result<u8, Error> {
    tile.within(1..=i128::from(TILES))
        .ok_or_else(|| Error::InvalidTile { argument, detail: format!("must be from 1 to 25, got {}", tile.shown()) })
}

/// Tiles as given, in order (declared positions or picks): at most 25, each in 1..=25, repeats kept (a
/// repeat fails the comparison that follows). `argument` names the list in the error.
pub fn tiles<I>(tiles: I, argument: &'static str) -> Result<Tiles, Error>
where
    I: IntoIterator,
    I::Item: Into<Number>,
{
    let mut out = Tiles::default();
    for (index, tile) in tiles.into_iter().enumerate() {
        let tile = tile.into();
        let Some(value) = tile.within(1..=i128::from(TILES)) else {
            return Err(Error::InvalidTile {
                argument,
                detail: format!("tile {} at index {index} is not between 1 and 25", tile.shown()),
            });
        };
        if index == usize::from(TILES) {
            return Err(Error::InvalidTile { argument, detail: "more than 25 tiles on a 25-tile board".to_owned() });
        }
        out.push(value);
    }
    Ok(out)
}

/// A whole number for one part of an exact ratio, 0..2^128 (`argument`: e.g. `numerator`).
pub fn ratio_part(part: Number, argument: &'static str) -> Result<u128, Error> {
    match part {
        Number::Big(value) => Some(value),
        _ => part.integer().and_then(|v| u128::try_from(v).ok()),
    }
    .ok_or_else(|| Error::InvalidNumber {
        argument,
        detail: format!("must be an integer in 0..2^128, got {}", part.shown()),
    })
}

/// A whole number written in decimal digits, 0..2^128 (the text form of a ratio's part).
pub fn ratio_part_text(part: &str, argument: &'static str) -> Result<u128, Error> {
    part.parse::<u128>().ok().filter(|_| part.bytes().all(|b| b.is_ascii_digit())).ok_or_else(|| Error::InvalidNumber {
        argument,
        detail: format!("must be decimal digits of an integer in 0..2^128, got {part:?}"),
    })
}

/// How a round ended, from the text of a record: `"lost"`, `"cashed_out"` or `"voided"`.
pub fn outcome(text: &str, argument: &'static str) -> Result<Outcome, Error> {
    Outcome::ALL.into_iter().find(|o| o.as_str() == text).ok_or_else(|| Error::InvalidState {
        argument,
        detail: format!("must be \"lost\", \"cashed_out\" or \"voided\", got {text:?}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_count_as_integers_only_when_exact() {
        assert_eq!(Number::Float(3.0).integer(), Some(3));
        assert_eq!(Number::Float(3.5).integer(), None);
        assert_eq!(Number::Float(f64::NAN).integer(), None);
        assert_eq!(Number::Float(Number::MAX_EXACT_FLOAT).integer(), Some(9_007_199_254_740_991));
        assert_eq!(Number::Float(9_007_199_254_740_992.0).integer(), None);
        assert_eq!(Number::Huge { negative: false }.integer(), None);
    }

    #[test]
    fn sign_and_magnitude_cover_every_width() {
        let n = Number::from_sign_magnitude;
        assert_eq!(n(false, Some(5)), Number::Int(5));
        assert_eq!(n(true, Some(0)), Number::Int(0));
        assert_eq!(n(true, Some(1 << 127)), Number::Int(i128::MIN));
        assert_eq!(n(true, Some((1 << 127) + 1)), Number::Huge { negative: true });
        assert_eq!(n(false, Some(1 << 127)), Number::Big(1 << 127));
        assert_eq!(n(false, None), Number::Huge { negative: false });
        assert_eq!(ratio_part(n(false, Some(u128::MAX)), "numerator").unwrap(), u128::MAX);
        assert!(nonce(n(false, Some(u128::MAX))).is_err());
    }

    #[test]
    fn numbers_are_shown_as_their_language_writes_them() {
        let shown = |n: Number| n.to_string();
        assert_eq!(shown(Number::Int(-3)), "-3");
        assert_eq!(shown(Number::Float(3.9)), "3.9");
        assert_eq!(shown(Number::Float(25.0)), "25");
        assert_eq!(shown(Number::Float(-0.0)), "0");
        assert_eq!(shown(Number::Float(f64::NEG_INFINITY)), "-Infinity");
        assert_eq!(shown(Number::Float(1e21)), "1e+21");
        assert_eq!(shown(Number::Float(1.5e-7)), "1.5e-7");
        assert_eq!(shown(Number::Huge { negative: true }), "an integer below -2^127");
        assert_eq!(shown(Number::from(u128::MAX)), "340282366920938463463374607431768211455");
    }

    #[test]
    fn every_rule_names_its_argument_and_shows_the_value() {
        let message = |e: Error| e.to_string();
        assert_eq!(
            message(MineCount::try_from(Number::Float(3.9)).unwrap_err()),
            "mines: must be a whole number from 1 to 24, got 3.9"
        );
        assert_eq!(MineCount::try_from(Number::Float(3.0)).unwrap().get(), 3);
        assert_eq!(nonce(Number::Int(i128::from(u64::MAX))).unwrap(), u64::MAX);
        assert!(message(nonce(Number::Float(2f64.powi(60))).unwrap_err()).contains("a float is exact only up to"));
        assert_eq!(
            message(nonce(Number::Int(-1)).unwrap_err()),
            "nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -1"
        );
        assert_eq!(message(tile(Number::Int(26), "tile").unwrap_err()), "tile: must be from 1 to 25, got 26");
        assert_eq!((nonce_range(5, 0).unwrap(), nonce_range(u64::MAX, 1).unwrap()), (None, Some(u64::MAX)));
        assert_eq!(
            message(nonce_range(u64::MAX, 2).unwrap_err()),
            "nonce: the range from 18446744073709551615 with 2 nonces passes 2^64 - 1"
        );
        assert_eq!(&*tiles([19, 7, 10], "positions").unwrap(), [19, 7, 10]);
        assert_eq!(message(tiles([7, 0], "picks").unwrap_err()), "picks: tile 0 at index 1 is not between 1 and 25");
        assert_eq!(
            message(tiles([1; 26], "positions").unwrap_err()),
            "positions: more than 25 tiles on a 25-tile board"
        );
        assert_eq!(ratio_part(Number::Float(2.0), "numerator").unwrap(), 2);
        assert_eq!(
            message(ratio_part(Number::Int(-2), "denominator").unwrap_err()),
            "denominator: must be an integer in 0..2^128, got -2"
        );
        assert_eq!(ratio_part_text("340282366920938463463374607431768211455", "numerator").unwrap(), u128::MAX);
        assert!(ratio_part_text("+1", "numerator").is_err());
        assert_eq!(outcome("voided", "outcome").unwrap(), Outcome::Voided);
        assert_eq!(
            message(outcome("won", "outcome").unwrap_err()),
            "outcome: must be \"lost\", \"cashed_out\" or \"voided\", got \"won\""
        );
    }
}
