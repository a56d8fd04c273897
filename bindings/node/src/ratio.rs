//! `Ratio`: the core's exact fractions in JavaScript, and exact arguments (an RTP, a record's multiplier) given
//! as a string (`"0.99"`, `"99/100"`) or a `Ratio`, never a `number` (a binary float cannot hold 0.99).

use fairmines::{Exact, Number, Rtp};
use napi::bindgen_prelude::{BigInt, ClassInstance, Either, Either3, Env, Null, Result, Unknown};
use napi::{JsString, JsValue};
use napi_derive::napi;

use crate::{Converted, Failure, NumberArg, StringArg, guard, number, text_in, type_name};

/// An exact, non-negative fraction in lowest terms (a multiplier, an RTP factor). `String(r)` and
/// `JSON.stringify` give `text`; there is no `valueOf`, so a ratio never becomes a float by accident.
#[napi]
pub struct Ratio {
    inner: fairmines::Ratio,
}

/// An exact argument: a string (`"99/100"`, `"0.99"`, `"3"`), a `Ratio`, or anything else (a `TypeError`).
pub(crate) type RatioArg<'env> = Either3<JsString<'env>, ClassInstance<'env, Ratio>, Unknown<'env>>;

pub(crate) const RATIO_EXPECTED: &str = "a string such as '0.99' or '99/100', or a Ratio";

pub(crate) enum ExactArg {
    Text(String),
    Ratio(fairmines::Ratio),
}

impl ExactArg {
    pub(crate) fn get(&self) -> Exact<'_> {
        match self {
            ExactArg::Text(text) => Exact::Text(text),
            ExactArg::Ratio(ratio) => Exact::Ratio(*ratio),
        }
    }
}

/// An exact argument, for the core's [`Exact`]; `label` names it in messages (`record.rtp`).
pub(crate) fn exact(value: RatioArg, argument: &str, label: &'static str) -> Converted<ExactArg> {
    match value {
        Either3::A(string) => Ok(ExactArg::Text(text_in(Either::A(string), argument, label)?)),
        Either3::B(instance) => Ok(ExactArg::Ratio(instance.inner)),
        Either3::C(other) if other.get_type().ok() == Some(napi::ValueType::Number) => {
            let x = other.coerce_to_number().and_then(|n| n.get_double()).unwrap_or(f64::NAN);
            let got = format!(
                "the number {} (binary floating point cannot hold most decimal fractions: 0.99 is stored as \
                 0.98999999999999999112, so pass the exact value as a string, e.g. '0.99' or '99/100')",
                Number::Float(x)
            );
            Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &got))
        }
        Either3::C(other) => Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &type_name(&other))),
    }
}

pub(crate) fn rtp(value: RatioArg) -> Converted<Rtp> {
    exact(value, "rtp", "rtp")?.get().rtp().map_err(Failure::core)
}

#[napi]
impl Ratio {
    /// `numerator / denominator`, reduced to lowest terms.
    /// @throws {TypeError} a part is neither a number nor a bigint
    /// @throws {RangeError} a part is not an integer in 0..2^128, or `denominator` is 0
    /// (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(constructor, catch_unwind, ts_args_type = "numerator: number | bigint, denominator: number | bigint")]
    pub fn new(env: Env, numerator: NumberArg, denominator: NumberArg) -> Result<Self> {
        guard(&env, || {
            let num = number(numerator, "numerator", "numerator")?;
            let den = number(denominator, "denominator", "denominator")?;
            Ok(Ratio { inner: fairmines::Ratio::from_parts(num, den).map_err(Failure::core)? })
        })
    }

    /// Parses `"99/100"`, a decimal such as `"0.99"` (exactly 99/100) or a whole number, as the core does.
    /// @throws {TypeError} `text` is not a string
    /// @throws {RangeError} `text` does not parse (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(factory, catch_unwind, ts_args_type = "text: string")]
    pub fn parse(env: Env, text: StringArg) -> Result<Self> {
        guard(&env, || {
            let text = crate::text(text, "text")?;
            Ok(Ratio { inner: fairmines::Ratio::parse(&text, "text").map_err(Failure::core)? })
        })
    }

    /// The numerator, in lowest terms.
    #[napi(getter)]
    pub fn numerator(&self) -> BigInt {
        BigInt::from(self.inner.numer())
    }

    /// The denominator, in lowest terms (never 0).
    #[napi(getter)]
    pub fn denominator(&self) -> BigInt {
        BigInt::from(self.inner.denom())
    }

    /// `"num/den"`, or just `"num"` for a whole number: the form of the core's JSON.
    #[napi(getter)]
    pub fn text(&self) -> String {
        self.inner.to_string()
    }

    /// The decimal shown to users: the value rounded **down** to `places` (0..=18) decimal places, so a
    /// shown multiplier never promises more than the exact one (`'1.12'` for 9/8 at 2).
    /// @throws {TypeError} `places` is neither a number nor a bigint
    /// @throws {RangeError} `places` is not an integer in 0..=18 (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(catch_unwind, ts_args_type = "places: number | bigint")]
    pub fn to_decimal(&self, env: Env, places: NumberArg) -> Result<String> {
        guard(&env, || {
            let places = fairmines::Places::new(number(places, "places", "places")?).map_err(Failure::core)?;
            Ok(self.inner.to_decimal(places))
        })
    }

    /// The nearest `number`: for display and statistics only, never for paying out.
    #[napi]
    pub fn to_number(&self) -> f64 {
        self.inner.to_f64()
    }

    /// Whether `other` (a `Ratio` or a string such as `'99/100'` or `'0.99'`) is the same number.
    /// @throws {TypeError} `other` is neither a string nor a `Ratio`
    /// @throws {RangeError} `other` is a string that does not parse (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(catch_unwind, ts_args_type = "other: Ratio | string")]
    pub fn equals(&self, env: Env, other: RatioArg) -> Result<bool> {
        guard(&env, || Ok(exact(other, "other", "other")?.get().ratio("other").map_err(Failure::core)? == self.inner))
    }

    /// `text`.
    #[napi(js_name = "toString")]
    pub fn to_js_string(&self) -> String {
        self.inner.to_string()
    }

    /// `text`, so `JSON.stringify` writes a ratio as the core's JSON does.
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> String {
        self.inner.to_string()
    }
}

impl From<fairmines::Ratio> for Ratio {
    fn from(inner: fairmines::Ratio) -> Self {
        Ratio { inner }
    }
}

pub(crate) fn ratio_or_null(value: Option<fairmines::Ratio>) -> Either<Ratio, Null> {
    value.map_or(Either::B(Null), |r| Either::A(r.into()))
}
