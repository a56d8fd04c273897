//! Reading a history into chunks of raw rows, and the bounded pipeline that hands them to every core.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;

use serde_json::Value;

use crate::row::{CsvHeader, Row, RowError, parse_json_line, parse_value};

/// The two written forms of a history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Decide from the first byte that is not white space: `{` is JSON Lines, anything else CSV.
    #[default]
    Auto,
    /// One JSON object per line.
    JsonLines,
    /// A header line naming the columns, then one record per row.
    Csv,
}

impl Format {
    /// From a name: `auto`, `jsonl` (or `json`, `ndjson`, `json-lines`) or `csv`.
    pub fn parse(name: &str) -> Result<Format, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Format::Auto),
            "jsonl" | "json" | "ndjson" | "json-lines" | "jsonlines" => Ok(Format::JsonLines),
            "csv" => Ok(Format::Csv),
            other => Err(format!("format: must be auto, jsonl or csv, got {other:?}")),
        }
    }

    /// From a file name's extension (`.csv`, `.jsonl`, `.ndjson`, `.json`); `Auto` otherwise.
    pub fn from_path(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("csv") => Format::Csv,
            Some("jsonl" | "ndjson" | "json") => Format::JsonLines,
            _ => Format::Auto,
        }
    }
}

/// What stops a run as a whole (a bad row never does).
#[derive(Debug)]
#[non_exhaustive]
pub enum HistoryError {
    /// Reading the input failed.
    Io(io::Error),
    /// The CSV header does not name the columns the format needs.
    Header(String),
    /// An argument of the run that the core refuses (a seed-pair audit's range of nonces).
    Invalid(fairmines::Error),
    /// The progress callback (or [`Sink::progress`](crate::Sink::progress)) stopped the run.
    Stopped,
}

impl core::fmt::Display for HistoryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            HistoryError::Io(e) => write!(f, "input: {e}"),
            HistoryError::Header(message) => f.write_str(message),
            HistoryError::Invalid(e) => write!(f, "{e}"),
            HistoryError::Stopped => f.write_str("stopped by the progress callback"),
        }
    }
}

impl std::error::Error for HistoryError {}

impl From<io::Error> for HistoryError {
    fn from(e: io::Error) -> Self {
        HistoryError::Io(e)
    }
}

impl From<fairmines::Error> for HistoryError {
    fn from(e: fairmines::Error) -> Self {
        HistoryError::Invalid(e)
    }
}

/// What a progress callback returns: `()` to go on, or a [`ControlFlow`] whose `Break` stops the run (the
/// workers drop what they hold, the reader stops at its next chunk, and the run ends with
/// [`HistoryError::Stopped`]).
pub trait Proceed {
    /// Whether the run goes on.
    fn proceed(self) -> ControlFlow<()>;
}

impl Proceed for () {
    fn proceed(self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl Proceed for ControlFlow<()> {
    fn proceed(self) -> ControlFlow<()> {
        self
    }
}

/// The longest JSON line read whole; a longer one is reported as malformed and skipped without being held.
pub const MAX_LINE_BYTES: usize = 1 << 20;

pub(crate) enum RawData {
    Json(Vec<u8>),
    Csv(csv::ByteRecord),
    Value(Value),
    TooLong(u64),
}

pub(crate) struct RawRow {
    pub(crate) line: u64,
    pub(crate) data: RawData,
    /// The last row of an input that does not end in a newline.
    pub(crate) unterminated: bool,
}

pub(crate) struct Chunk {
    pub(crate) rows: Vec<RawRow>,
    pub(crate) header: Option<Arc<CsvHeader>>,
    pub(crate) blank_lines: u64,
    /// Input bytes read up to the end of this chunk.
    pub(crate) bytes: u64,
}

impl Chunk {
    fn new(header: Option<Arc<CsvHeader>>) -> Self {
        Chunk { rows: Vec::new(), header, blank_lines: 0, bytes: 0 }
    }
}

impl RawRow {
    /// The row, or why it cannot be read together with its round id where that much could be read.
    pub(crate) fn parse(&self, header: Option<&CsvHeader>) -> Result<Row, (RowError, Option<String>)> {
        let result = match &self.data {
            RawData::Json(bytes) => parse_json_line(bytes),
            RawData::Value(value) => parse_value(value),
            RawData::Csv(record) => match header {
                Some(header) => header.parse(record).map_err(|e| (e, header.round_id(record))),
                None => Err((RowError { field: None, message: "row: CSV record without a header".into() }, None)),
            },
            RawData::TooLong(bytes) => Err((
                RowError {
                    field: None,
                    message: format!("row: the line has {bytes} bytes, more than the {MAX_LINE_BYTES} read whole"),
                },
                None,
            )),
        };
        result.map_err(|(mut e, id)| {
            if self.unterminated {
                e.message.push_str(" (the last line has no newline: the input looks truncated)");
            }
            (e, id)
        })
    }
}

/// Counts the bytes read and remembers the last one (to tell whether the input ends in a newline).
struct Tracking<R> {
    inner: R,
    bytes: Arc<AtomicU64>,
    last: Option<u8>,
}

impl<R: Read> Read for Tracking<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
            self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(n)
    }
}

/// Reads `input` and hands chunks of at most `chunk_rows` raw rows to `send` (which returns `false` to stop).
pub(crate) fn read_chunks<R: Read>(
    input: R,
    format: Format,
    chunk_rows: usize,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let bytes = Arc::new(AtomicU64::new(0));
    let mut reader = BufReader::with_capacity(1 << 16, Tracking { inner: input, bytes: bytes.clone(), last: None });
    let format = match format {
        Format::Auto => sniff(&mut reader)?,
        other => other,
    };
    let chunk_rows = chunk_rows.max(1);
    match format {
        Format::Csv => read_csv(reader, &bytes, chunk_rows, send),
        _ => read_json_lines(reader, &bytes, chunk_rows, send),
    }
}

fn sniff<R: Read>(reader: &mut BufReader<R>) -> io::Result<Format> {
    loop {
        let buf = reader.fill_buf()?;
        match buf.iter().position(|b| !b.is_ascii_whitespace()) {
            Some(i) => return Ok(if buf[i] == b'{' { Format::JsonLines } else { Format::Csv }),
            None if buf.is_empty() => return Ok(Format::JsonLines),
            // Only white space so far: it belongs to no row, so it can go.
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

fn read_json_lines<R: Read>(
    mut reader: BufReader<Tracking<R>>,
    bytes: &AtomicU64,
    chunk_rows: usize,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let mut chunk = Chunk::new(None);
    let mut line_number = 0u64;
    let mut scratch = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = reader.by_ref().take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        line_number += 1;
        let mut terminated = line.last() == Some(&b'\n');
        let data = if !terminated && line.len() > MAX_LINE_BYTES {
            // Skip the rest of the line in bounded pieces.
            let mut total = line.len() as u64;
            loop {
                scratch.clear();
                let m = reader.by_ref().take(1 << 16).read_until(b'\n', &mut scratch)?;
                total += m as u64;
                if m == 0 || scratch.last() == Some(&b'\n') {
                    terminated = m != 0;
                    break;
                }
            }
            RawData::TooLong(total)
        } else if line.iter().all(u8::is_ascii_whitespace) {
            chunk.blank_lines += 1;
            continue;
        } else {
            RawData::Json(line)
        };
        chunk.rows.push(RawRow { line: line_number, data, unterminated: !terminated });
        if chunk.rows.len() >= chunk_rows {
            chunk.bytes = bytes.load(Ordering::Relaxed) - reader.buffer().len() as u64;
            if !send(std::mem::replace(&mut chunk, Chunk::new(None))) {
                return Ok(());
            }
        }
    }
    chunk.bytes = bytes.load(Ordering::Relaxed);
    send(chunk);
    Ok(())
}

fn read_csv<R: Read>(
    reader: BufReader<Tracking<R>>,
    bytes: &AtomicU64,
    chunk_rows: usize,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let mut csv = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(reader);
    let header = match csv.byte_headers() {
        Ok(names) if names.is_empty() => return Ok(()),
        Ok(names) => Arc::new(CsvHeader::new(names).map_err(HistoryError::Header)?),
        Err(e) => return Err(csv_error(e)),
    };
    let mut chunk = Chunk::new(Some(header.clone()));
    // Rows are held back by one, so that the last one can be marked when the input ends without a newline.
    let mut pending: Option<RawRow> = None;
    loop {
        let mut record = csv::ByteRecord::new();
        if !csv.read_byte_record(&mut record).map_err(csv_error)? {
            break;
        }
        let line = record.position().map_or(0, |p| p.line());
        if let Some(row) = pending.replace(RawRow { line, data: RawData::Csv(record), unterminated: false }) {
            chunk.rows.push(row);
            if chunk.rows.len() >= chunk_rows {
                chunk.bytes = bytes.load(Ordering::Relaxed);
                if !send(std::mem::replace(&mut chunk, Chunk::new(Some(header.clone())))) {
                    return Ok(());
                }
            }
        }
    }
    let ends_in_newline = csv.get_ref().get_ref().last.is_none_or(|b| b == b'\n' || b == b'\r');
    if let Some(mut row) = pending {
        row.unterminated = !ends_in_newline;
        chunk.rows.push(row);
    }
    chunk.bytes = bytes.load(Ordering::Relaxed);
    send(chunk);
    Ok(())
}

/// Hands rows given as JSON values to `send` in chunks of at most `chunk_rows`; row `i` (0-based) is line
/// `i + 1`.
pub(crate) fn value_chunks<I: Iterator<Item = Value>>(
    rows: I,
    chunk_rows: usize,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let chunk_rows = chunk_rows.max(1);
    let mut chunk = Vec::with_capacity(chunk_rows);
    for (line, value) in (1u64..).zip(rows) {
        chunk.push(RawRow { line, data: RawData::Value(value), unterminated: false });
        if chunk.len() == chunk_rows {
            let rows = std::mem::replace(&mut chunk, Vec::with_capacity(chunk_rows));
            if !send(Chunk { rows, header: None, blank_lines: 0, bytes: 0 }) {
                return Ok(());
            }
        }
    }
    send(Chunk { rows: chunk, header: None, blank_lines: 0, bytes: 0 });
    Ok(())
}

fn csv_error(e: csv::Error) -> HistoryError {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => HistoryError::Io(e),
        other => HistoryError::Io(io::Error::other(format!("{other:?}"))),
    }
}

/// The worker threads to use: `requested`, or every core when it is 0.
pub(crate) fn thread_count(requested: usize) -> usize {
    if requested > 0 { requested } else { thread::available_parallelism().map_or(1, NonZeroUsize::get) }
}

/// The bounded pipeline: `produce` (on its own thread) reads chunks; `threads` workers turn each into a `T`
/// with their own state `S`; `collect` (on the calling thread) receives the results in input order.
///
/// At most `2 × threads` chunks wait for a worker and at most `2 × threads` results wait for `collect`, so
/// memory is bounded by about `4 × threads + threads` chunks whatever the input's length.
///
/// When `collect` returns `Break`, the run stops: the reader is refused its next chunk, the workers drop the
/// chunks still queued without working on them, and the pipeline ends with [`HistoryError::Stopped`].
pub(crate) fn pipeline<S, T>(
    threads: usize,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, Chunk) -> T + Sync,
    mut collect: impl FnMut(T) -> ControlFlow<()>,
) -> Result<(), HistoryError>
where
    T: Send,
{
    let threads = threads.max(1);
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<(u64, Chunk)>(2 * threads);
    let chunk_rx = Mutex::new(chunk_rx);
    let (result_tx, result_rx) = mpsc::sync_channel::<(u64, T)>(2 * threads);
    let stopped = AtomicBool::new(false);
    let read = thread::scope(|scope| {
        let stopped = &stopped;
        let producer = scope.spawn(move || {
            let mut index = 0u64;
            produce(&mut |chunk| {
                let sent = !stopped.load(Ordering::Relaxed) && chunk_tx.send((index, chunk)).is_ok();
                index += 1;
                sent
            })
        });
        for _ in 0..threads {
            let (chunk_rx, result_tx, make_state, work) = (&chunk_rx, result_tx.clone(), &make_state, &work);
            scope.spawn(move || {
                let mut state = make_state();
                loop {
                    // The lock is held only while waiting for the next chunk.
                    let next = chunk_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((index, chunk))) = next else { break };
                    // Once stopped, queued chunks are dropped (not worked on) until the reader has stopped.
                    if stopped.load(Ordering::Relaxed) {
                        continue;
                    }
                    if result_tx.send((index, work(&mut state, chunk))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(result_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        // Every result is received, even after a stop, so that no worker waits on a full channel.
        for (index, result) in result_rx {
            if stopped.load(Ordering::Relaxed) {
                continue;
            }
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                next += 1;
                if collect(result).is_break() {
                    stopped.store(true, Ordering::Relaxed);
                    waiting.clear();
                    break;
                }
            }
        }
        producer.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    if stopped.into_inner() { Err(HistoryError::Stopped) } else { read }
}
