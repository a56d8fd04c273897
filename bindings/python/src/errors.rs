//! The one place where a [`fairmines::Error`] becomes a Python exception.
//!
//! The classes are made from the core's [`ErrorKind::ALL`]: one subclass of `fairmines.FairminesError` (a
//! `ValueError`) per kind, named after [`ErrorKind::name`] (`TILE_ALREADY_REVEALED` →
//! `TileAlreadyRevealedError`), with its [`ErrorKind::code`] as `code` and its [`ErrorKind::summary`] as the
//! docstring. The binding adds only, where Python code expects one, a second standard base: a nonce outside
//! 0..2^64 is also an `OverflowError` (what `int` conversions raise), a string that is not UTF-8 also a
//! `UnicodeError`. Each raised exception carries the core's message, `code` and the `argument` at fault.

use std::fmt::Display;

use fairmines::{Error, ErrorKind};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyUnicodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::Obj;

const BASE_NAME: &str = "FairminesError";
const BASE_DOC: &str = "Base class of every error raised by fairmines for a bad value (a ValueError).\n\n\
`code` is the core's stable error number (0 on this base class), `argument` the name of the argument\n\
at fault, if any.";

/// The standard exception a kind's class also derives from, where Python code would look for one.
fn also(py: Python<'_>, kind: ErrorKind) -> Option<Bound<'_, PyType>> {
    match kind {
        ErrorKind::InvalidNonce => Some(py.get_type::<PyOverflowError>()),
        ErrorKind::InvalidUtf8 => Some(py.get_type::<PyUnicodeError>()),
        _ => None,
    }
}

/// `INVALID_MINES` → `InvalidMinesError`.
fn class_name(kind: ErrorKind) -> String {
    let mut name = String::new();
    for word in kind.name().split('_') {
        let mut chars = word.chars();
        name.extend(chars.next());
        name.extend(chars.map(|c| c.to_ascii_lowercase()));
    }
    name + "Error"
}

struct Classes {
    base: Py<PyType>,
    /// One class per kind, in the order of [`ErrorKind::ALL`].
    kinds: Vec<(ErrorKind, Py<PyType>)>,
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
        let mut kinds = Vec::new();
        for kind in ErrorKind::ALL {
            let bases: Vec<_> = std::iter::once(base.bind(py).clone()).chain(also(py, kind)).collect();
            let bases = PyTuple::new(py, bases)?;
            kinds.push((kind, new_class(py, &class_name(kind), bases, kind.summary(), kind.code())?));
        }
        Ok(Classes { base, kinds })
    })
}

/// Adds `FairminesError` and one subclass per kind of the core to the module.
pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    let all = classes(py)?;
    module.add(BASE_NAME, all.base.bind(py))?;
    for (kind, class) in &all.kinds {
        module.add(class_name(*kind), class.bind(py))?;
    }
    Ok(())
}

fn raise(py: Python<'_>, error: &Error, message: String, argument: Option<&str>) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let all = classes(py)?;
        let class = all.kinds.iter().find(|(kind, _)| *kind == error.kind()).map_or(&all.base, |(_, class)| class);
        let exception = class.bind(py).call1((message,))?;
        exception.setattr("code", error.code())?;
        exception.setattr("argument", argument)?;
        Ok(PyErr::from_value(exception))
    };
    // Building the exception can only fail when Python itself is failing (e.g. out of memory).
    build().unwrap_or_else(|failure| failure)
}

/// `result.or_raise(py)`: a core result, its error raised as the Python exception of its kind.
pub(crate) trait OrRaise<T> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, Error> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|err| to_py(py, &err))
    }
}

/// The Python exception for a core error: its kind's class, the core's message, `code` and `argument`.
pub(crate) fn to_py(py: Python<'_>, error: &Error) -> PyErr {
    raise(py, error, error.to_string(), error.argument())
}

/// `to_py` for a value the binding names its own way (`nonces[3]`, `rtp.numerator`): `label: detail`,
/// with `label` as the `argument`.
pub(crate) fn to_py_as(py: Python<'_>, error: &Error, label: impl Display) -> PyErr {
    let label = label.to_string();
    raise(py, error, format!("{label}: {}", error.detail()), Some(&label))
}

/// `to_py` with the exception that led to it as `__cause__`.
pub(crate) fn to_py_from(py: Python<'_>, error: &Error, cause: PyErr) -> PyErr {
    let err = to_py(py, error);
    err.set_cause(py, Some(cause));
    err
}

/// A `TypeError` naming the argument and what it should have been: `nonce: must be int, not str`.
pub(crate) fn wrong_type(argument: impl Display, expected: &str, got: &Obj<'_>) -> PyErr {
    let type_name = got.get_type().name().map_or_else(|_| "an unknown type".to_owned(), |name| name.to_string());
    PyTypeError::new_err(format!("{argument}: must be {expected}, not {type_name}"))
}
