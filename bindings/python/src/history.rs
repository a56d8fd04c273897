//! `verify_history` and `audit` (as `_native._verify_history`, `_native._audit`, for
//! python/fairmines/_history.py, which documents them): whole bet histories, from the `fairmines-history` crate.
//!
//! The crate reads, schedules, counts, and stops a run when its progress callback says so; this module
//! turns Python inputs into what it reads, and serves the callback with the GIL:
//!
//! - a path (`str`, `os.PathLike`) is opened and read by Rust: streaming, constant memory;
//! - a binary file object (anything with `read`, e.g. `open(p, "rb")`, `gzip.open(p)`, `io.BytesIO`)
//!   is read in 64 KiB pieces, each `read` call taking the GIL for a moment;
//! - an Arrow C stream (the PyCapsule of a DataFrame's `__arrow_c_stream__()`) is read by the crate
//!   column-wise, without the GIL (pyo3-arrow imports it);
//! - any other iterable yields rows (dicts): they are pulled a batch of 256 at a time by the crate's
//!   reader thread, each batch under the GIL, and converted to `serde_json::Value`s for the crate's
//!   `verify_values` / `audit_values`, so only the pipeline's few chunks of rows are held, never the whole
//!   history (the iterable itself may be a list already in memory; a generator streams).
//!
//! The work runs with the GIL released (`py.detach`). After every chunk the crate calls the progress
//! callback on the calling thread, which checks for Ctrl-C and calls the Python `progress`; an exception
//! there stops the run (the callback returns `Break`). An exception in the iterable or in a file's `read`
//! ends the input. Either way the first exception is kept and raised once the run is over.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::OnceLock;

use fairmines_history::{self as history, Format, HistoryError, Options, Progress, RecordBatchReader};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyCapsule, PyDict, PyFloat, PyInt, PyIterator, PyList, PyMapping, PyRange, PyString,
    PyTuple,
};
use pyo3_arrow::PyRecordBatchReader;
use serde_json::{Map, Number, Value};

use crate::Obj;
use crate::args;
use crate::errors::{OrRaise, to_py, wrong_type};
use crate::records::RevealedSeedPair;
use crate::reports::{Audit, Report};

const HISTORY_EXPECTED: &str = "a path, a binary file object, a DataFrame or an iterable of dicts (rows)";
/// Rows converted per visit to the interpreter.
const ROW_BATCH: usize = 256;

/// The first Python exception of a run (the callback, Ctrl-C, the iterable, a file's `read`).
type Failed = OnceLock<PyErr>;

/// The crate's progress callback: Ctrl-C, then the Python `progress(rows, bytes)`; an exception stops the run.
fn on_progress<'a>(
    callback: Option<&'a Py<PyAny>>,
    failed: &'a Failed,
) -> impl FnMut(Progress) -> ControlFlow<()> + 'a {
    move |p: Progress| {
        Python::attach(|py| {
            let result = py.check_signals().and_then(|()| match callback {
                Some(callback) => callback.call1(py, (p.rows, p.bytes)).map(drop),
                None => Ok(()),
            });
            match result {
                Ok(()) => ControlFlow::Continue(()),
                Err(err) => {
                    let _ = failed.set(err);
                    ControlFlow::Break(())
                }
            }
        })
    }
}

/// The result of a run as Python sees it: the first Python exception, else the crate's error.
fn outcome<T>(py: Python<'_>, result: Result<T, HistoryError>, failed: Failed) -> PyResult<T> {
    if let Some(err) = failed.into_inner() {
        return Err(err);
    }
    result.map_err(|error| match error {
        HistoryError::Io(err) => PyOSError::new_err(format!("history: {err}")),
        HistoryError::Invalid(err) => to_py(py, &err),
        HistoryError::Argument(message) => PyValueError::new_err(message),
        other => PyValueError::new_err(format!("history: {other}")),
    })
}

// ---------------------------------------------------------------------------------------------------
// Inputs

enum Source {
    Path(PathBuf),
    File(Py<PyAny>),
    Rows(Py<PyIterator>),
    Stream(Box<dyn RecordBatchReader + Send>),
}

fn source_of(obj: &Obj<'_>) -> PyResult<Source> {
    if let Ok(capsule) = obj.cast::<PyCapsule>() {
        return Ok(Source::Stream(PyRecordBatchReader::from_arrow_pycapsule(capsule)?.into_reader()?));
    }
    if obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__")? {
        let path: PathBuf = obj.extract().map_err(|_| wrong_type("history", HISTORY_EXPECTED, obj))?;
        return Ok(Source::Path(path));
    }
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return Err(PyTypeError::new_err(format!(
            "history: must be {HISTORY_EXPECTED}, not {}; wrap bytes in io.BytesIO to read them as a file",
            obj.get_type().name()?
        )));
    }
    if obj.hasattr("read")? {
        return Ok(Source::File(obj.clone().unbind()));
    }
    if obj.is_instance_of::<PyDict>() || obj.cast::<PyMapping>().is_ok() {
        return Err(PyTypeError::new_err(format!(
            "history: must be {HISTORY_EXPECTED}, not a single {}; pass a list of rows",
            obj.get_type().name()?
        )));
    }
    let iter = obj.try_iter().map_err(|_| wrong_type("history", HISTORY_EXPECTED, obj))?;
    Ok(Source::Rows(iter.unbind()))
}

/// A Python binary file object as a `Read`: each `read` call asks the object for as many bytes (the crate
/// reads 64 KiB at a time), attached to the interpreter for the moment of the call.
struct PyReader<'a> {
    file: Py<PyAny>,
    failed: &'a Failed,
}

impl Read for PyReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = Python::attach(|py| -> PyResult<usize> {
            let data = self.file.bind(py).call_method1("read", (buf.len(),))?;
            if data.is_instance_of::<PyString>() {
                return Err(PyTypeError::new_err(
                    "history: the file must be opened in binary mode (open(path, \"rb\")): its read() returned str",
                ));
            }
            // bytes, bytearray, memoryview: anything with the buffer protocol.
            let bytes = data.call_method0("__bytes__").or_else(|_| py.get_type::<PyBytes>().call1((&data,)))?;
            let bytes = bytes.cast::<PyBytes>()?.as_bytes();
            let target = buf
                .get_mut(..bytes.len())
                .ok_or_else(|| PyValueError::new_err("history: the file's read(n) returned more than n bytes"))?;
            target.copy_from_slice(bytes);
            Ok(bytes.len())
        });
        read.map_err(|err| {
            let _ = self.failed.set(err);
            io::Error::other("the file object's read() raised an exception")
        })
    }
}

/// Rows from a Python iterable, converted to JSON values a batch at a time (on the crate's reader thread).
struct Rows<'a> {
    iter: Py<PyIterator>,
    failed: &'a Failed,
    buffer: VecDeque<Value>,
    done: bool,
}

impl Iterator for Rows<'_> {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        if self.buffer.is_empty() && !self.done {
            Python::attach(|py| {
                let mut iter = self.iter.bind(py).clone();
                for _ in 0..ROW_BATCH {
                    match iter.next() {
                        Some(Ok(row)) => self.buffer.push_back(row_value(&row)),
                        end => {
                            self.done = true;
                            if let Some(Err(err)) = end {
                                let _ = self.failed.set(err);
                            }
                            break;
                        }
                    }
                }
            });
        }
        self.buffer.pop_front()
    }
}

/// A row (a dict or any mapping) as a JSON object; anything else becomes the JSON value it resembles,
/// which the crate reports as a malformed row ("row: must be a JSON object, got an array").
fn row_value(row: &Obj<'_>) -> Value {
    let items = match row.cast::<PyDict>() {
        Ok(dict) => Some(dict.items()),
        Err(_) => row.cast::<PyMapping>().ok().and_then(|mapping| mapping.items().ok()),
    };
    let Some(items) = items else { return value_of(row, 0) };
    let mut map = Map::with_capacity(items.len());
    for item in items.iter() {
        if let Ok((key, value)) = item.extract::<(Bound<'_, PyString>, Obj<'_>)>() {
            map.insert(key.to_string_lossy().into_owned(), value_of(&value, 1));
        }
    }
    Value::Object(map)
}

/// How deep a row's values are converted: a row (0), its fields (1), the items of `positions` (2).
/// Deeper values are never valid; they become an empty object (the crate says "got an object").
const MAX_DEPTH: u32 = 2;

fn float_value(x: f64) -> Value {
    // NaN is how pandas writes a missing value: a missing field. JSON has no infinities.
    if x.is_nan() {
        return Value::Null;
    }
    let x = if x.is_infinite() { f64::MAX.copysign(x) } else { x };
    Number::from_f64(x).map_or(Value::Null, Value::Number)
}

fn int_value(obj: &Obj<'_>) -> Value {
    if let Ok(n) = obj.extract::<u64>() {
        return Value::from(n);
    }
    if let Ok(n) = obj.extract::<i64>() {
        return Value::from(n);
    }
    // Beyond 64 bits: a float of the same size, which no field accepts.
    float_value(obj.extract::<f64>().unwrap_or_else(|_| if obj.lt(0).unwrap_or(false) { f64::MIN } else { f64::MAX }))
}

/// A field's value as JSON. `bool` before `int` (it is one in Python); integers by `__index__` (numpy
/// integers), floats by `__float__` (numpy floats, when not sized); lists, tuples and other iterables as arrays.
fn value_of(obj: &Obj<'_>, depth: u32) -> Value {
    if obj.is_none() {
        return Value::Null;
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return Value::String(text.to_string_lossy().into_owned());
    }
    if obj.is_instance_of::<PyBool>() {
        return Value::Bool(obj.is_truthy().unwrap_or(false));
    }
    if obj.is_instance_of::<PyInt>() {
        return int_value(obj);
    }
    if let Ok(x) = obj.cast::<PyFloat>() {
        return float_value(x.value());
    }
    // Scalars (numpy integers and floats) at any depth; an array has `__index__` too, which refuses.
    if obj.hasattr("__index__").unwrap_or(false)
        && let Ok(index) = obj.call_method0("__index__")
    {
        return int_value(&index);
    }
    if !obj.hasattr("__len__").unwrap_or(true)
        && obj.hasattr("__float__").unwrap_or(false)
        && let Ok(x) = obj.extract::<f64>()
    {
        return float_value(x);
    }
    if depth >= MAX_DEPTH {
        return Value::Object(Map::new());
    }
    if obj.is_instance_of::<PyDict>() {
        return row_value(obj);
    }
    if let Ok(list) = obj.cast::<PyList>() {
        return Value::Array(list.iter().map(|item| value_of(&item, depth + 1)).collect());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return Value::Array(tuple.iter().map(|item| value_of(&item, depth + 1)).collect());
    }
    let text = obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>();
    if !text && let Ok(items) = obj.try_iter() {
        // At most one item more than a board has tiles: the crate rejects the list either way.
        let items = items.take(usize::from(fairmines::TILES) + 1);
        return Value::Array(items.map(|item| item.map_or(Value::Null, |item| value_of(&item, depth + 1))).collect());
    }
    Value::Object(Map::new())
}

// ---------------------------------------------------------------------------------------------------
// Options

/// `columns` (a dict of str to str) and `delimiter` (a str) go to the crate as given, which judges them.
fn options_of(threads: Option<&Obj<'_>>, columns: Option<&Obj<'_>>, delimiter: Option<&Obj<'_>>) -> PyResult<Options> {
    let mut options = Options::default();
    if let Some(columns) = columns.filter(|c| !c.is_none()) {
        let expected = "a dict of str (a name in the input) to str (a field)";
        options.columns = columns.extract().map_err(|_| wrong_type("columns", expected, columns))?;
    }
    if let Some(delimiter) = delimiter.filter(|d| !d.is_none()) {
        let parsed = history::parse_delimiter(&args::text(delimiter, "delimiter")?);
        options.delimiter = parsed.map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    let Some(threads) = threads.filter(|t| !t.is_none()) else { return Ok(options) };
    if threads.is_instance_of::<PyBool>() {
        return Err(wrong_type("threads", "int", threads));
    }
    let value: i64 = threads.extract().map_err(|err: PyErr| {
        if err.is_instance_of::<PyTypeError>(threads.py()) { wrong_type("threads", "int", threads) } else { err }
    })?;
    let threads = usize::try_from(value).ok().filter(|&n| n <= 4096).ok_or_else(|| {
        PyValueError::new_err(format!("threads: must be from 0 to 4096 (0 or None: one per core), got {value}"))
    })?;
    Ok(Options { threads, ..options })
}

/// `revealed`: an iterable of `RevealedSeedPair` (what `rotate` returns), or None.
fn revealed_of(revealed: Option<&Obj<'_>>) -> PyResult<Vec<fairmines::RevealedSeedPair>> {
    let Some(revealed) = revealed.filter(|r| !r.is_none()) else { return Ok(Vec::new()) };
    let expected = "an iterable of RevealedSeedPair";
    let items = revealed.try_iter().map_err(|_| wrong_type("revealed", expected, revealed))?;
    items
        .map(|item| {
            let item = item?;
            let pair = item.cast::<RevealedSeedPair>().map_err(|_| wrong_type("revealed", expected, &item))?;
            Ok(pair.get().0.clone())
        })
        .collect()
}

/// `max_failures`: an int >= 0 (the core's rule), or None for every failure.
fn max_failures_of(max: Option<&Obj<'_>>) -> PyResult<Option<u64>> {
    let Some(max) = max.filter(|m| !m.is_none()) else { return Ok(None) };
    if max.is_instance_of::<PyBool>() || !max.is_instance_of::<PyInt>() {
        return Err(wrong_type("max_failures", "an int >= 0 or None (every failure)", max));
    }
    let count = args::number(max, "max_failures")?;
    fairmines::input::count(count, "max_failures").map(Some).or_raise(max.py())
}

fn format_of(format: Option<&Obj<'_>>) -> PyResult<Option<Format>> {
    let Some(format) = format.filter(|f| !f.is_none()) else { return Ok(None) };
    let name = args::text(format, "format")?;
    Format::parse(&name).map(Some).map_err(PyValueError::new_err)
}

fn callback_of(progress: Option<&Obj<'_>>) -> PyResult<Option<Py<PyAny>>> {
    match progress.filter(|p| !p.is_none()) {
        None => Ok(None),
        Some(p) if p.is_callable() => Ok(Some(p.clone().unbind())),
        Some(p) => Err(wrong_type("progress", "a callable (rows, bytes) or None", p)),
    }
}

fn open(py: Python<'_>, path: &PathBuf) -> PyResult<std::fs::File> {
    std::fs::File::open(path).map_err(|err| {
        // OSError(errno, strerror, filename) is the subclass for errno (FileNotFoundError, …).
        let (errno, filename) = (err.raw_os_error().unwrap_or(0), path.to_string_lossy().into_owned());
        match py.get_type::<PyOSError>().call1((errno, format!("history: {err}"), filename)) {
            Ok(exception) => PyErr::from_value(exception),
            Err(failure) => failure,
        }
    })
}

/// A history as the crate reads it: bytes (a path or a file object), rows as JSON values, or columns.
enum Input<'a> {
    Read(Box<dyn Read + Send + 'a>, Options),
    Rows(Rows<'a>, Options),
    Batches(Box<dyn RecordBatchReader + Send>, Options),
}

/// The keyword arguments of a history: `format`, `threads`, `columns`, `delimiter`.
type Settings<'a, 'py> = [Option<&'a Obj<'py>>; 4];

fn input<'a>(
    history: &Obj<'_>,
    [format, threads, columns, delimiter]: Settings<'_, '_>,
    failed: &'a Failed,
) -> PyResult<Input<'a>> {
    let (format, options) = (format_of(format)?, options_of(threads, columns, delimiter)?);
    let source = source_of(history)?;
    Ok(match source {
        Source::Path(path) => {
            let format = format.unwrap_or_else(|| Format::from_path(&path));
            Input::Read(Box::new(open(history.py(), &path)?), Options { format, ..options })
        }
        Source::File(file) => {
            let format = format.unwrap_or(Format::Auto);
            Input::Read(Box::new(PyReader { file, failed }), Options { format, ..options })
        }
        Source::Rows(_) | Source::Stream(_) if format.is_some() => {
            return Err(PyValueError::new_err("format: only for a path or a file; rows are dicts, frames columns"));
        }
        Source::Stream(batches) => Input::Batches(batches, options),
        Source::Rows(iter) => {
            let rows = Rows { iter, failed, buffer: VecDeque::with_capacity(ROW_BATCH), done: false };
            Input::Rows(rows, options)
        }
    })
}

// ---------------------------------------------------------------------------------------------------
// verify_history and audit

/// ``fairmines.verify_history`` (python/fairmines/_history.py) without its conversions: the crate's report.
#[pyfunction]
#[pyo3(signature = (history, /, *, format=None, threads=None, progress=None, columns=None, delimiter=None, max_failures=None, revealed=None, multiplier_form=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify_history(
    history: &Obj<'_>,
    format: Option<&Obj<'_>>,
    threads: Option<&Obj<'_>>,
    progress: Option<&Obj<'_>>,
    columns: Option<&Obj<'_>>,
    delimiter: Option<&Obj<'_>>,
    max_failures: Option<&Obj<'_>>,
    revealed: Option<&Obj<'_>>,
    multiplier_form: Option<&Obj<'_>>,
) -> PyResult<Report> {
    let (callback, failed) = (callback_of(progress)?, Failed::new());
    let max_failures = max_failures_of(max_failures)?;
    let revealed = revealed_of(revealed)?;
    let multiplier_form = match multiplier_form.filter(|f| !f.is_none()) {
        None => history::MultiplierForm::Exact,
        Some(form) => {
            history::MultiplierForm::parse(&args::text(form, "multiplier_form")?).map_err(PyValueError::new_err)?
        }
    };
    let mut input = input(history, [format, threads, columns, delimiter], &failed)?;
    match &mut input {
        Input::Read(_, options) | Input::Rows(_, options) | Input::Batches(_, options) => {
            options.max_failures = max_failures;
            options.revealed = revealed;
            options.multiplier_form = multiplier_form;
        }
    }
    let progress = on_progress(callback.as_ref(), &failed);
    let report = history.py().detach(|| match input {
        Input::Read(read, options) => history::verify_history(read, &options, progress),
        Input::Rows(rows, options) => history::verify_values(rows, &options, progress),
        Input::Batches(batches, options) => history::verify_batches(batches, &options, progress),
    });
    Ok(Report(outcome(history.py(), report, failed)?))
}

/// Mine counts for a seed-pair audit: an int or an iterable of ints (at least one).
fn mine_counts(obj: &Obj<'_>) -> PyResult<Vec<fairmines::MineCount>> {
    if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() || obj.hasattr("__index__")? {
        return Ok(vec![args::mines(obj)?]);
    }
    const EXPECTED: &str = "an int or an iterable of int";
    args::reject_text(obj, "mines", EXPECTED)?;
    let items = obj.try_iter().map_err(|_| wrong_type("mines", EXPECTED, obj))?;
    let list = items.map(|item| args::mines(&item?)).collect::<PyResult<Vec<_>>>()?;
    if list.is_empty() {
        return Err(PyValueError::new_err("mines: give at least one mine count"));
    }
    Ok(list)
}

/// An argument a seed-pair audit needs.
fn needed<'a, 'py>(arg: Option<&'a Obj<'py>>, name: &str) -> PyResult<&'a Obj<'py>> {
    arg.filter(|a| !a.is_none()).ok_or_else(|| PyTypeError::new_err(format!("audit: a seed-pair audit needs {name}")))
}

/// The nonces of a seed-pair audit: a `range` with step 1, as (first, count).
fn nonce_range(obj: &Obj<'_>) -> PyResult<(u64, u64)> {
    let range = obj.cast::<PyRange>().map_err(|_| wrong_type("nonces", "a range", obj))?;
    let (first, count) = args::unit_range(range, false)?.unwrap_or_default();
    // 2^64 nonces do not fit a u64 count: the crate audits at most 2^64 - 1 of them.
    Ok((first, u64::try_from(count).unwrap_or(u64::MAX)))
}

/// ``fairmines.audit`` (python/fairmines/_history.py) without its conversions: the crate's counts.
#[pyfunction]
#[pyo3(signature = (history=None, /, *, server_seed=None, client_seed=None, nonces=None, mines=None, format=None, threads=None, progress=None, columns=None, delimiter=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn audit(
    py: Python<'_>,
    history: Option<&Obj<'_>>,
    server_seed: Option<&Obj<'_>>,
    client_seed: Option<&Obj<'_>>,
    nonces: Option<&Obj<'_>>,
    mines: Option<&Obj<'_>>,
    format: Option<&Obj<'_>>,
    threads: Option<&Obj<'_>>,
    progress: Option<&Obj<'_>>,
    columns: Option<&Obj<'_>>,
    delimiter: Option<&Obj<'_>>,
) -> PyResult<Audit> {
    let given = |arg: Option<&Obj<'_>>| arg.is_some_and(|a| !a.is_none());
    let seed_pair = [server_seed, client_seed, nonces, mines].into_iter().any(given);
    let (callback, failed) = (callback_of(progress)?, Failed::new());
    let counts = match history.filter(|h| !h.is_none()) {
        Some(_) if seed_pair => {
            return Err(PyTypeError::new_err(
                "audit: give a history, or server_seed, client_seed, nonces and mines, not both",
            ));
        }
        Some(history) => {
            let input = input(history, [format, threads, columns, delimiter], &failed)?;
            let progress = on_progress(callback.as_ref(), &failed);
            py.detach(|| match input {
                Input::Read(read, options) => history::audit_history(read, &options, progress),
                Input::Rows(rows, options) => history::audit_values(rows, &options, progress),
                Input::Batches(batches, options) => history::audit_batches(batches, &options, progress),
            })
        }
        None if !seed_pair => {
            return Err(PyTypeError::new_err("audit: give a history, or server_seed, client_seed, nonces and mines"));
        }
        None => {
            if [format, threads, columns, delimiter].into_iter().any(given) {
                return Err(PyTypeError::new_err(
                    "audit: format, threads, columns and delimiter are for histories; a seed-pair audit uses every core",
                ));
            }
            let server_seed = args::text(needed(server_seed, "server_seed")?, "server_seed")?;
            let client_seed = args::text(needed(client_seed, "client_seed")?, "client_seed")?;
            let (first, count) = nonce_range(needed(nonces, "nonces")?)?;
            let mines = mine_counts(needed(mines, "mines")?)?;
            let progress = on_progress(callback.as_ref(), &failed);
            py.detach(|| history::audit_seed_pair_counts(&server_seed, &client_seed, first, count, &mines, progress))
        }
    };
    Ok(Audit(outcome(py, counts, failed)?))
}
