//! Python arguments to core types. Each conversion names the argument in its error; wrong types are
//! `TypeError`s, wrong values the core's errors (see `errors`).

use fairmines::{Digest, Error, MineCount, Tiles};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyString};

use crate::errors::{to_py, to_py_from, to_py_showing, wrong_type};

/// A `str` argument as UTF-8 text. A lone surrogate (which has no UTF-8 form) is an `InvalidUtf8Error`.
pub(crate) fn text(obj: &Bound<'_, PyAny>, argument: &'static str) -> PyResult<PyBackedStr> {
    let string = obj.cast::<PyString>().map_err(|_| wrong_type(argument, "str", obj))?;
    PyBackedStr::try_from(string.clone()).map_err(|cause| to_py_from(obj.py(), &Error::InvalidUtf8 { argument }, cause))
}

/// How a number is shown in an error message; very long numbers are abbreviated.
pub(crate) fn shown(obj: &Bound<'_, PyAny>) -> String {
    match obj.str() {
        Ok(text) => {
            let text = text.to_string();
            let digits = text.trim_start_matches('-');
            if text.len() <= 40 {
                text
            } else if digits.bytes().all(|b| b.is_ascii_digit()) {
                format!("an integer of {} digits", digits.len())
            } else {
                format!("a number of {} characters", text.len())
            }
        }
        // str() of an int refuses more than sys.get_int_max_str_digits() digits.
        Err(_) => "an integer of too many digits to print".to_owned(),
    }
}

fn reject_bool(obj: &Bound<'_, PyAny>, argument: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyBool>() { Err(wrong_type(argument, "int", obj)) } else { Ok(()) }
}

/// What a nonce must be, for the messages of `InvalidNonceError`.
const NONCE_RANGE: &str = "must be an integer in 0..=18446744073709551615 (0 to 2**64 - 1)";

/// A nonce: any `int` (or object with `__index__`, such as a numpy integer) in 0..2^64, not a `bool`.
///
/// `label` names the value in messages: `nonce`, or `nonces[3]` for an item of a batch.
pub(crate) fn nonce(obj: &Bound<'_, PyAny>, label: &str) -> PyResult<u64> {
    reject_bool(obj, label)?;
    obj.extract::<u64>().map_err(|err| {
        let py = obj.py();
        if err.is_instance_of::<PyOverflowError>(py) {
            let invalid = invalid_nonce(py, label, &shown(obj));
            invalid.set_cause(py, Some(err));
            invalid
        } else if err.is_instance_of::<PyTypeError>(py) {
            wrong_type(label, "int", obj)
        } else {
            err
        }
    })
}

/// The `InvalidNonceError` for a value outside 0..2^64. The core's message starts with "nonce: ";
/// in a batch, `label` says which item (`nonces[3]`).
pub(crate) fn invalid_nonce(py: Python<'_>, label: &str, shown: &str) -> PyErr {
    let detail = if label == "nonce" {
        format!("{NONCE_RANGE}, got {shown}")
    } else {
        format!("{label} {NONCE_RANGE}, got {shown}")
    };
    to_py(py, &Error::InvalidNonce { detail })
}

/// A mine count: any `int` (or `__index__` object) in 1..=24, not a `bool`.
pub(crate) fn mines(obj: &Bound<'_, PyAny>) -> PyResult<MineCount> {
    reject_bool(obj, "mines")?;
    let py = obj.py();
    let value = match obj.extract::<i64>() {
        Ok(value) => i128::from(value),
        Err(err) if err.is_instance_of::<PyTypeError>(py) => return Err(wrong_type("mines", "int", obj)),
        Err(err) if err.is_instance_of::<PyOverflowError>(py) => match obj.extract::<i128>() {
            Ok(value) => value,
            // Beyond what the core's error can hold: its message, with the Python value in it.
            Err(_) => return Err(mines_beyond_i128(py, obj)),
        },
        Err(err) => return Err(err),
    };
    MineCount::try_from(value).map_err(|err| to_py(py, &err))
}

fn mines_beyond_i128(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyErr {
    // The core's error for a stand-in value, showing the Python value in its message.
    to_py_showing(py, &Error::InvalidMines { got: 0 }, "0", &shown(obj))
}

/// An `int` (or `__index__` object), not a `bool`, for a core function that takes `T`: `Ok(value)`, or
/// `Err(stand_in)` when it does not fit `T` (the stand-in is `low` for a negative value, `high` for a
/// positive one), so that the core itself judges it and says what is wrong.
fn clamped_int<T: TryFrom<i64>>(obj: &Bound<'_, PyAny>, argument: &str, low: T, high: T) -> PyResult<Result<T, T>> {
    reject_bool(obj, argument)?;
    let py = obj.py();
    let stand_in = |negative: bool| if negative { low } else { high };
    match obj.extract::<i64>() {
        Ok(value) => Ok(T::try_from(value).map_err(|_| stand_in(value < 0))),
        Err(err) if err.is_instance_of::<PyOverflowError>(py) => {
            Ok(Err(stand_in(obj.lt(0).map_err(|_| wrong_type(argument, "int", obj))?)))
        }
        Err(err) if err.is_instance_of::<PyTypeError>(py) => Err(wrong_type(argument, "int", obj)),
        Err(err) => Err(err),
    }
}

/// Runs `call` (a core function) on an `int` argument that the core takes as `T`; an integer beyond
/// `T` is given to the core as a stand-in, and its error shows the Python value.
pub(crate) fn with_int<T, R>(
    obj: &Bound<'_, PyAny>,
    argument: &str,
    (low, high): (T, T),
    call: impl FnOnce(T) -> Result<R, Error>,
) -> PyResult<R>
where
    T: TryFrom<i64> + std::fmt::Display + Copy,
{
    let py = obj.py();
    match clamped_int(obj, argument, low, high)? {
        Ok(value) => call(value).map_err(|err| to_py(py, &err)),
        Err(stand_in) => call(stand_in).map_err(|err| to_py_showing(py, &err, &stand_in.to_string(), &shown(obj))),
    }
}

/// Raises `TypeError` for `str`/`bytes` where a sequence of numbers is expected (they are iterable).
pub(crate) fn reject_text(obj: &Bound<'_, PyAny>, argument: &str, expected: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        Err(wrong_type(argument, expected, obj))
    } else {
        Ok(())
    }
}

/// Tiles as given (1-based, in order): any iterable of `int`, each checked by the core
/// (`Tiles::declared`: 1..=25, at most 25 of them). `argument` names the input (`positions`, `picks`).
pub(crate) fn tiles(obj: &Bound<'_, PyAny>, argument: &'static str) -> PyResult<Vec<u8>> {
    const EXPECTED: &str = "a sequence of int";
    let py = obj.py();
    reject_text(obj, argument, EXPECTED)?;
    let items = obj.try_iter().map_err(|_| wrong_type(argument, EXPECTED, obj))?;
    let mut tiles: Vec<i128> = Vec::new();
    // The core rejects a 26th tile, whatever its value: nothing after it needs reading.
    for (index, item) in items.enumerate().take(usize::from(fairmines::TILES) + 1) {
        let item = item?;
        let label = format!("{argument}[{index}]");
        reject_bool(&item, &label)?;
        let tile = match item.extract::<i64>() {
            Ok(tile) => i128::from(tile),
            Err(err) if err.is_instance_of::<PyTypeError>(py) => return Err(wrong_type(&label, "int", &item)),
            Err(err) if err.is_instance_of::<PyOverflowError>(py) => {
                // Off the board whatever it is; the core's error kind, with the Python value shown.
                return Err(to_py(
                    py,
                    &Error::InvalidTile {
                        argument,
                        detail: format!("tile {} at index {index} is outside 1..=25", shown(&item)),
                    },
                ));
            }
            Err(err) => return Err(err),
        };
        tiles.push(tile);
    }
    Tiles::declared(tiles.iter().copied(), argument).map_err(|err| to_py(py, &err))?;
    // The core has checked that every value is in 1..=25.
    Ok(tiles.into_iter().filter_map(|tile| u8::try_from(tile).ok()).collect())
}

/// Declared mine positions: any iterable of `int` (1-based tiles), checked and sorted by the core.
pub(crate) fn positions(obj: &Bound<'_, PyAny>) -> PyResult<Tiles> {
    let tiles = tiles(obj, "positions")?;
    Tiles::declared(tiles, "positions").map_err(|err| to_py(obj.py(), &err))
}

/// A commitment: 64 hex characters (either case).
pub(crate) fn commitment(obj: &Bound<'_, PyAny>) -> PyResult<Digest> {
    let hex = text(obj, "commitment")?;
    Digest::parse_hex(&hex, "commitment").map_err(|err| to_py(obj.py(), &err))
}
