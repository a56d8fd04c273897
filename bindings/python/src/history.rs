//! `verify_history` and `audit`: whole bet histories, from the `fairmines-history` crate.
//!
//! The crate reads, schedules and counts (a bounded pipeline on every core); this module only turns
//! Python inputs into what it reads and its reports into Python objects:
//!
//! - a path (`str`, `os.PathLike`) is opened and read by Rust: streaming, constant memory;
//! - a binary file object (anything with `read`, e.g. `open(p, "rb")`, `gzip.open(p)`, `io.BytesIO`)
//!   is read in 64 KiB pieces, each `read` call taking the GIL for a moment;
//! - any other iterable yields rows (dicts): they are pulled a batch of 256 at a time by the crate's
//!   reader thread, each batch under the GIL, and converted to `serde_json::Value`s, so only the
//!   pipeline's few chunks of rows are held, never the whole history (the iterable itself may be a
//!   list already in memory; a generator streams).
//!
//! The work runs with the GIL released (`py.detach`). The progress callback and Ctrl-C (`check_signals`)
//! are served after every chunk from the calling thread; an exception in either (or in the iterable, or
//! in a file's `read`) stops the run: the reader reports end of input or an I/O error, the pipeline
//! drains, and the exception is raised.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use fairmines::{Error, MineCount};
use fairmines_history::{self as history, AuditCounts, FailureKind, Format, HistoryError, Options, Progress};
use pyo3::exceptions::{PyImportError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::IntoPyDict as _;
use pyo3::types::{
    PyBool, PyByteArray, PyBytes, PyDict, PyFloat, PyInt, PyList, PyMapping, PyRange, PyString, PyTuple,
};
use serde_json::{Map, Number, Value};

use crate::args;
use crate::errors::{to_py, wrong_type};

const HISTORY_EXPECTED: &str = "a path, a binary file object or an iterable of dicts (rows)";
/// Rows converted per visit to the interpreter.
const ROW_BATCH: usize = 256;
/// Bytes asked of a file object's `read` at a time.
const READ_SIZE: usize = 1 << 16;
/// Nonces of a seed-pair audit per call into the crate (between two progress calls / signal checks).
const AUDIT_BLOCK: u64 = 1 << 20;

// ---------------------------------------------------------------------------------------------------
// Stopping a run from Python

/// The first Python exception of a run (from the callback, a signal, the iterable or a file), shared
/// between the calling thread and the crate's reader thread. Once set, the reader stops.
#[derive(Clone, Default)]
struct Halt {
    stopped: Arc<AtomicBool>,
    error: Arc<Mutex<Option<PyErr>>>,
}

impl Halt {
    fn fail(&self, err: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(err);
        }
        self.stopped.store(true, Ordering::SeqCst);
    }

    fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    fn take(&self) -> Option<PyErr> {
        self.error.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// The `on_progress` of a run: checks for Ctrl-C and calls `progress(rows, bytes)`.
    fn progress<'a>(&'a self, callback: Option<&'a Py<PyAny>>, offset: u64) -> impl FnMut(Progress) + 'a {
        move |p: Progress| {
            if self.is_stopped() {
                return;
            }
            Python::attach(|py| {
                let result = py.check_signals().and_then(|()| match callback {
                    Some(callback) => callback.call1(py, (offset + p.rows, p.bytes)).map(drop),
                    None => Ok(()),
                });
                if let Err(err) = result {
                    self.fail(err);
                }
            });
        }
    }
}

/// The error of a stopped reader (replaced by the Python exception that stopped it).
fn stopped() -> io::Error {
    io::Error::other("stopped by a Python exception")
}

/// A reader that ends with an error once the run is stopped.
struct Halting<R> {
    inner: R,
    halt: Halt,
}

impl<R: Read> Read for Halting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.halt.is_stopped() {
            return Err(stopped());
        }
        self.inner.read(buf)
    }
}

// ---------------------------------------------------------------------------------------------------
// Inputs

enum Source {
    Path(PathBuf),
    File(Py<PyAny>),
    Rows(Py<pyo3::types::PyIterator>),
}

fn source_of(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
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

/// A Python binary file object as a `Read` (each `read` call attaches to the interpreter).
struct PyReader {
    file: Py<PyAny>,
    halt: Halt,
    pending: Vec<u8>,
    at: usize,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.halt.is_stopped() {
            return Err(stopped());
        }
        if self.at == self.pending.len() {
            let result = Python::attach(|py| -> PyResult<Vec<u8>> {
                let data = self.file.bind(py).call_method1("read", (READ_SIZE,))?;
                if data.is_instance_of::<PyString>() {
                    return Err(PyTypeError::new_err(
                        "history: the file must be opened in binary mode (open(path, \"rb\")): its read() returned str",
                    ));
                }
                // bytes, bytearray, memoryview: anything with the buffer protocol.
                let bytes = data.call_method0("__bytes__").or_else(|_| py.get_type::<PyBytes>().call1((&data,)))?;
                Ok(bytes.cast::<PyBytes>()?.as_bytes().to_vec())
            });
            match result {
                Ok(data) => {
                    self.pending = data;
                    self.at = 0;
                }
                Err(err) => {
                    self.halt.fail(err);
                    return Err(stopped());
                }
            }
            if self.pending.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Rows from a Python iterable, converted to JSON values a batch at a time (on the crate's reader thread).
struct Rows {
    iter: Py<pyo3::types::PyIterator>,
    halt: Halt,
    buffer: VecDeque<Value>,
    done: bool,
}

impl Rows {
    fn new(iter: Py<pyo3::types::PyIterator>, halt: Halt) -> Self {
        Rows { iter, halt, buffer: VecDeque::with_capacity(ROW_BATCH), done: false }
    }
}

impl Iterator for Rows {
    type Item = Value;

    fn next(&mut self) -> Option<Value> {
        if self.halt.is_stopped() {
            return None;
        }
        if self.buffer.is_empty() && !self.done {
            Python::attach(|py| {
                let mut iter = self.iter.bind(py).clone();
                for _ in 0..ROW_BATCH {
                    match iter.next() {
                        None => {
                            self.done = true;
                            break;
                        }
                        Some(Err(err)) => {
                            self.done = true;
                            self.halt.fail(err);
                            break;
                        }
                        Some(Ok(row)) => self.buffer.push_back(row_value(&row)),
                    }
                }
            });
        }
        if self.halt.is_stopped() { None } else { self.buffer.pop_front() }
    }
}

/// Rows as JSON Lines, for the crate's readers (the audit reads a `Read`).
struct JsonLines {
    rows: Rows,
    line: Vec<u8>,
    at: usize,
}

impl Read for JsonLines {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.line.len() {
            let Some(value) = self.rows.next() else {
                return if self.rows.halt.is_stopped() { Err(stopped()) } else { Ok(0) };
            };
            self.line.clear();
            serde_json::to_writer(&mut self.line, &value).map_err(io::Error::other)?;
            self.line.push(b'\n');
            self.at = 0;
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A row (a dict or any mapping) as a JSON object; anything else becomes the JSON value it resembles,
/// which the crate reports as a malformed row ("row: must be a JSON object, got an array").
fn row_value(row: &Bound<'_, PyAny>) -> Value {
    if let Ok(dict) = row.cast::<PyDict>() {
        let mut map = Map::with_capacity(dict.len());
        for (key, value) in dict.iter() {
            if let Ok(key) = key.cast::<PyString>() {
                map.insert(key.to_string_lossy().into_owned(), value_of(&value, 1));
            }
        }
        return Value::Object(map);
    }
    if let Ok(mapping) = row.cast::<PyMapping>()
        && let Ok(items) = mapping.items()
    {
        let mut map = Map::new();
        for item in items.iter() {
            if let Ok((key, value)) = item.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
                && let Ok(key) = key.cast::<PyString>()
            {
                map.insert(key.to_string_lossy().into_owned(), value_of(&value, 1));
            }
        }
        return Value::Object(map);
    }
    value_of(row, 0)
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

fn int_value(obj: &Bound<'_, PyAny>) -> Value {
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
/// integers), floats by `__float__` (numpy floats); lists, tuples and other iterables as arrays.
fn value_of(obj: &Bound<'_, PyAny>, depth: u32) -> Value {
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
    if obj.hasattr("__index__").unwrap_or(false)
        && let Ok(index) = obj.call_method0("__index__")
    {
        return int_value(&index);
    }
    if obj.hasattr("__float__").unwrap_or(false)
        && let Ok(x) = obj.extract::<f64>()
    {
        return float_value(x);
    }
    let text = obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>();
    if !text && let Ok(items) = obj.try_iter() {
        // At most one item more than a board has tiles: the crate rejects the list either way.
        let items: Vec<Value> = items
            .take(usize::from(fairmines::TILES) + 1)
            .map(|item| item.map_or(Value::Null, |item| value_of(&item, depth + 1)))
            .collect();
        return Value::Array(items);
    }
    Value::Object(Map::new())
}

// ---------------------------------------------------------------------------------------------------
// Options

fn format_of(format: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Format>> {
    let Some(format) = format.filter(|f| !f.is_none()) else { return Ok(None) };
    let name = args::text(format, "format")?;
    Format::parse(&name).map(Some).map_err(PyValueError::new_err)
}

fn threads_of(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    let Some(threads) = threads.filter(|t| !t.is_none()) else { return Ok(0) };
    if threads.is_instance_of::<PyBool>() {
        return Err(wrong_type("threads", "int", threads));
    }
    let value: i64 = threads.extract().map_err(|err: PyErr| {
        if err.is_instance_of::<PyTypeError>(threads.py()) { wrong_type("threads", "int", threads) } else { err }
    })?;
    usize::try_from(value).ok().filter(|&n| n <= 4096).ok_or_else(|| {
        PyValueError::new_err(format!("threads: must be 0..=4096 (0 or None: one per core), got {value}"))
    })
}

fn callback_of(progress: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Py<PyAny>>> {
    match progress.filter(|p| !p.is_none()) {
        None => Ok(None),
        Some(p) if p.is_callable() => Ok(Some(p.clone().unbind())),
        Some(p) => Err(wrong_type("progress", "a callable (rows, bytes) or None", p)),
    }
}

fn open(py: Python<'_>, path: &PathBuf) -> PyResult<std::fs::File> {
    std::fs::File::open(path).map_err(|err| {
        // OSError(errno, strerror, filename) is the subclass for errno (FileNotFoundError, …).
        let errno = err.raw_os_error().unwrap_or(0);
        let text = err.to_string();
        let filename = path.to_string_lossy().into_owned();
        match py.get_type::<PyOSError>().call1((errno, format!("history: {text}"), filename)) {
            Ok(exception) => PyErr::from_value(exception),
            Err(failure) => failure,
        }
    })
}

/// The Python exception for a run that ended early.
fn run_error(halt: &Halt, error: HistoryError) -> PyErr {
    if let Some(err) = halt.take() {
        return err;
    }
    match error {
        HistoryError::Io(err) => PyOSError::new_err(format!("history: {err}")),
        other => PyValueError::new_err(format!("history: {other}")),
    }
}

/// Raises the exception that stopped a run whose result came back anyway.
fn finished<T>(halt: &Halt, value: T) -> PyResult<T> {
    match halt.take() {
        Some(err) => Err(err),
        None => Ok(value),
    }
}

// ---------------------------------------------------------------------------------------------------
// verify_history

/// Verifies a whole bet history: every row's commitment and mine positions recomputed from its seeds,
/// nonce gaps and duplicates per seed pair, malformed rows reported and skipped.
///
/// ``history`` is a path (JSON Lines or CSV, read by Rust in constant memory), a binary file object, or
/// an iterable of dicts with the fields of the format (converted row by row; a generator streams, a
/// list is as big as it is). ``format`` is ``"jsonl"``, ``"csv"`` or ``"auto"`` (for paths and files;
/// by default from the file's extension, else its first byte). ``threads``: worker threads (default:
/// one per core). ``progress(rows, bytes)`` is called after every chunk of 2,048 rows; an exception in
/// it stops the run and is raised. Runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (history, /, *, format=None, threads=None, progress=None))]
pub(crate) fn verify_history(
    history: &Bound<'_, PyAny>,
    format: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<HistoryReport> {
    let py = history.py();
    let source = source_of(history)?;
    let format = format_of(format)?;
    let options = Options { threads: threads_of(threads)?, ..Options::default() };
    let callback = callback_of(progress)?;
    let halt = Halt::default();
    let report = match source {
        Source::Path(path) => {
            let file = open(py, &path)?;
            let options = Options { format: format.unwrap_or_else(|| Format::from_path(&path)), ..options };
            let input = Halting { inner: file, halt: halt.clone() };
            py.detach(|| history::verify_history(input, &options, halt.progress(callback.as_ref(), 0)))
                .map_err(|err| run_error(&halt, err))?
        }
        Source::File(file) => {
            let options = Options { format: format.unwrap_or(Format::Auto), ..options };
            let input = PyReader { file, halt: halt.clone(), pending: Vec::new(), at: 0 };
            py.detach(|| history::verify_history(input, &options, halt.progress(callback.as_ref(), 0)))
                .map_err(|err| run_error(&halt, err))?
        }
        Source::Rows(iter) => {
            if format.is_some() {
                return Err(PyValueError::new_err("format: only for a path or a file; rows are dicts"));
            }
            let rows = Rows::new(iter, halt.clone());
            py.detach(|| history::verify_values(rows, &options, halt.progress(callback.as_ref(), 0)))
        }
    };
    finished(&halt, HistoryReport::new(report))
}

fn kind_name(kind: FailureKind) -> &'static str {
    kind.as_str()
}

/// One finding of ``verify_history``: a failing row, or a gap between rows.
///
/// ``kind`` is ``"malformed"``, ``"commitment"``, ``"positions"``, ``"duplicate_nonce"`` or
/// ``"nonce_gap"``. A row failing two checks gives two failures with the same ``line``.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct Failure(history::Failure);

#[pymethods]
impl Failure {
    /// ``"malformed"``, ``"commitment"``, ``"positions"``, ``"duplicate_nonce"`` or ``"nonce_gap"``.
    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(self.0.kind)
    }

    /// The row's first line (1-based; the CSV header is line 1; for dicts, row ``i`` is line ``i + 1``),
    /// or None for gaps and for duplicates found by ``merge``.
    #[getter]
    fn line(&self) -> Option<u64> {
        self.0.line
    }

    /// The row's round id, where it has one.
    #[getter]
    fn round_id(&self) -> Option<&str> {
        self.0.round_id.as_deref()
    }

    /// The seed pair's commitment (SHA3-256 of its server seed, computed), where the row could be read.
    #[getter]
    fn pair_commitment(&self) -> Option<&str> {
        self.0.pair_commitment.as_deref()
    }

    /// The seed pair's client seed, where the row could be read.
    #[getter]
    fn client_seed(&self) -> Option<&str> {
        self.0.client_seed.as_deref()
    }

    /// The row's nonce; for a gap or a merged duplicate range, its first nonce.
    #[getter]
    fn nonce(&self) -> Option<u64> {
        self.0.nonce
    }

    /// For a gap or a merged duplicate range, its last nonce.
    #[getter]
    fn last_nonce(&self) -> Option<u64> {
        self.0.last_nonce
    }

    /// The field at fault (``positions``, ``commitment``, ``nonce``, ``mines``, …), if one is.
    #[getter]
    fn field(&self) -> Option<&str> {
        self.0.field.as_deref()
    }

    /// What the seeds give (``"7,10,19"``, a commitment's hex), for mismatches.
    #[getter]
    fn expected(&self) -> Option<&str> {
        self.0.expected.as_deref()
    }

    /// What the history declares, for mismatches.
    #[getter]
    fn declared(&self) -> Option<&str> {
        self.0.declared.as_deref()
    }

    /// The finding in words, starting with the field at fault.
    #[getter]
    fn message(&self) -> &str {
        &self.0.message
    }

    /// The failure as a dict (the columns of ``HistoryReport.to_pandas()``).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in failure_columns(&self.0) {
            dict.set_item(name, value.into_pyobject(py)?)?;
        }
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let f = &self.0;
        let mut out = format!("<Failure {}", kind_name(f.kind));
        if let Some(line) = f.line {
            let _ = write!(out, " line {line}");
        }
        if let Some(id) = &f.round_id {
            let _ = write!(out, " round {}", py_repr(py, id));
        }
        let _ = write!(out, ": {}>", f.message);
        out
    }
}

/// A column value of the failures table.
enum Cell<'a> {
    Text(Option<&'a str>),
    Number(Option<u64>),
}

impl<'py> IntoPyObject<'py> for Cell<'_> {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Cell::Text(text) => Ok(text.into_pyobject(py)?.into_any()),
            Cell::Number(number) => Ok(number.into_pyobject(py)?.into_any()),
        }
    }
}

const FAILURE_COLUMNS: [&str; 11] = [
    "line",
    "round_id",
    "kind",
    "field",
    "expected",
    "declared",
    "nonce",
    "last_nonce",
    "pair_commitment",
    "client_seed",
    "message",
];

fn failure_columns(f: &history::Failure) -> [(&'static str, Cell<'_>); 11] {
    [
        ("line", Cell::Number(f.line)),
        ("round_id", Cell::Text(f.round_id.as_deref())),
        ("kind", Cell::Text(Some(kind_name(f.kind)))),
        ("field", Cell::Text(f.field.as_deref())),
        ("expected", Cell::Text(f.expected.as_deref())),
        ("declared", Cell::Text(f.declared.as_deref())),
        ("nonce", Cell::Number(f.nonce)),
        ("last_nonce", Cell::Number(f.last_nonce)),
        ("pair_commitment", Cell::Text(f.pair_commitment.as_deref())),
        ("client_seed", Cell::Text(f.client_seed.as_deref())),
        ("message", Cell::Text(Some(&f.message))),
    ]
}

/// The Python repr of a string.
fn py_repr(py: Python<'_>, text: &str) -> String {
    PyString::new(py, text).repr().map_or_else(|_| format!("{text:?}"), |r| r.to_string())
}

/// The counts of ``verify_history``. ``ok + mismatched + malformed == rows_read``, always.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct HistorySummary(history::Summary);

/// (name, value) of every count, in the order of the crate's `Summary`.
fn summary_fields(s: &history::Summary) -> [(&'static str, u64); 12] {
    [
        ("rows_read", s.rows_read),
        ("ok", s.ok),
        ("mismatched", s.mismatched),
        ("malformed", s.malformed),
        ("commitment_mismatches", s.commitment_mismatches),
        ("position_mismatches", s.position_mismatches),
        ("duplicate_nonces", s.duplicate_nonces),
        ("nonce_gaps", s.nonce_gaps),
        ("missing_nonces", s.missing_nonces),
        ("seed_pairs", s.seed_pairs),
        ("blank_lines", s.blank_lines),
        ("pairs_closed_early", s.pairs_closed_early),
    ]
}

#[pymethods]
impl HistorySummary {
    /// Rows read (blank lines are not rows).
    #[getter]
    fn rows_read(&self) -> u64 {
        self.0.rows_read
    }

    /// Rows that are well formed, check out, and whose nonce is new for their seed pair.
    #[getter]
    fn ok(&self) -> u64 {
        self.0.ok
    }

    /// Well-formed rows failing a check (commitment, positions, or a nonce seen before), each counted once.
    #[getter]
    fn mismatched(&self) -> u64 {
        self.0.mismatched
    }

    /// Rows that could not be read (reported and skipped).
    #[getter]
    fn malformed(&self) -> u64 {
        self.0.malformed
    }

    /// Rows whose declared commitment is wrong.
    #[getter]
    fn commitment_mismatches(&self) -> u64 {
        self.0.commitment_mismatches
    }

    /// Rows whose declared positions are wrong.
    #[getter]
    fn position_mismatches(&self) -> u64 {
        self.0.position_mismatches
    }

    /// Rows whose nonce their seed pair already had.
    #[getter]
    fn duplicate_nonces(&self) -> u64 {
        self.0.duplicate_nonces
    }

    /// Stretches of missing nonces.
    #[getter]
    fn nonce_gaps(&self) -> u64 {
        self.0.nonce_gaps
    }

    /// Nonces missing in all the gaps.
    #[getter]
    fn missing_nonces(&self) -> u64 {
        self.0.missing_nonces
    }

    /// Distinct seed pairs seen.
    #[getter]
    fn seed_pairs(&self) -> u64 {
        self.0.seed_pairs
    }

    /// Blank lines skipped (JSON Lines; they are not rows).
    #[getter]
    fn blank_lines(&self) -> u64 {
        self.0.blank_lines
    }

    /// Seed pairs closed early because too many were open at once (see the crate's README).
    #[getter]
    fn pairs_closed_early(&self) -> u64 {
        self.0.pairs_closed_early
    }

    /// The input's last line has no newline (not a failure by itself).
    #[getter]
    fn unterminated_last_line(&self) -> bool {
        self.0.unterminated_last_line
    }

    /// Every count (and ``unterminated_last_line``) as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in summary_fields(&self.0) {
            dict.set_item(name, value)?;
        }
        dict.set_item("unterminated_last_line", self.0.unterminated_last_line)?;
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        let mut out = String::from("HistorySummary(");
        for (i, (name, value)) in summary_fields(&self.0).iter().enumerate() {
            let _ = write!(out, "{}{name}={value}", if i == 0 { "" } else { ", " });
        }
        let last = if self.0.unterminated_last_line { "True" } else { "False" };
        let _ = write!(out, ", unterminated_last_line={last})");
        out
    }
}

/// What ``verify_history`` found: ``summary`` (the counts), ``failures`` (every failing row and every
/// nonce gap, in input order, gaps last), ``ok``.
///
/// ``merge(other)`` combines the reports of two parts of one history checked apart (Dask partitions):
/// counts add up, and the seed pairs' nonces are merged, so gaps are found again over the whole and a
/// nonce both parts have is a duplicate. Reports pickle (as ``to_json()``; they hold no server seed).
#[pyclass(module = "fairmines", frozen)]
pub(crate) struct HistoryReport {
    inner: history::Report,
    failures: PyOnceLock<Py<PyTuple>>,
}

impl PartialEq for HistoryReport {
    fn eq(&self, other: &Self) -> bool {
        self.inner == other.inner
    }
}

impl HistoryReport {
    fn new(inner: history::Report) -> Self {
        HistoryReport { inner, failures: PyOnceLock::new() }
    }
}

fn state_error(py: Python<'_>, argument: &'static str, detail: String) -> PyErr {
    to_py(py, &Error::InvalidState { argument, detail })
}

#[pymethods]
impl HistoryReport {
    /// An empty report (no rows): the start of a ``functools.reduce`` over partition reports.
    #[new]
    fn py_new() -> Self {
        HistoryReport::new(history::Report::default())
    }

    /// The counts.
    #[getter]
    fn summary(&self) -> HistorySummary {
        HistorySummary(self.inner.summary.clone())
    }

    /// True when every row is ok and no nonce is missing.
    #[getter]
    fn ok(&self) -> bool {
        self.inner.is_ok()
    }

    fn __bool__(&self) -> bool {
        self.inner.is_ok()
    }

    /// Every failure, as a tuple of ``Failure`` (built once, on first use).
    #[getter]
    fn failures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let tuple = self.failures.get_or_try_init(py, || -> PyResult<Py<PyTuple>> {
            let items: Vec<Bound<'py, Failure>> =
                self.inner.failures.iter().map(|f| Bound::new(py, Failure(f.clone()))).collect::<PyResult<_>>()?;
            Ok(PyTuple::new(py, items)?.unbind())
        })?;
        Ok(tuple.bind(py).clone())
    }

    /// The report of this part and ``other`` together (see the class's doc). Line numbers stay those
    /// of each part; a duplicate found only by merging has no line.
    fn merge(&self, other: &Bound<'_, HistoryReport>) -> HistoryReport {
        HistoryReport::new(self.inner.clone().merge(other.get().inner.clone()))
    }

    /// The failures as a pandas DataFrame, one row per failure: ``line``, ``round_id``, ``kind``
    /// (categorical), ``field``, ``expected``, ``declared``, ``nonce``, ``last_nonce`` (nullable
    /// ``Int64``/``UInt64``), ``pair_commitment``, ``client_seed``, ``message``. Needs pandas.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pd = py.import("pandas").map_err(|cause| {
            let err = PyImportError::new_err(
                "HistoryReport.to_pandas needs pandas, which could not be imported (pip install pandas); \
                 .failures has the same data as a tuple",
            );
            err.set_cause(py, Some(cause));
            err
        })?;
        let n = self.inner.failures.len();
        let mut columns: Vec<Vec<Bound<'py, PyAny>>> =
            (0..FAILURE_COLUMNS.len()).map(|_| Vec::with_capacity(n)).collect();
        for failure in &self.inner.failures {
            for (column, (_, cell)) in columns.iter_mut().zip(failure_columns(failure)) {
                column.push(cell.into_pyobject(py)?);
            }
        }
        let data = PyDict::new(py);
        for (name, column) in FAILURE_COLUMNS.iter().zip(columns) {
            let list = PyList::new(py, column)?;
            let value = match *name {
                "line" => pd.call_method("array", (list,), Some(&[("dtype", "Int64")].into_py_dict(py)?))?,
                "nonce" | "last_nonce" => {
                    pd.call_method("array", (list,), Some(&[("dtype", "UInt64")].into_py_dict(py)?))?
                }
                "kind" => {
                    let categories = PyList::new(py, ALL_KINDS.iter().map(|k| k.as_str()))?;
                    let kwargs = PyDict::new(py);
                    kwargs.set_item("categories", categories)?;
                    pd.call_method("Categorical", (list,), Some(&kwargs))?
                }
                _ => pd.call_method("array", (list,), Some(&[("dtype", "object")].into_py_dict(py)?))?,
            };
            data.set_item(*name, value)?;
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("columns", PyList::new(py, FAILURE_COLUMNS)?)?;
        pd.call_method("DataFrame", (data,), Some(&kwargs))
    }

    /// The report as JSON (summary, failures, and each seed pair's nonces for ``merge``); no server seed.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| PyValueError::new_err(format!("report: {e}")))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<HistoryReport> {
        let text = args::text(json, "json")?;
        serde_json::from_str(&text).map(HistoryReport::new).map_err(|e| state_error(json.py(), "json", e.to_string()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<HistoryReport>().is_ok_and(|other| *self == *other.get())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.get().to_json()?,).into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        let s = &self.inner.summary;
        format!(
            "<HistoryReport {}: {} rows read, {} ok, {} mismatched, {} malformed, {} nonce gap(s), {} failure(s)>",
            if s.is_ok() { "ok" } else { "FAILED" },
            s.rows_read,
            s.ok,
            s.mismatched,
            s.malformed,
            s.nonce_gaps,
            self.inner.failures.len()
        )
    }
}

const ALL_KINDS: [FailureKind; 5] = [
    FailureKind::Malformed,
    FailureKind::Commitment,
    FailureKind::Positions,
    FailureKind::DuplicateNonce,
    FailureKind::NonceGap,
];

// ---------------------------------------------------------------------------------------------------
// audit

/// A chi-square goodness-of-fit test against the uniform distribution (p-value: statrs' ``sf``).
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq, Clone, Copy)]
pub(crate) struct ChiSquare(history::ChiSquare);

#[pymethods]
impl ChiSquare {
    /// The statistic.
    #[getter]
    fn statistic(&self) -> f64 {
        self.0.statistic
    }

    /// Its degrees of freedom.
    #[getter]
    fn degrees_of_freedom(&self) -> u32 {
        self.0.degrees_of_freedom
    }

    /// The probability of a statistic at least this large if the tiles are uniform.
    #[getter]
    fn p_value(&self) -> f64 {
        self.0.p_value
    }

    fn __repr__(&self) -> String {
        format!(
            "ChiSquare(statistic={:?}, degrees_of_freedom={}, p_value={:?})",
            self.0.statistic, self.0.degrees_of_freedom, self.0.p_value
        )
    }
}

/// The audit of one mine count: rounds, per-tile mine counts and their uniformity test.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct MineAudit(history::MineAudit);

#[pymethods]
impl MineAudit {
    /// The mine count.
    #[getter]
    fn mines(&self) -> u8 {
        self.0.mines
    }

    /// Rounds with this mine count.
    #[getter]
    fn rounds(&self) -> u64 {
        self.0.rounds
    }

    /// 25 counts: index ``i`` is the number of rounds with a mine on tile ``i + 1``.
    #[getter]
    fn tile_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.tile_counts)
    }

    /// The test of ``tile_counts`` (Pearson's statistic scaled by 24 / (25 - mines), 24 degrees of
    /// freedom; see the crate's README), or None without rounds.
    #[getter]
    fn chi_square(&self) -> Option<ChiSquare> {
        self.0.chi_square.map(ChiSquare)
    }

    fn __repr__(&self) -> String {
        let test = self.0.chi_square.map_or_else(
            || "no test".to_owned(),
            |t| format!("chi-square {:.3} (df {}), p = {:.4}", t.statistic, t.degrees_of_freedom, t.p_value),
        );
        format!("<MineAudit {} mines: {} rounds, {test}>", self.0.mines, self.0.rounds)
    }
}

/// What ``audit`` found: per mine count, how often each tile held a mine and a chi-square test against
/// the uniform distribution; the first-draw distribution and its test; the heatmap.
///
/// ``merge(other)`` adds the counts of another part (Dask partitions) and recomputes the tests.
/// Reports pickle (as ``to_json()``: the counts).
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct AuditReport {
    counts: AuditCounts,
    report: history::AuditReport,
}

impl AuditReport {
    fn new(counts: AuditCounts) -> Self {
        let report = counts.report();
        AuditReport { counts, report }
    }
}

#[pymethods]
impl AuditReport {
    /// An empty report (no rounds): the start of a ``functools.reduce`` over partition reports.
    #[new]
    fn py_new() -> Self {
        AuditReport::new(AuditCounts::default())
    }

    /// Rows read (history audits) or rounds computed, once per mine count (seed-pair audits).
    #[getter]
    fn rows_read(&self) -> u64 {
        self.report.rows_read
    }

    /// Rows that could not be read (``verify_history`` says why).
    #[getter]
    fn malformed(&self) -> u64 {
        self.report.malformed
    }

    /// Rows whose declared positions are not ``mines`` different tiles, left out of the tile counts.
    #[getter]
    fn skipped(&self) -> u64 {
        self.report.skipped
    }

    /// One ``MineAudit`` per mine count that has rounds, in order.
    #[getter]
    fn by_mines<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let items: Vec<Bound<'py, MineAudit>> =
            self.report.by_mines.iter().map(|m| Bound::new(py, MineAudit(m.clone()))).collect::<PyResult<_>>()?;
        PyTuple::new(py, items)
    }

    /// 25 counts: index ``i`` is the number of rounds whose first mine was drawn on tile ``i + 1``.
    #[getter]
    fn first_draw_counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.report.first_draw_counts)
    }

    /// The uniformity test of ``first_draw_counts`` (plain Pearson, 24 degrees of freedom), or None.
    #[getter]
    fn first_draw(&self) -> Option<ChiSquare> {
        self.report.first_draw.map(ChiSquare)
    }

    /// All mine counts together: the sum of their statistics, 24 degrees of freedom each; or None.
    #[getter]
    fn combined(&self) -> Option<ChiSquare> {
        self.report.combined.map(ChiSquare)
    }

    /// The 5×5 grid as text: each tile's deviation from uniform in percent, shaded by its z-score.
    fn heatmap_text(&self) -> String {
        history::heatmap_text(&self.report)
    }

    /// The heatmap as a standalone SVG document (red above uniform, blue below).
    #[pyo3(signature = (title = None))]
    fn heatmap_svg(&self, title: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let title = match title.filter(|t| !t.is_none()) {
            Some(title) => args::text(title, "title")?.to_string(),
            None => "fairmines audit".to_owned(),
        };
        Ok(history::heatmap_svg(&self.report, &title))
    }

    /// The counts of this part and ``other`` added up, with the tests recomputed.
    fn merge(&self, other: &Bound<'_, AuditReport>) -> AuditReport {
        let mut counts = self.counts.clone();
        counts.merge(&other.get().counts);
        AuditReport::new(counts)
    }

    /// The counts as JSON (from which every test is recomputed).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.counts).map_err(|e| PyValueError::new_err(format!("report: {e}")))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<AuditReport> {
        let text = args::text(json, "json")?;
        serde_json::from_str(&text).map(AuditReport::new).map_err(|e| state_error(json.py(), "json", e.to_string()))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.get().to_json()?,).into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        let r = &self.report;
        let rounds: u64 = r.by_mines.iter().map(|m| m.rounds).sum();
        let combined = r.combined.map_or_else(|| "no test".to_owned(), |t| format!("combined p = {:.4}", t.p_value));
        format!(
            "<AuditReport {rounds} rounds over {} mine count(s), {} malformed, {} skipped; {combined}>",
            r.by_mines.len(),
            r.malformed,
            r.skipped
        )
    }
}

/// Mine counts for a seed-pair audit: an int or an iterable of ints.
fn mine_counts(obj: &Bound<'_, PyAny>) -> PyResult<Vec<MineCount>> {
    if obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() || obj.hasattr("__index__")? {
        return Ok(vec![args::mines(obj)?]);
    }
    args::reject_text(obj, "mines", "an int or an iterable of int")?;
    let items = obj.try_iter().map_err(|_| wrong_type("mines", "an int or an iterable of int", obj))?;
    let mut list = Vec::new();
    for item in items {
        list.push(args::mines(&item?)?);
    }
    if list.is_empty() {
        return Err(to_py(obj.py(), &Error::InvalidMines { got: 0 }));
    }
    Ok(list)
}

/// The nonces of a seed-pair audit: a `range` with step 1, as (first, count).
fn nonce_range(obj: &Bound<'_, PyAny>) -> PyResult<(u64, u64)> {
    let range = obj.cast::<PyRange>().map_err(|_| wrong_type("nonces", "a range", obj))?;
    if !range.getattr("step")?.eq(1)? {
        return Err(PyValueError::new_err("nonces: must be a range with step 1"));
    }
    let (start, stop) = (range.getattr("start")?, range.getattr("stop")?);
    if stop.le(&start)? {
        return Ok((0, 0));
    }
    let first = args::nonce(&start, "nonces[0]")?;
    let last = args::nonce(&stop.sub(1)?, "nonces[-1]")?;
    // 2^64 nonces do not fit a u64 count: the crate audits at most 2^64 - 1 of them.
    Ok((first, (last - first).saturating_add(1)))
}

/// Audits the fairness of mine placement: per mine count, how often each tile held a mine, with a
/// chi-square test against the uniform distribution; and the distribution of each round's first draw.
///
/// Either over a history (``audit(history)``: a path, binary file or iterable of dicts, as for
/// ``verify_history``; the declared positions are counted, the first draws recomputed), or over a
/// seed pair (``audit(server_seed=..., client_seed=..., nonces=range(...), mines=3 or [1, 3, 24])``:
/// the core's batch computes every round, on every core). ``progress(rows, bytes)`` as for
/// ``verify_history``. Runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (history=None, /, *, server_seed=None, client_seed=None, nonces=None, mines=None, format=None, threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn audit(
    py: Python<'_>,
    history: Option<&Bound<'_, PyAny>>,
    server_seed: Option<&Bound<'_, PyAny>>,
    client_seed: Option<&Bound<'_, PyAny>>,
    nonces: Option<&Bound<'_, PyAny>>,
    mines: Option<&Bound<'_, PyAny>>,
    format: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<AuditReport> {
    let callback = callback_of(progress)?;
    let halt = Halt::default();
    let history = history.filter(|h| !h.is_none());
    let seed_pair = [server_seed, client_seed, nonces, mines].iter().any(|a| a.is_some_and(|a| !a.is_none()));
    let counts = match (history, seed_pair) {
        (Some(_), true) => {
            return Err(PyTypeError::new_err(
                "audit: give a history, or server_seed, client_seed, nonces and mines, not both",
            ));
        }
        (None, false) => {
            return Err(PyTypeError::new_err("audit: give a history, or server_seed, client_seed, nonces and mines"));
        }
        (Some(history), false) => {
            let format = format_of(format)?;
            let options = Options { threads: threads_of(threads)?, ..Options::default() };
            let input: Box<dyn Read + Send> = match source_of(history)? {
                Source::Path(path) => {
                    let file = open(py, &path)?;
                    let format = format.unwrap_or_else(|| Format::from_path(&path));
                    return run_audit(
                        py,
                        Halting { inner: file, halt: halt.clone() },
                        format,
                        options,
                        &halt,
                        callback,
                    );
                }
                Source::File(file) => Box::new(PyReader { file, halt: halt.clone(), pending: Vec::new(), at: 0 }),
                Source::Rows(iter) => {
                    if format.is_some() {
                        return Err(PyValueError::new_err("format: only for a path or a file; rows are dicts"));
                    }
                    let rows = Rows::new(iter, halt.clone());
                    return run_audit(
                        py,
                        JsonLines { rows, line: Vec::new(), at: 0 },
                        Format::JsonLines,
                        options,
                        &halt,
                        callback,
                    );
                }
            };
            return run_audit(py, input, format.unwrap_or(Format::Auto), options, &halt, callback);
        }
        (None, true) => {
            if format.is_some_and(|f| !f.is_none()) || threads.is_some_and(|t| !t.is_none()) {
                return Err(PyTypeError::new_err(
                    "audit: format and threads are for histories; a seed-pair audit uses every core",
                ));
            }
            let missing = |name: &str| PyTypeError::new_err(format!("audit: a seed-pair audit needs {name}"));
            let server_seed = args::text(server_seed.ok_or_else(|| missing("server_seed"))?, "server_seed")?;
            let client_seed = args::text(client_seed.ok_or_else(|| missing("client_seed"))?, "client_seed")?;
            let (first, count) = nonce_range(nonces.filter(|n| !n.is_none()).ok_or_else(|| missing("nonces"))?)?;
            let mines = mine_counts(mines.filter(|m| !m.is_none()).ok_or_else(|| missing("mines"))?)?;
            let (server_seed, client_seed) = (&*server_seed, &*client_seed);
            py.detach(|| -> Result<AuditCounts, Error> {
                let mut total = AuditCounts::default();
                let mut done = 0u64;
                // In blocks, so that a callback's exception or Ctrl-C stops a long audit.
                while done < count && !halt.is_stopped() {
                    let block = (count - done).min(AUDIT_BLOCK);
                    let part = history::audit_seed_pair_counts(
                        server_seed,
                        client_seed,
                        first + done,
                        block,
                        &mines,
                        halt.progress(callback.as_ref(), done),
                    )?;
                    total.merge(&part);
                    done += block;
                }
                Ok(total)
            })
            .map_err(|err| to_py(py, &err))?
        }
    };
    finished(&halt, AuditReport::new(counts))
}

fn run_audit<R: Read + Send>(
    py: Python<'_>,
    input: R,
    format: Format,
    options: Options,
    halt: &Halt,
    callback: Option<Py<PyAny>>,
) -> PyResult<AuditReport> {
    let options = Options { format, ..options };
    let counts = py
        .detach(|| history::audit_history(input, &options, halt.progress(callback.as_ref(), 0)))
        .map_err(|err| run_error(halt, err))?;
    finished(halt, AuditReport::new(counts))
}
