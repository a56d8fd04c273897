//! Exact ratios: the core's `Ratio` is a `fractions.Fraction` in Python, both ways.
//!
//! An RTP factor (or a record's multiplier) is accepted as `str` (`"0.99"`, `"99/100"`, parsed by the
//! core), `fractions.Fraction`, `decimal.Decimal` or `int`, all exact. A `float` is refused with a
//! `TypeError` saying why: it is a binary fraction, so `0.99` is not 99/100.

use fairmines::{Error, Ratio, Rtp};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyType};

use crate::args::shown;
use crate::errors::{to_py, to_py_from, wrong_type};

static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const EXPECTED: &str = "str, fractions.Fraction, decimal.Decimal or int";

/// `fractions.Fraction(numer, denom)`.
pub(crate) fn fraction(py: Python<'_>, ratio: Ratio) -> PyResult<Bound<'_, PyAny>> {
    FRACTION.import(py, "fractions", "Fraction")?.call1((ratio.numer(), ratio.denom()))
}

pub(crate) fn fraction_opt(py: Python<'_>, ratio: Option<Ratio>) -> PyResult<Option<Bound<'_, PyAny>>> {
    ratio.map(|ratio| fraction(py, ratio)).transpose()
}

/// What a Python number is, exactly.
enum Exact {
    /// Text for the core's parser.
    Text(String),
    /// numerator / denominator, when both fit the core's `u128`.
    Parts(u128, u128),
    /// A negative value, or one whose numerator or denominator needs more than 128 bits; as shown.
    Beyond(String),
}

fn exact(obj: &Bound<'_, PyAny>, argument: &'static str, error: impl Fn(String) -> Error) -> PyResult<Exact> {
    let py = obj.py();
    if obj.is_instance_of::<PyBool>() {
        return Err(wrong_type(argument, EXPECTED, obj));
    }
    if obj.is_instance_of::<PyFloat>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{argument}: must be {EXPECTED}, not float: a float is a binary fraction (0.99 is \
             0.9899999999999999911182158029987...), so pass the exact value as \"0.99\", \
             Fraction(99, 100) or Decimal(\"0.99\")"
        )));
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let text = crate::args::text(text.as_any(), argument)?;
        return Ok(Exact::Text(text.to_string()));
    }
    let fraction_type = FRACTION.import(py, "fractions", "Fraction")?;
    let decimal_type = DECIMAL.import(py, "decimal", "Decimal")?;
    if !(obj.is_instance_of::<PyInt>() || obj.is_instance(fraction_type)? || obj.is_instance(decimal_type)?) {
        return Err(wrong_type(argument, EXPECTED, obj));
    }
    // Exact for all three; a Decimal NaN or infinity has no ratio.
    let (num, den): (Bound<'_, PyAny>, Bound<'_, PyAny>) = match obj.call_method0("as_integer_ratio") {
        Ok(pair) => pair.extract()?,
        Err(cause) => return Err(to_py_from(py, &error(format!("{} is not a finite number", shown(obj))), cause)),
    };
    Ok(match (num.extract::<u128>(), den.extract::<u128>()) {
        (Ok(num), Ok(den)) => Exact::Parts(num, den),
        _ => Exact::Beyond(shown(obj)),
    })
}

/// An RTP factor: a fraction in (0, 1], checked by the core.
pub(crate) fn rtp(obj: &Bound<'_, PyAny>) -> PyResult<Rtp> {
    let py = obj.py();
    let invalid = |detail: String| Error::InvalidRtp { detail };
    let rtp = match exact(obj, "rtp", invalid)? {
        Exact::Text(text) => Rtp::parse(&text),
        Exact::Parts(num, den) => Ratio::new(num, den)
            .ok_or_else(|| invalid(format!("{} has a zero denominator", shown(obj))))
            .and_then(Rtp::new),
        Exact::Beyond(shown) => Err(invalid(format!(
            "must be above 0 and at most 1, with a numerator and denominator below 2**128, got {shown}"
        ))),
    };
    rtp.map_err(|err| to_py(py, &err))
}

/// A non-negative exact ratio (a record's multiplier); `argument` names it in errors.
pub(crate) fn ratio(obj: &Bound<'_, PyAny>, argument: &'static str) -> PyResult<Ratio> {
    let py = obj.py();
    let invalid = |detail: String| Error::InvalidNumber { argument, detail };
    let ratio = match exact(obj, argument, invalid)? {
        // The core's parser names its input `ratio`; here it is `argument`.
        Exact::Text(text) => text.parse::<Ratio>().map_err(|err| match err {
            Error::InvalidNumber { detail, .. } => invalid(detail),
            other => other,
        }),
        Exact::Parts(num, den) => {
            Ratio::new(num, den).ok_or_else(|| invalid(format!("{} has a zero denominator", shown(obj))))
        }
        Exact::Beyond(shown) => Err(invalid(format!(
            "must be a fraction of at least 0, with a numerator and denominator below 2**128, got {shown}"
        ))),
    };
    ratio.map_err(|err| to_py(py, &err))
}
