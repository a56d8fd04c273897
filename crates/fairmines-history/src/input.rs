//! Reading a history into chunks of raw rows, and the bounded pipeline that hands them to every core.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;

use flate2::read::MultiGzDecoder;
use serde_json::Value;

use crate::row::{CsvHeader, Names, Partial, Record, RowError, RowRef, parse_json_line, parse_value};
use crate::verify::Options;

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

    /// From a file name's extension (`.csv`, `.jsonl`, `.ndjson`, `.json`), looking through a `.gz` one
    /// (`h.csv.gz` is CSV; gzip is recognised by its first bytes, whatever the name); `Auto` otherwise.
    pub fn from_path(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("csv") => Format::Csv,
            Some("jsonl" | "ndjson" | "json") => Format::JsonLines,
            Some("gz") => path.file_stem().map_or(Format::Auto, |stem| Format::from_path(stem.as_ref())),
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
    /// The CSV header (or a table's columns) does not name the columns the format needs.
    Header(String),
    /// The input is in a form the reader does not take (a JSON array where JSON Lines are read).
    Unreadable(String),
    /// An option of the run that cannot be used (a column mapping, a delimiter); the message names it.
    Argument(String),
    /// An argument of the run that the core refuses (a seed-pair audit's range of nonces).
    Invalid(fairmines::Error),
    /// The progress callback (or [`Sink::progress`](crate::Sink::progress)) stopped the run.
    Stopped,
}

impl core::fmt::Display for HistoryError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            HistoryError::Io(e) => write!(f, "input: {e}"),
            HistoryError::Header(message) | HistoryError::Unreadable(message) | HistoryError::Argument(message) => {
                f.write_str(message)
            }
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
    /// A JSON line: where it lies in the chunk's `text`.
    Json(std::ops::Range<usize>),
    /// A CSV record: where its fields' bytes start in the chunk's `text`, and where its field ends lie in
    /// the chunk's `ends`.
    Csv {
        start: usize,
        fields: std::ops::Range<usize>,
    },
    Value(Value),
    /// The row at this index of the chunk's columns.
    #[cfg_attr(not(feature = "arrow"), allow(dead_code))]
    Column(usize),
    TooLong(u64),
}

/// How the rows of a chunk are laid out: the names of the fields (JSON), the CSV header, or columns.
#[derive(Clone)]
pub(crate) enum Layout {
    Json(Arc<Names>),
    Csv(Arc<CsvHeader>),
    #[cfg(feature = "arrow")]
    Columns(Arc<crate::columns::Columns>),
}

pub(crate) struct RawRow {
    pub(crate) line: u64,
    pub(crate) data: RawData,
    /// The last row of an input that does not end in a newline.
    pub(crate) unterminated: bool,
}

pub(crate) struct Chunk {
    pub(crate) rows: Vec<RawRow>,
    /// The JSON lines of the rows, or their CSV fields, one after another (one buffer per chunk, not one
    /// per row).
    pub(crate) text: Vec<u8>,
    /// Where each CSV field ends in `text`.
    pub(crate) ends: Vec<usize>,
    pub(crate) layout: Layout,
    pub(crate) blank_lines: u64,
    /// Input bytes read up to the end of this chunk.
    pub(crate) bytes: u64,
    /// Where the buffers go when the chunk is dropped, for the reader's next chunks.
    spares: Option<Spares>,
}

impl Chunk {
    pub(crate) fn new(layout: Layout) -> Self {
        Chunk { rows: Vec::new(), text: Vec::new(), ends: Vec::new(), layout, blank_lines: 0, bytes: 0, spares: None }
    }
}

impl Drop for Chunk {
    fn drop(&mut self) {
        if let Some(spares) = self.spares.take() {
            spares.put(Buffers {
                rows: std::mem::take(&mut self.rows),
                text: std::mem::take(&mut self.text),
                ends: std::mem::take(&mut self.ends),
            });
        }
    }
}

/// A chunk's buffers, emptied, with the capacity they had.
struct Buffers {
    rows: Vec<RawRow>,
    text: Vec<u8>,
    ends: Vec<usize>,
}

/// The buffers of the chunks a reader has handed over, given back when the chunks are dropped (wherever
/// that is), so that its next chunks reuse them: no allocation per chunk, no growing buffers copied, and
/// no fresh memory for the kernel to map in (a run on two threads made ten times the page faults of one
/// without this, as memory freed by one thread went back to the system and was mapped in again).
#[derive(Clone, Default)]
pub(crate) struct Spares(Arc<Mutex<Vec<Buffers>>>);

impl Spares {
    /// The chunks a pipeline holds at once on up to a dozen threads (about five per thread); more are freed.
    const KEEP: usize = 64;
    /// A buffer that has grown larger (a chunk of very long lines) is freed rather than kept.
    const LARGEST: usize = 16 << 20;

    /// An empty chunk in `layout`, with the buffers of a dropped one when there is one.
    pub(crate) fn chunk(&self, layout: Layout) -> Chunk {
        let spare = self.0.lock().ok().and_then(|mut spares| spares.pop());
        let mut chunk = Chunk::new(layout);
        if let Some(Buffers { rows, text, ends }) = spare {
            (chunk.rows, chunk.text, chunk.ends) = (rows, text, ends);
        }
        chunk.spares = Some(self.clone());
        chunk
    }

    fn put(&self, mut buffers: Buffers) {
        if buffers.text.capacity() > Self::LARGEST {
            return;
        }
        buffers.rows.clear();
        buffers.text.clear();
        buffers.ends.clear();
        if let Ok(mut spares) = self.0.lock()
            && spares.len() < Self::KEEP
        {
            spares.push(buffers);
        }
    }
}

impl RawRow {
    /// The row (borrowing from the chunk where it can), or why it cannot be read together with its round
    /// id where that much could be read.
    pub(crate) fn parse<'a>(&'a self, chunk: &'a Chunk) -> Result<RowRef<'a>, (RowError, Partial)> {
        let result = match (&self.data, &chunk.layout) {
            (RawData::Json(at), Layout::Json(names)) => parse_json_line(&chunk.text[at.clone()], names),
            (RawData::Value(value), Layout::Json(names)) => parse_value(value, names).map(RowRef::from),
            (RawData::Csv { start, fields }, Layout::Csv(header)) => {
                let record = Record { text: &chunk.text, start: *start, ends: &chunk.ends[fields.clone()] };
                header.parse(record).map_err(|e| (e, header.partial(record)))
            }
            #[cfg(feature = "arrow")]
            (RawData::Column(index), Layout::Columns(columns)) => columns.row(*index).map(RowRef::from),
            (RawData::TooLong(bytes), _) => Err((
                RowError {
                    field: None,
                    message: format!("row: the line has {bytes} bytes, more than the {MAX_LINE_BYTES} read whole"),
                },
                Partial::default(),
            )),
            _ => {
                Err((RowError { field: None, message: "row: a row read in another layout".into() }, Partial::default()))
            }
        };
        result.map_err(|(mut e, id)| {
            if self.unterminated {
                e.message.push_str(" (the last line has no newline: the input looks truncated)");
            }
            (e, id)
        })
    }
}

/// What the readers take from a run's [`Options`], checked once.
#[derive(Clone)]
pub(crate) struct Reading {
    pub(crate) format: Format,
    pub(crate) chunk_rows: usize,
    pub(crate) delimiter: u8,
    pub(crate) names: Arc<Names>,
}

impl Reading {
    pub(crate) fn new(options: &Options) -> Result<Reading, HistoryError> {
        let delimiter = options.delimiter;
        if !delimiter.is_ascii() || matches!(delimiter, b'"' | b'\n' | b'\r') {
            return Err(HistoryError::Argument(delimiter_message(&char::from(delimiter).to_string())));
        }
        let names = Arc::new(Names::new(&options.columns)?);
        Ok(Reading { format: options.format, chunk_rows: options.chunk_rows.max(1), delimiter, names })
    }
}

fn delimiter_message(got: &str) -> String {
    format!(
        "delimiter: must be one ASCII character other than a quote or a line break (such as \";\" or \"\\t\"), got {got:?}"
    )
}

/// A CSV delimiter given as text (`";"`, `"\t"`): one ASCII character other than a quote or a line break.
pub fn parse_delimiter(text: &str) -> Result<u8, HistoryError> {
    match text.as_bytes() {
        &[byte] if byte.is_ascii() && !matches!(byte, b'"' | b'\n' | b'\r') => Ok(byte),
        _ => Err(HistoryError::Argument(delimiter_message(text))),
    }
}

/// Counts the bytes read from the input (before any decompression).
struct Counting<R> {
    inner: R,
    bytes: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Remembers the last byte read (to tell whether the input ends in a newline).
pub(crate) struct Tracking<R> {
    pub(crate) inner: R,
    pub(crate) last: Option<u8>,
}

impl<R: Read> Read for Tracking<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }
}

/// The input's bytes read so far; `exact` when the reader's buffer holds input bytes (no decompression), so
/// that what it holds can be left out.
struct Counted {
    bytes: Arc<AtomicU64>,
    exact: bool,
}

impl Counted {
    fn read_up_to(&self, buffered: usize) -> u64 {
        let read = self.bytes.load(Ordering::Relaxed);
        if self.exact { read.saturating_sub(buffered as u64) } else { read }
    }
}

const JSON_ARRAY: &str = "input: the history is one JSON array ([...]), not JSON Lines (one object per line): \
                          write it one object per line (jq -c '.[]' history.json > history.jsonl), or read the \
                          array and pass its rows";

/// How many of the first bytes [`check_text`] looks at for a NUL byte.
const TEXT_PROBE: usize = 1 << 16;

/// Refuses an input that is not a text history, from its first bytes (after any gzip layer): a Parquet file
/// (it starts with `PAR1`), a NUL byte among the first 64 KiB, or a first line that is not UTF-8. A bad
/// byte further on is the row's own fault (reported as malformed).
pub(crate) fn check_text(start: &[u8]) -> Result<(), HistoryError> {
    if start.starts_with(b"PAR1") {
        return Err(HistoryError::Unreadable(
            "input: the history is a Parquet file (it starts with PAR1), not JSON Lines or CSV: write it as CSV \
             or JSON Lines, or (in Python) pass the path or the DataFrame to verify_history, which read Parquet"
                .to_owned(),
        ));
    }
    let probe = &start[..start.len().min(TEXT_PROBE)];
    let binary = |what: String| {
        Err(HistoryError::Unreadable(format!(
            "input: the history is not text ({what}): give a JSON Lines or CSV file (gzip is read through)"
        )))
    };
    if let Some(at) = memchr::memchr(0, probe) {
        return binary(format!("a NUL byte at byte {at}"));
    }
    let first_line = &probe[..memchr::memchr(b'\n', probe).unwrap_or(probe.len())];
    if let Err(e) = core::str::from_utf8(first_line)
        && e.error_len().is_some()
    {
        return binary(format!("its first line is not UTF-8 at byte {}", e.valid_up_to()));
    }
    Ok(())
}

/// Reads `input` and hands chunks of raw rows to `send` (which returns `false` to stop). A gzip stream is
/// recognised by its first two bytes and read through.
pub(crate) fn read_chunks<R: Read>(
    input: R,
    reading: &Reading,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let bytes = Arc::new(AtomicU64::new(0));
    let mut raw = BufReader::with_capacity(1 << 16, Counting { inner: input, bytes: bytes.clone() });
    let gzip = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let inner: Box<dyn Read + '_> = if gzip { Box::new(MultiGzDecoder::new(raw)) } else { Box::new(raw) };
    let mut reader = BufReader::with_capacity(1 << 16, Tracking { inner, last: None });
    let counted = Counted { bytes, exact: !gzip };
    // The first read's bytes (64 KiB from a file).
    check_text(reader.fill_buf()?)?;
    let mut format = reading.format;
    if format != Format::Csv {
        format = decide_format(format, first_byte(&mut reader)?)?;
    }
    let Some(mut rows) = Rows::new(reader, format, reading)? else { return Ok(()) };
    let spares = Spares::default();
    let mut chunk = spares.chunk(rows.layout());
    while rows.step(&mut chunk)? {
        if chunk.rows.len() >= reading.chunk_rows {
            chunk.bytes = counted.read_up_to(rows.buffered());
            if !send(std::mem::replace(&mut chunk, spares.chunk(rows.layout()))) {
                return Ok(());
            }
        }
    }
    chunk.bytes = counted.read_up_to(0);
    send(chunk);
    Ok(())
}

/// The format of an input whose first byte that is not white space is `first` (`None`: there is none): a
/// JSON array is refused, and `Auto` is CSV unless the byte is `{`.
pub(crate) fn decide_format(format: Format, first: Option<u8>) -> Result<Format, HistoryError> {
    if format == Format::Csv {
        return Ok(Format::Csv);
    }
    if first == Some(b'[') {
        return Err(HistoryError::Unreadable(JSON_ARRAY.to_owned()));
    }
    Ok(if format == Format::Auto && first.is_some_and(|b| b != b'{') { Format::Csv } else { format })
}

/// The first byte that is not white space, looked at without reading it (white space is dropped only when
/// a whole buffer of it comes first).
fn first_byte<R: Read>(reader: &mut BufReader<R>) -> io::Result<Option<u8>> {
    loop {
        let buf = reader.fill_buf()?;
        match buf.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(&b) => return Ok(Some(b)),
            None if buf.is_empty() => return Ok(None),
            None => {
                let n = buf.len();
                reader.consume(n);
            }
        }
    }
}

/// The rows of an input in a known format, read one line (or CSV record) at a time.
pub(crate) enum Rows<R: Read> {
    /// JSON Lines: the reader, the last line's number and the bytes read as lines so far.
    Json { reader: BufReader<Tracking<R>>, layout: Layout, line_number: u64, consumed: u64, scratch: Vec<u8> },
    /// CSV, its header read; a row is held back by one, so that the last one can be marked when the input
    /// ends without a newline.
    /// The records are read into two buffers in turn (no allocation per row) and copied into the chunk.
    Csv {
        csv: Box<csv::Reader<BufReader<Tracking<R>>>>,
        layout: Layout,
        pending: Option<csv::ByteRecord>,
        spare: csv::ByteRecord,
    },
}

impl<R: Read> Rows<R> {
    /// The rows of `reader` in `format` (a CSV header is read now); `None` for a CSV input without a header
    /// (nothing to read).
    pub(crate) fn new(
        reader: BufReader<Tracking<R>>,
        format: Format,
        reading: &Reading,
    ) -> Result<Option<Self>, HistoryError> {
        if format != Format::Csv {
            let layout = Layout::Json(reading.names.clone());
            return Ok(Some(Rows::Json { reader, layout, line_number: 0, consumed: 0, scratch: Vec::new() }));
        }
        let mut csv =
            csv::ReaderBuilder::new().has_headers(true).flexible(true).delimiter(reading.delimiter).from_reader(reader);
        let layout = match csv.byte_headers() {
            Ok(names) if names.is_empty() => return Ok(None),
            Ok(names) => Layout::Csv(Arc::new(CsvHeader::new(names, &reading.names).map_err(HistoryError::Header)?)),
            Err(e) => return Err(csv_error(e)),
        };
        Ok(Some(Rows::Csv { csv: Box::new(csv), layout, pending: None, spare: csv::ByteRecord::new() }))
    }

    pub(crate) fn layout(&self) -> Layout {
        match self {
            Rows::Json { layout, .. } | Rows::Csv { layout, .. } => layout.clone(),
        }
    }

    /// Input bytes the reader holds in its buffer and has not read as rows yet (JSON Lines only).
    pub(crate) fn buffered(&self) -> usize {
        match self {
            Rows::Json { reader, .. } => reader.buffer().len(),
            Rows::Csv { .. } => 0,
        }
    }

    /// Bytes of the (decompressed) input read as rows, blank lines and the header so far.
    pub(crate) fn consumed(&self) -> u64 {
        match self {
            Rows::Json { consumed, .. } => *consumed,
            Rows::Csv { csv, .. } => csv.position().byte(),
        }
    }

    /// Reads one line (JSON Lines) or record (CSV) into `chunk`; `false` at the end of the input (the last
    /// CSV row is added then).
    pub(crate) fn step(&mut self, chunk: &mut Chunk) -> Result<bool, HistoryError> {
        match self {
            Rows::Json { reader, line_number, consumed, scratch, .. } => {
                // The line goes straight into the chunk's text: no buffer of its own.
                let start = chunk.text.len();
                let n = reader.by_ref().take(MAX_LINE_BYTES as u64 + 1).read_until(b'\n', &mut chunk.text)?;
                if n == 0 {
                    return Ok(false);
                }
                *consumed += n as u64;
                *line_number += 1;
                let line = &chunk.text[start..];
                let mut terminated = line.last() == Some(&b'\n');
                let data = if !terminated && line.len() > MAX_LINE_BYTES {
                    chunk.text.truncate(start);
                    // Skip the rest of the line in bounded pieces.
                    let mut total = n as u64;
                    loop {
                        scratch.clear();
                        let m = reader.by_ref().take(1 << 16).read_until(b'\n', scratch)?;
                        total += m as u64;
                        if m == 0 || scratch.last() == Some(&b'\n') {
                            terminated = m != 0;
                            break;
                        }
                    }
                    *consumed = consumed.saturating_add(total - n as u64);
                    RawData::TooLong(total)
                } else if line.iter().all(u8::is_ascii_whitespace) {
                    chunk.text.truncate(start);
                    chunk.blank_lines += 1;
                    return Ok(true);
                } else {
                    RawData::Json(start..chunk.text.len())
                };
                chunk.rows.push(RawRow { line: *line_number, data, unterminated: !terminated });
                Ok(true)
            }
            Rows::Csv { csv, pending, spare, .. } => {
                if !csv.read_byte_record(spare).map_err(csv_error)? {
                    let ends_in_newline = csv.get_ref().get_ref().last.is_none_or(|b| b == b'\n' || b == b'\r');
                    if let Some(record) = pending.take() {
                        push_record(chunk, &record, !ends_in_newline);
                    }
                    return Ok(false);
                }
                match pending {
                    Some(record) => {
                        push_record(chunk, record, false);
                        std::mem::swap(record, spare);
                    }
                    None => *pending = Some(std::mem::take(spare)),
                }
                Ok(true)
            }
        }
    }
}

/// Copies a CSV record's fields into the chunk, as a row.
fn push_record(chunk: &mut Chunk, record: &csv::ByteRecord, unterminated: bool) {
    let start = chunk.text.len();
    let first = chunk.ends.len();
    for field in record {
        chunk.text.extend_from_slice(field);
        chunk.ends.push(chunk.text.len());
    }
    let line = record.position().map_or(0, csv::Position::line);
    let data = RawData::Csv { start, fields: first..chunk.ends.len() };
    chunk.rows.push(RawRow { line, data, unterminated });
}

/// Hands rows given as JSON values to `send` in chunks; row `i` (0-based) is line `i + 1`.
pub(crate) fn value_chunks<I: Iterator<Item = Value>>(
    rows: I,
    reading: &Reading,
    send: &mut dyn FnMut(Chunk) -> bool,
) -> Result<(), HistoryError> {
    let layout = Layout::Json(reading.names.clone());
    let mut chunk = Chunk::new(layout.clone());
    for (line, value) in (1u64..).zip(rows) {
        chunk.rows.push(RawRow { line, data: RawData::Value(value), unterminated: false });
        if chunk.rows.len() == reading.chunk_rows && !send(std::mem::replace(&mut chunk, Chunk::new(layout.clone()))) {
            return Ok(());
        }
    }
    send(chunk);
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

/// The bounded pipeline: `produce` (on its own thread) reads chunks; `threads - 1` workers, and the reader
/// whenever they are all busy, turn each into a `T` with their own state `S`; `collect` (on the calling thread)
/// receives the results in input order. With one thread, all three run one after another on the calling thread
/// (one core's work, no hand-over).
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
    if threads <= 1 {
        // One thread does everything, on the calling thread: reading, checking and counting.
        let mut state = make_state();
        let mut stopped = false;
        let read = produce(&mut |chunk| {
            stopped = collect(work(&mut state, chunk)).is_break();
            !stopped
        });
        return if stopped { Err(HistoryError::Stopped) } else { read };
    }
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<(u64, Chunk)>(2 * threads);
    let chunk_rx = Mutex::new(chunk_rx);
    let (result_tx, result_rx) = mpsc::sync_channel::<(u64, T)>(2 * threads);
    let stopped = AtomicBool::new(false);
    let read = thread::scope(|scope| {
        let stopped = &stopped;
        let (make_state, work) = (&make_state, &work);
        // The reader is one of the `threads`: when every worker is busy and the queue is full, it works on the
        // chunk it has just read instead of waiting, so `threads` threads share all the work.
        let reader_results = result_tx.clone();
        let producer = scope.spawn(move || {
            let mut index = 0u64;
            let mut state = None;
            produce(&mut |chunk| {
                if stopped.load(Ordering::Relaxed) {
                    return false;
                }
                let sent = match chunk_tx.try_send((index, chunk)) {
                    Ok(()) => true,
                    Err(mpsc::TrySendError::Full((index, chunk))) => {
                        let state = state.get_or_insert_with(make_state);
                        reader_results.send((index, work(state, chunk))).is_ok()
                    }
                    Err(mpsc::TrySendError::Disconnected(_)) => false,
                };
                index += 1;
                sent
            })
        });
        for _ in 1..threads {
            let (chunk_rx, result_tx) = (&chunk_rx, result_tx.clone());
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
