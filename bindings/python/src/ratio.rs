//! Exact ratios: the core's `Ratio` is a `fractions.Fraction` in Python, both ways.
//!
//! An RTP factor (or a record's multiplier) is accepted as `str` (`"0.99"`, `"99/100"`), `fractions.Fraction`,
//! `decimal.Decimal` or `int`, all exact, and goes to the core as [`Exact`]: text for its parser, or the
//! numerator and denominator for `Ratio::from_parts`. A `float` is refused with a `TypeError` saying why: it
//! is a binary fraction, so `0.99` is not 99/100.

use fairmines::{Exact, Ratio, Rtp};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyType};

use crate::Obj;
use crate::args::{number, text};
use crate::errors::{OrRaise, to_py_as, wrong_type};

static FRACTION: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();

const EXPECTED: &str = "str, fractions.Fraction, decimal.Decimal or int";

/// `fractions.Fraction(numer, denom)`.
pub(crate) fn fraction(py: Python<'_>, ratio: Ratio) -> PyResult<Obj<'_>> {
    FRACTION.import(py, "fractions", "Fraction")?.call1((ratio.numer(), ratio.denom()))
}

pub(crate) fn fraction_opt(py: Python<'_>, ratio: Option<Ratio>) -> PyResult<Option<Obj<'_>>> {
    ratio.map(|ratio| fraction(py, ratio)).transpose()
}

/// An exact number as Python gave it, held for [`ExactArg::get`].
pub(crate) enum ExactArg {
    Text(PyBackedStr),
    Ratio(Ratio),
}

impl ExactArg {
    pub(crate) fn get(&self) -> Exact<'_> {
        match self {
            ExactArg::Text(text) => Exact::Text(text),
            ExactArg::Ratio(ratio) => Exact::Ratio(*ratio),
        }
    }
}

/// `argument` as an exact number; the parts of a `Fraction`, `Decimal` or `int` are judged by
/// `Ratio::from_parts` (an error names them `argument.numerator` or `argument.denominator`).
pub(crate) fn exact(obj: &Obj<'_>, argument: &'static str) -> PyResult<ExactArg> {
    let py = obj.py();
    if obj.is_instance_of::<PyFloat>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{argument}: must be {EXPECTED}, not float: a float is a binary fraction (0.99 is \
             0.9899999999999999911182158029987...), so pass the exact value as \"0.99\", \
             Fraction(99, 100) or Decimal(\"0.99\")"
        )));
    }
    if obj.is_instance_of::<PyString>() {
        return Ok(ExactArg::Text(text(obj, argument)?));
    }
    let decimal = obj.is_instance(DECIMAL.import(py, "decimal", "Decimal")?)?;
    let exact_type =
        obj.is_instance_of::<PyInt>() || decimal || obj.is_instance(FRACTION.import(py, "fractions", "Fraction")?)?;
    if obj.is_instance_of::<PyBool>() || !exact_type {
        return Err(wrong_type(argument, EXPECTED, obj));
    }
    let (num, den): (Obj<'_>, Obj<'_>) = match obj.call_method0("as_integer_ratio") {
        Ok(parts) => parts.extract()?,
        // A Decimal NaN or infinity has no ratio: its text goes to the core's parser, which refuses it.
        Err(_) if decimal => return Ok(ExactArg::Text(obj.str()?.try_into()?)),
        Err(err) => return Err(err),
    };
    let (num, den) = (number(&num, argument)?, number(&den, argument)?);
    Ratio::from_parts(num, den).map(ExactArg::Ratio).map_err(|err| {
        let part = err.argument().unwrap_or("ratio");
        to_py_as(py, &err, format_args!("{argument}.{part}"))
    })
}

/// An RTP factor: a fraction in (0, 1], checked by the core.
pub(crate) fn rtp(obj: &Obj<'_>) -> PyResult<Rtp> {
    exact(obj, "rtp")?.get().rtp().or_raise(obj.py())
}
