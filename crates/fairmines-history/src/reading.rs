//! Reading a history's bytes (or JSON values) into chunks of raw rows: gzip, the text checks, the format,
//! JSON lines and CSV records.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use flate2::read::MultiGzDecoder;
use serde_json::Value;

use crate::chunk::{Chunk, Layout, MAX_LINE_BYTES, RawData, RawRow, Spares};
use crate::error::HistoryError;
use crate::options::{Format, Options, delimiter_message};
use crate::row::{CsvHeader, Names};

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
        let mut names = Names::new(&options.columns)?;
        names.1 = options.multiplier_form;
        let names = Arc::new(names);
        Ok(Reading { format: options.format, chunk_rows: options.chunk_rows.max(1), delimiter, names })
    }
}

/// Counts the bytes read from the input (before any decompression).
struct CountingReader<R> {
    inner: R,
    bytes: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Remembers the last byte read (to tell whether the input ends in a newline).
pub(crate) struct LastByteReader<R> {
    pub(crate) inner: R,
    pub(crate) last: Option<u8>,
}

impl<R: Read> Read for LastByteReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }
}

/// Where the line breaks (`\r`, `\n`) are in the bytes read through it, for finding the physical line a CSV
/// record starts on: the csv reader's own line of a record is that of the end of the record before it, so it
/// is one short after a `\r\n` (the `\n` is read with the next record) and after blank lines. The breaks
/// are kept from the last record's end on (a buffer's worth); the `\n`s before them are counted.
pub(crate) struct LineBreaks<R> {
    inner: R,
    offset: u64,
    breaks: VecDeque<(u64, bool)>,
    newlines_before: u64,
}

impl<R> LineBreaks<R> {
    fn new(inner: R) -> Self {
        LineBreaks { inner, offset: 0, breaks: VecDeque::new(), newlines_before: 0 }
    }

    /// Forgets the breaks before byte `end`, counting their newlines.
    fn forget_before(&mut self, end: u64) {
        while let Some(&(at, newline)) = self.breaks.front()
            && at < end
        {
            self.newlines_before += u64::from(newline);
            self.breaks.pop_front();
        }
    }

    /// The line (1-based) of the first byte from `start` on that is not a line break: where a record read from
    /// `start` begins, after the end of the line before it and any blank lines.
    fn line_from(&mut self, start: u64) -> u64 {
        self.forget_before(start);
        let mut at = start;
        while self.breaks.front().is_some_and(|&(b, _)| b == at) {
            at += 1;
            self.forget_before(at);
        }
        self.newlines_before + 1
    }
}

impl<R: Read> Read for LineBreaks<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        for at in memchr::memchr2_iter(b'\n', b'\r', &buf[..n]) {
            self.breaks.push_back((self.offset + at as u64, buf[at] == b'\n'));
        }
        self.offset += n as u64;
        Ok(n)
    }
}

/// The input's bytes read so far, as a [`CountingReader`] counts them; `exact` when the reader's buffer holds
/// input bytes (no decompression), so that what it holds can be left out.
struct BytesRead {
    bytes: Arc<AtomicU64>,
    exact: bool,
}

impl BytesRead {
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
    let mut raw = BufReader::with_capacity(1 << 16, CountingReader { inner: input, bytes: bytes.clone() });
    let gzip = raw.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let inner: Box<dyn Read + '_> = if gzip { Box::new(MultiGzDecoder::new(raw)) } else { Box::new(raw) };
    let mut reader = BufReader::with_capacity(1 << 16, LastByteReader { inner, last: None });
    let bytes_read = BytesRead { bytes, exact: !gzip };
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
            chunk.bytes = bytes_read.read_up_to(rows.buffered());
            if !send(std::mem::replace(&mut chunk, spares.chunk(rows.layout()))) {
                return Ok(());
            }
        }
    }
    chunk.bytes = bytes_read.read_up_to(0);
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
    Json { reader: BufReader<LastByteReader<R>>, layout: Layout, line_number: u64, consumed: u64, scratch: Vec<u8> },
    /// CSV, its header read; a row is held back by one, so that the last one can be marked when the input
    /// ends without a newline.
    /// The records are read into two buffers in turn (no allocation per row) and copied into the chunk.
    /// Each record is held with the physical line it starts on.
    Csv {
        csv: Box<csv::Reader<LineBreaks<BufReader<LastByteReader<R>>>>>,
        layout: Layout,
        pending: Option<(csv::ByteRecord, u64)>,
        spare: csv::ByteRecord,
    },
}

impl<R: Read> Rows<R> {
    /// The rows of `reader` in `format` (a CSV header is read now); `None` for a CSV input without a header
    /// (nothing to read).
    pub(crate) fn new(
        reader: BufReader<LastByteReader<R>>,
        format: Format,
        reading: &Reading,
    ) -> Result<Option<Self>, HistoryError> {
        if format != Format::Csv {
            let layout = Layout::Json(reading.names.clone());
            return Ok(Some(Rows::Json { reader, layout, line_number: 0, consumed: 0, scratch: Vec::new() }));
        }
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .delimiter(reading.delimiter)
            .from_reader(LineBreaks::new(reader));
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
                let start = csv.position().byte();
                if !csv.read_byte_record(spare).map_err(csv_error)? {
                    let ends_in_newline = csv.get_ref().inner.get_ref().last.is_none_or(|b| b == b'\n' || b == b'\r');
                    if let Some((record, line)) = pending.take() {
                        push_record(chunk, &record, line, !ends_in_newline);
                    }
                    return Ok(false);
                }
                let end = csv.position().byte();
                let breaks = csv.get_mut();
                let line = breaks.line_from(start);
                breaks.forget_before(end);
                match pending {
                    Some((record, pending_line)) => {
                        push_record(chunk, record, *pending_line, false);
                        std::mem::swap(record, spare);
                        *pending_line = line;
                    }
                    None => *pending = Some((std::mem::take(spare), line)),
                }
                Ok(true)
            }
        }
    }
}

/// Copies a CSV record's fields into the chunk, as a row that starts on physical line `line`.
fn push_record(chunk: &mut Chunk, record: &csv::ByteRecord, line: u64, unterminated: bool) {
    let start = chunk.text.len();
    let first = chunk.ends.len();
    for field in record {
        chunk.text.extend_from_slice(field);
        chunk.ends.push(chunk.text.len());
    }
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
