//! Python arguments to what the core takes. Wrong types are `TypeError`s naming the argument; values go
//! to the core as they are ([`Number`] for numbers) and the core's rules judge them (see `errors`).

use std::fmt::Display;

use fairmines::{Digest, Error, MineCount, Number};
use pyo3::exceptions::{PyImportError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyFloat, PyInt, PyRange, PyString};

use crate::Obj;
use crate::errors::{OrRaise, to_py_as, to_py_from, wrong_type};

/// A `str` argument as UTF-8 text. A lone surrogate (which has no UTF-8 form) is an `InvalidUtf8Error`.
pub(crate) fn text(obj: &Obj<'_>, argument: &'static str) -> PyResult<PyBackedStr> {
    let string = obj.cast::<PyString>().map_err(|_| wrong_type(argument, "str", obj))?;
    PyBackedStr::try_from(string.clone()).map_err(|cause| to_py_from(obj.py(), &Error::InvalidUtf8 { argument }, cause))
}

/// A number as the core takes it: an `int` (or an object with `__index__`, such as a numpy integer) of
/// any size (its sign and magnitude, beyond 64 bits), or a `float`; not a `bool`. `label` names it in the `TypeError` (formatted only then).
pub(crate) fn number(obj: &Obj<'_>, label: impl Display) -> PyResult<Number> {
    // The common case first: an exact `int` (not a bool) that fits in 64 bits.
    if obj.is_exact_instance_of::<PyInt>()
        && let Ok(value) = obj.extract::<i64>()
    {
        return Ok(Number::from(value));
    }
    if obj.is_instance_of::<PyBool>() {
        return Err(wrong_type(label, "int", obj));
    }
    if let Ok(float) = obj.cast::<PyFloat>() {
        return Ok(Number::Float(float.value()));
    }
    let py = obj.py();
    match obj.extract::<i64>() {
        Ok(value) => Ok(Number::from(value)),
        Err(err) if err.is_instance_of::<PyOverflowError>(py) => {
            let int = obj.call_method0("__index__")?;
            let magnitude = int.call_method0("__abs__")?.extract::<u128>().ok();
            Ok(Number::from_sign_magnitude(int.lt(0)?, magnitude))
        }
        Err(err) if err.is_instance_of::<PyTypeError>(py) => Err(wrong_type(label, "int", obj)),
        Err(err) => Err(err),
    }
}

/// A nonce (0..2^64), judged by the core.
pub(crate) fn nonce(obj: &Obj<'_>) -> PyResult<u64> {
    fairmines::input::nonce(number(obj, "nonce")?).or_raise(obj.py())
}

/// A nonce the binding names its own way (`nonces[3]`, `rounds`).
pub(crate) fn nonce_as(obj: &Obj<'_>, label: impl Display + Copy) -> PyResult<u64> {
    fairmines::input::nonce(number(obj, label)?).map_err(|err| to_py_as(obj.py(), &err, label))
}

/// A mine count (1..=24), judged by the core.
pub(crate) fn mines(obj: &Obj<'_>) -> PyResult<MineCount> {
    MineCount::try_from(number(obj, "mines")?).or_raise(obj.py())
}

/// The nonces of a `range` with step 1 (each end judged by the core), as (first, count); another step
/// is `None` when `stepped` is set (the caller reads the range item by item), else a `ValueError`.
pub(crate) fn unit_range(range: &Bound<'_, PyRange>, stepped: bool) -> PyResult<Option<(u64, u128)>> {
    if !range.getattr("step")?.eq(1)? {
        return if stepped { Ok(None) } else { Err(PyValueError::new_err("nonces: must be a range with step 1")) };
    }
    let (start, stop) = (range.getattr("start")?, range.getattr("stop")?);
    if stop.le(&start)? {
        return Ok(Some((0, 0)));
    }
    let (first, last) = (nonce_as(&start, "nonces[0]")?, nonce_as(&stop.sub(1)?, "nonces[-1]")?);
    Ok(Some((first, u128::from(last - first) + 1)))
}

/// `import name`, or an `ImportError` saying what needs it (`message`), with the failure as its cause
/// (another exception, such as a `KeyboardInterrupt` during the import, is raised as it is).
pub(crate) fn import<'py>(py: Python<'py>, name: &str, message: &'static str) -> PyResult<Bound<'py, PyModule>> {
    py.import(name).map_err(|cause| {
        let err =
            if cause.is_instance_of::<PyImportError>(py) { PyImportError::new_err(message) } else { return cause };
        err.set_cause(py, Some(cause));
        err
    })
}

/// Raises `TypeError` for `str`/`bytes` where a sequence of numbers is expected (they are iterable).
pub(crate) fn reject_text(obj: &Obj<'_>, argument: &str, expected: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        Err(wrong_type(argument, expected, obj))
    } else {
        Ok(())
    }
}

/// Tiles as given (declared positions, picks): any iterable of numbers, for the core's rules
/// (`input::tiles`). Items past the 26th are not read: the core refuses more than 25 whatever they are.
pub(crate) fn tiles(obj: &Obj<'_>, argument: &'static str) -> PyResult<Vec<Number>> {
    const EXPECTED: &str = "a sequence of int";
    reject_text(obj, argument, EXPECTED)?;
    let items = obj.try_iter().map_err(|_| wrong_type(argument, EXPECTED, obj))?;
    let mut tiles = Vec::new();
    for (index, item) in items.enumerate().take(usize::from(fairmines::TILES) + 1) {
        tiles.push(number(&item?, format_args!("{argument}[{index}]"))?);
    }
    Ok(tiles)
}

/// A commitment: 64 hex characters (either case).
pub(crate) fn commitment(obj: &Obj<'_>) -> PyResult<Digest> {
    let hex = text(obj, "commitment")?;
    Digest::parse_hex(&hex, "commitment").or_raise(obj.py())
}
