//! The one place where a [`fairmines::Error`] becomes a Python exception.
//!
//! Every class derives from `fairmines.FairminesError` (a `ValueError`). A class's name and `code` come
//! from the core (`Error::name()`, `Error::code()`: `TILE_ALREADY_REVEALED`, 9 → `TileAlreadyRevealedError`);
//! the binding only adds a docstring and, where Python code would look for one, a second standard base:
//! a nonce outside 0..2^64 is also an `OverflowError` (what `int` conversions raise), a string that is
//! not UTF-8 also a `UnicodeError`. Each raised exception carries the core's stable `code` and the
//! `argument` at fault.

use fairmines::Error;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyUnicodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// One exception class: an error of the kind it stands for (its name and code are the core's), and
/// what the binding adds.
struct Kind {
    example: Error,
    /// A standard exception to derive from besides `FairminesError`.
    also: Option<fn(Python<'_>) -> Bound<'_, PyType>>,
    doc: &'static str,
}

/// One error of each kind the core has. The core's enum is `#[non_exhaustive]`: a kind not listed
/// here is raised as the base class `FairminesError`, with its code (and `test_errors.py` checks that
/// every code 1..=17 has its class).
fn kinds() -> Vec<Kind> {
    let kind = |example, doc| Kind { example, also: None, doc };
    vec![
        kind(Error::InvalidMines { got: 0 }, "The mine count is not an integer in 1..24."),
        Kind {
            example: Error::InvalidNonce { detail: String::new() },
            also: Some(|py| py.get_type::<PyOverflowError>()),
            doc: "A nonce is not an integer in 0..2**64 (also an OverflowError).",
        },
        kind(
            Error::InvalidTile { argument: "", detail: String::new() },
            "A tile is outside 1..25, or a list of tiles cannot be a board.",
        ),
        kind(
            Error::InvalidHex { argument: "", detail: String::new() },
            "A digest (commitment) or server seed is not 64 hexadecimal characters.",
        ),
        Kind {
            example: Error::InvalidUtf8 { argument: "" },
            also: Some(|py| py.get_type::<PyUnicodeError>()),
            doc: "A string cannot be encoded as UTF-8 (it holds a lone surrogate); also a UnicodeError.",
        },
        kind(
            Error::StreamExhausted { words_read: 0 },
            "A finite word source ran out (never raised by this module's functions).",
        ),
        kind(Error::Rng { detail: String::new() }, "The operating system's random number generator failed."),
        kind(
            Error::BufferSize { needed: 0, got: 0 },
            "An output buffer of the wrong size (never raised by this module's functions).",
        ),
        kind(Error::TileAlreadyRevealed { tile: 0 }, "The tile was already revealed in this round."),
        kind(Error::RoundFinished, "The round has finished (a mine was hit or it was cashed out): no more moves."),
        kind(Error::NothingToCashOut, "A cash-out before the first safe pick."),
        kind(
            Error::InvalidRtp { detail: String::new() },
            "A return-to-player factor that is not a fraction in (0, 1].",
        ),
        kind(Error::InvalidPicks { detail: String::new() }, "A number of safe picks that a round cannot have."),
        kind(
            Error::InvalidNumber { argument: "", detail: String::new() },
            "A number (an exact ratio) that does not parse.",
        ),
        kind(
            Error::InvalidState { argument: "", detail: String::new() },
            "Saved state or a round record that does not parse or does not hold together.",
        ),
        kind(
            Error::RoundsInPlay { nonces: Vec::new() },
            "A seed pair with rounds in play cannot reveal its server seed (rotate, set_client_seed): finish \
             them or void them (SeedPair.void_open_rounds) first.",
        ),
        kind(
            Error::RoundVoided,
            "The round was voided (SeedPair.void_open_rounds) so its server seed could be revealed: no more moves.",
        ),
    ]
}

/// `INVALID_MINES` → `InvalidMinesError`.
fn class_name(core_name: &str) -> String {
    let mut name = String::with_capacity(core_name.len() + 5);
    for word in core_name.split('_') {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.push(first.to_ascii_uppercase());
            name.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    name.push_str("Error");
    name
}

const BASE_NAME: &str = "FairminesError";
const BASE_DOC: &str = "Base class of every error raised by fairmines for a bad value (a ValueError).\n\n\
`code` is the core's stable error number (0 for errors raised outside it), `argument` the name of \
the argument at fault, if any.";

const CONCURRENT_NAME: &str = "ConcurrentUseError";
const CONCURRENT_DOC: &str = "A move (reveal, cash_out) on a Round that another thread is using at that \
moment; also a RuntimeError. A round takes one move at a time: the binding refuses the second rather than \
choose an order. `code` is 0 (it is not an error of the core).";

struct Classes {
    base: Py<PyType>,
    /// (name, code, class), in the core's code order.
    kinds: Vec<(String, u32, Py<PyType>)>,
    concurrent: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn new_class<'py>(
    py: Python<'py>,
    name: &str,
    bases: Bound<'py, PyTuple>,
    doc: &str,
    code: u32,
) -> PyResult<Py<PyType>> {
    let namespace = PyDict::new(py);
    namespace.set_item("__module__", "fairmines")?;
    namespace.set_item("__doc__", doc)?;
    namespace.set_item("code", code)?;
    namespace.set_item("argument", py.None())?;
    let class = py.get_type::<PyType>().call1((name, bases, namespace))?;
    Ok(class.cast_into::<PyType>()?.unbind())
}

fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get_or_try_init(py, || {
        let base = new_class(py, BASE_NAME, PyTuple::new(py, [py.get_type::<PyValueError>()])?, BASE_DOC, 0)?;
        let mut list = Vec::new();
        for kind in kinds() {
            let mut bases = vec![base.bind(py).clone()];
            bases.extend(kind.also.map(|also| also(py)));
            let (name, code) = (class_name(kind.example.name()), kind.example.code());
            let class = new_class(py, &name, PyTuple::new(py, bases)?, kind.doc, code)?;
            list.push((name, code, class));
        }
        let concurrent_bases = PyTuple::new(py, [base.bind(py).clone(), py.get_type::<PyRuntimeError>()])?;
        let concurrent = new_class(py, CONCURRENT_NAME, concurrent_bases, CONCURRENT_DOC, 0)?;
        Ok(Classes { base, kinds: list, concurrent })
    })
}

/// Adds `FairminesError`, its subclasses and `ConcurrentUseError` to the module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    let all = classes(py)?;
    module.add(BASE_NAME, all.base.bind(py))?;
    for (name, _, class) in &all.kinds {
        module.add(name.as_str(), class.bind(py))?;
    }
    module.add(CONCURRENT_NAME, all.concurrent.bind(py))
}

fn instance(py: Python<'_>, class: &Py<PyType>, message: String, code: u32, argument: Option<&str>) -> PyErr {
    let raise = || -> PyResult<PyErr> {
        let exception = class.bind(py).call1((message,))?;
        exception.setattr("code", code)?;
        exception.setattr("argument", argument)?;
        Ok(PyErr::from_value(exception))
    };
    // Building the exception can only fail when Python itself is failing (e.g. out of memory).
    raise().unwrap_or_else(|failure| failure)
}

/// The Python exception for a core error: its class by code, the core's message, `code` and `argument`.
pub(crate) fn to_py(py: Python<'_>, error: &Error) -> PyErr {
    to_py_message(py, error, error.to_string())
}

fn to_py_message(py: Python<'_>, error: &Error, message: String) -> PyErr {
    match classes(py) {
        Ok(all) => {
            let class = all.kinds.iter().find(|(_, code, _)| *code == error.code()).map_or(&all.base, |(.., c)| c);
            instance(py, class, message, error.code(), error.argument())
        }
        Err(failure) => failure,
    }
}

/// `to_py` with the exception that led to it as `__cause__`.
pub(crate) fn to_py_from(py: Python<'_>, error: &Error, cause: PyErr) -> PyErr {
    let err = to_py(py, error);
    err.set_cause(py, Some(cause));
    err
}

/// `to_py` for an error the core raised about `clamped`, a stand-in for a Python value too large for
/// the core's integer type: the core's class, code, argument and message, with the message's final
/// `got {clamped}` showing the Python value instead.
pub(crate) fn to_py_showing(py: Python<'_>, error: &Error, clamped: &str, shown: &str) -> PyErr {
    let message = error.to_string();
    let message = match message.strip_suffix(clamped) {
        Some(head) if head.ends_with("got ") => format!("{head}{shown}"),
        _ => message,
    };
    to_py_message(py, error, message)
}

/// `ConcurrentUseError`: a move on a round that another thread is inside of.
pub(crate) fn concurrent_use(py: Python<'_>, message: &str) -> PyErr {
    match classes(py) {
        Ok(all) => instance(py, &all.concurrent, message.to_owned(), 0, None),
        Err(failure) => failure,
    }
}

/// A `TypeError` naming the argument and what it should have been: `nonce: must be int, not float`.
pub(crate) fn wrong_type(argument: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let type_name = got.get_type().name().map_or_else(|_| "an unknown type".to_owned(), |name| name.to_string());
    PyTypeError::new_err(format!("{argument}: must be {expected}, not {type_name}"))
}
