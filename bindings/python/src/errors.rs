//! The one place where a [`fairmines::Error`] becomes a Python exception.
//!
//! Every class derives from `fairmines.FairminesError` (a `ValueError`). A class may add a second
//! standard base where Python code would look for one: a nonce outside 0..2^64 is also an
//! `OverflowError` (what `int` conversions raise), a string that is not UTF-8 also a `UnicodeError`.
//! Each raised exception carries the core's stable `code` and the `argument` at fault.

use fairmines::Error;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUnicodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

/// One exception class: the core error kind it stands for (by stable code) and its Python shape.
struct Kind {
    code: u32,
    name: &'static str,
    /// A standard exception to derive from besides `FairminesError`.
    also: Option<fn(Python<'_>) -> Bound<'_, PyType>>,
    doc: &'static str,
}

/// The core's error kinds, by stable code. A code not listed here (the core's error enum is
/// `#[non_exhaustive]`) is raised as the base class `FairminesError`, with its code.
const KINDS: [Kind; 8] = [
    Kind { code: 1, name: "InvalidMinesError", also: None, doc: "The mine count is not an integer in 1..24." },
    Kind {
        code: 2,
        name: "InvalidNonceError",
        also: Some(|py| py.get_type::<PyOverflowError>()),
        doc: "A nonce is not an integer in 0..2**64 (also an OverflowError).",
    },
    Kind {
        code: 3,
        name: "InvalidTileError",
        also: None,
        doc: "A declared tile is outside 1..25, or the list cannot be a board.",
    },
    Kind {
        code: 4,
        name: "InvalidHexError",
        also: None,
        doc: "A digest (commitment) is not 64 hexadecimal characters.",
    },
    Kind {
        code: 5,
        name: "InvalidUtf8Error",
        also: Some(|py| py.get_type::<PyUnicodeError>()),
        doc: "A string cannot be encoded as UTF-8 (it holds a lone surrogate); also a UnicodeError.",
    },
    Kind {
        code: 6,
        name: "StreamExhaustedError",
        also: None,
        doc: "A finite word source ran out (never raised by this module's functions).",
    },
    Kind { code: 7, name: "RngError", also: None, doc: "The operating system's random number generator failed." },
    Kind {
        code: 8,
        name: "BufferSizeError",
        also: None,
        doc: "An output buffer of the wrong size (never raised by this module's functions).",
    },
];

const BASE_NAME: &str = "FairminesError";
const BASE_DOC: &str = "Base class of every error raised by fairmines for a bad value (a ValueError).\n\n\
`code` is the core's stable error number (0 for errors raised outside it), `argument` the name of \
the argument at fault, if any.";

struct Classes {
    base: Py<PyType>,
    kinds: Vec<(u32, Py<PyType>)>,
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
        let mut kinds = Vec::with_capacity(KINDS.len());
        for kind in &KINDS {
            let mut bases = vec![base.bind(py).clone()];
            bases.extend(kind.also.map(|also| also(py)));
            kinds.push((kind.code, new_class(py, kind.name, PyTuple::new(py, bases)?, kind.doc, kind.code)?));
        }
        Ok(Classes { base, kinds })
    })
}

/// Adds `FairminesError` and its subclasses to the module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    let all = classes(py)?;
    module.add(BASE_NAME, all.base.bind(py))?;
    for (kind, (_, class)) in KINDS.iter().zip(&all.kinds) {
        module.add(kind.name, class.bind(py))?;
    }
    Ok(())
}

/// The Python exception for a core error: its class by code, the core's message, `code` and `argument`.
pub(crate) fn to_py(py: Python<'_>, error: &Error) -> PyErr {
    let raise = || -> PyResult<PyErr> {
        let all = classes(py)?;
        let class = all.kinds.iter().find(|(code, _)| *code == error.code()).map_or(&all.base, |(_, class)| class);
        let exception = class.bind(py).call1((error.to_string(),))?;
        exception.setattr("code", error.code())?;
        exception.setattr("argument", error.argument())?;
        Ok(PyErr::from_value(exception))
    };
    // Building the exception can only fail when Python itself is failing (e.g. out of memory).
    raise().unwrap_or_else(|failure| failure)
}

/// `to_py` with the exception that led to it as `__cause__`.
pub(crate) fn to_py_from(py: Python<'_>, error: &Error, cause: PyErr) -> PyErr {
    let err = to_py(py, error);
    err.set_cause(py, Some(cause));
    err
}

/// A `TypeError` naming the argument and what it should have been: `nonce: must be int, not float`.
pub(crate) fn wrong_type(argument: &str, expected: &str, got: &Bound<'_, PyAny>) -> PyErr {
    let type_name = got.get_type().name().map_or_else(|_| "an unknown type".to_owned(), |name| name.to_string());
    PyTypeError::new_err(format!("{argument}: must be {expected}, not {type_name}"))
}
