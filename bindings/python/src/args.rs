//! Python arguments to core types. Each conversion names the argument in its error; wrong types are
//! `TypeError`s, wrong values the core's errors (see `errors`).

use fairmines::{Digest, Error, MineCount, Tiles};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyString};

use crate::errors::{to_py, to_py_from, wrong_type};

/// A `str` argument as UTF-8 text. A lone surrogate (which has no UTF-8 form) is an `InvalidUtf8Error`.
pub(crate) fn text(obj: &Bound<'_, PyAny>, argument: &'static str) -> PyResult<PyBackedStr> {
    let string = obj.cast::<PyString>().map_err(|_| wrong_type(argument, "str", obj))?;
    PyBackedStr::try_from(string.clone()).map_err(|cause| to_py_from(obj.py(), &Error::InvalidUtf8 { argument }, cause))
}

/// How a number is shown in an error message; very long integers are abbreviated.
fn shown(obj: &Bound<'_, PyAny>) -> String {
    match obj.str() {
        Ok(text) => {
            let text = text.to_string();
            if text.len() > 40 { format!("an integer of {} digits", text.trim_start_matches('-').len()) } else { text }
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
    let err = to_py(py, &Error::InvalidMines { got: 0 });
    let message = Error::InvalidMines { got: 0 }.to_string();
    let message = format!("{}{}", message.strip_suffix('0').unwrap_or(&message), shown(obj));
    let value = err.value(py);
    // Replace the message only; the class, `code` and `argument` stay the core's.
    if value.setattr("args", (message,)).is_err() {
        return err;
    }
    err
}

/// Raises `TypeError` for `str`/`bytes` where a sequence of numbers is expected (they are iterable).
pub(crate) fn reject_text(obj: &Bound<'_, PyAny>, argument: &str, expected: &str) -> PyResult<()> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        Err(wrong_type(argument, expected, obj))
    } else {
        Ok(())
    }
}

/// Declared mine positions: any iterable of `int` (1-based tiles), checked by the core.
pub(crate) fn positions(obj: &Bound<'_, PyAny>) -> PyResult<Tiles> {
    const EXPECTED: &str = "a sequence of int";
    let py = obj.py();
    reject_text(obj, "positions", EXPECTED)?;
    let items = obj.try_iter().map_err(|_| wrong_type("positions", EXPECTED, obj))?;
    let mut tiles: Vec<i128> = Vec::new();
    // The core rejects a 26th tile, whatever its value: nothing after it needs reading.
    for (index, item) in items.enumerate().take(usize::from(fairmines::TILES) + 1) {
        let item = item?;
        let label = format!("positions[{index}]");
        reject_bool(&item, &label)?;
        let tile = match item.extract::<i64>() {
            Ok(tile) => i128::from(tile),
            Err(err) if err.is_instance_of::<PyTypeError>(py) => return Err(wrong_type(&label, "int", &item)),
            Err(err) if err.is_instance_of::<PyOverflowError>(py) => {
                // Off the board whatever it is; the core's error kind, with the Python value shown.
                return Err(to_py(
                    py,
                    &Error::InvalidTile {
                        argument: "positions",
                        detail: format!("tile {} at index {index} is outside 1..=25", shown(&item)),
                    },
                ));
            }
            Err(err) => return Err(err),
        };
        tiles.push(tile);
    }
    Tiles::declared(tiles, "positions").map_err(|err| to_py(py, &err))
}

/// A commitment: 64 hex characters (either case).
pub(crate) fn commitment(obj: &Bound<'_, PyAny>) -> PyResult<Digest> {
    let hex = text(obj, "commitment")?;
    Digest::parse_hex(&hex, "commitment").map_err(|err| to_py(obj.py(), &err))
}
