//! Push-style runs: the history is handed over in pieces (`feed`), checked on the calling thread as soon
//! as whole rows have arrived, and the result taken at the end (`finish`). For callers that cannot block
//! on a reader or start threads (WebAssembly in a browser reads a `ReadableStream` chunk by chunk); the
//! rows, findings and reports are those of [`verify_history`](crate::verify_history) and
//! [`audit_history`](crate::audit_history) over the same bytes.
//!
//! The readers of the threaded runs pull their input; here they are driven only over bytes that are known
//! to hold whole lines (JSON Lines) or whole records (CSV: line breaks outside quoted fields, found as
//! csv-core finds them), so they never wait for input. Memory stays bounded by one chunk of rows and the
//! bytes of the last incomplete line or record.

use std::collections::VecDeque;
use std::io::{self, BufReader, Read, Write};
use std::sync::{Arc, Mutex, PoisonError};

use flate2::write::MultiGzDecoder;

use crate::audit::{AuditCounts, audit_chunk};
use crate::chunk::Chunk;
use crate::error::HistoryError;
use crate::options::{Format, Options, Progress};
use crate::reading::{LastByteReader, Reading, Rows, check_text, decide_format};
use crate::verify::{CheckedChunk, Collector, CommitmentCache, Report, check_chunk};

/// Where CSV records end: a line break outside a quoted field, after a line that is not empty.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    Outside,
    Inside,
    /// A quote inside a quoted field: the field's end, or the first of an escaped pair (`""`).
    Closing,
}

struct Framer {
    csv: bool,
    delimiter: u8,
    quote: Quote,
    field_start: bool,
    line_has_bytes: bool,
    offset: u64,
    /// The offset just past the last line break that ends a whole line (JSON) or record (CSV).
    whole: u64,
}

impl Framer {
    fn new(csv: bool, delimiter: u8) -> Self {
        Framer { csv, delimiter, quote: Quote::Outside, field_start: true, line_has_bytes: false, offset: 0, whole: 0 }
    }

    fn scan(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.offset += 1;
            if !self.csv {
                if b == b'\n' {
                    self.whole = self.offset;
                }
                continue;
            }
            match (self.quote, b) {
                (Quote::Inside, b'"') => self.quote = Quote::Closing,
                (Quote::Inside, _) => {}
                (Quote::Closing, b'"') => self.quote = Quote::Inside,
                (_, b'\n' | b'\r') => {
                    if self.line_has_bytes {
                        self.whole = self.offset;
                    }
                    (self.quote, self.field_start, self.line_has_bytes) = (Quote::Outside, true, false);
                }
                (_, _) => {
                    let opens = b == b'"' && self.field_start;
                    self.quote = if opens { Quote::Inside } else { Quote::Outside };
                    self.field_start = b == self.delimiter;
                    self.line_has_bytes = true;
                }
            }
        }
    }
}

/// The decompressed bytes not read yet, shared by the feeder (which writes) and the reader (which reads).
#[derive(Default)]
struct Pending {
    bytes: VecDeque<u8>,
    finished: bool,
    framer: Option<Framer>,
}

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Pending>>);

impl Shared {
    fn with<T>(&self, f: impl FnOnce(&mut Pending) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Read for Shared {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.with(|pending| {
            if pending.bytes.is_empty() && !pending.finished {
                return Err(io::Error::other("fairmines-history: the fed reader ran out of bytes (a bug)"));
            }
            pending.bytes.read(buf)
        })
    }
}

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.with(|pending| {
            pending.bytes.extend(buf);
            if let Some(framer) = &mut pending.framer {
                framer.scan(buf);
            }
        });
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

enum Stage {
    /// Fewer than two bytes yet: gzip or not is not known.
    Start(Vec<u8>),
    /// The format is not known yet (only white space so far).
    Format,
    /// CSV whose header has not arrived whole.
    Header,
    Reading(Box<Rows<Shared>>, Chunk),
    Done,
}

/// Turns pushed bytes into chunks of raw rows, as `read_chunks` reads them from a reader.
struct Feeder {
    reading: Reading,
    shared: Shared,
    gzip: Option<MultiGzDecoder<Shared>>,
    stage: Stage,
    fed: u64,
}

impl Feeder {
    fn new(options: &Options) -> Result<Self, HistoryError> {
        let reading = Reading::new(options)?;
        Ok(Feeder { reading, shared: Shared::default(), gzip: None, stage: Stage::Start(Vec::new()), fed: 0 })
    }

    fn feed(&mut self, bytes: &[u8], send: &mut dyn FnMut(Chunk)) -> Result<(), HistoryError> {
        self.fed += bytes.len() as u64;
        if let Stage::Start(head) = &mut self.stage {
            head.extend_from_slice(bytes);
            if head.len() < 2 {
                return Ok(());
            }
            let head = std::mem::take(head);
            self.begin(&head)?;
        } else {
            self.write(bytes)?;
        }
        self.pump(send)
    }

    fn finish(&mut self, send: &mut dyn FnMut(Chunk)) -> Result<(), HistoryError> {
        if let Stage::Start(head) = &mut self.stage {
            let head = std::mem::take(head);
            self.begin(&head)?;
        }
        if let Some(gzip) = &mut self.gzip {
            gzip.try_finish()?;
        }
        self.shared.with(|pending| pending.finished = true);
        self.pump(send)
    }

    /// Decides gzip or not from the first bytes, and writes them.
    fn begin(&mut self, head: &[u8]) -> Result<(), HistoryError> {
        if head.starts_with(&[0x1f, 0x8b]) {
            self.gzip = Some(MultiGzDecoder::new(self.shared.clone()));
        }
        self.stage = Stage::Format;
        self.write(head)
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), HistoryError> {
        match &mut self.gzip {
            Some(gzip) => gzip.write_all(bytes)?,
            None => self.shared.write_all(bytes)?,
        }
        Ok(())
    }

    /// Reads every whole row that has arrived (every row, once the input is finished).
    fn pump(&mut self, send: &mut dyn FnMut(Chunk)) -> Result<(), HistoryError> {
        let reading = &self.reading;
        if let Stage::Format = self.stage {
            let (first, finished) =
                self.shared.with(|p| (p.bytes.iter().copied().find(|b| !b.is_ascii_whitespace()), p.finished));
            if first.is_none() && !finished && reading.format != Format::Csv {
                return Ok(());
            }
            self.shared.with(|p| check_text(p.bytes.make_contiguous()))?;
            let csv = decide_format(reading.format, first)? == Format::Csv;
            self.shared.with(|pending| {
                if first.is_none() && reading.format != Format::Csv {
                    // Only white space: the threaded reader drops it unread, as here.
                    pending.bytes.clear();
                }
                let mut framer = Framer::new(csv, reading.delimiter);
                framer.scan(pending.bytes.make_contiguous());
                pending.framer = Some(framer);
            });
            self.stage = Stage::Header;
        }
        let (whole, finished) = self.shared.with(|p| (p.framer.as_ref().map_or(0, |f| f.whole), p.finished));
        if let Stage::Header = self.stage {
            if whole == 0 && !finished {
                return Ok(());
            }
            let csv = self.shared.with(|p| p.framer.as_ref().is_some_and(|f| f.csv));
            let format = if csv { Format::Csv } else { Format::JsonLines };
            let reader = BufReader::with_capacity(1 << 16, LastByteReader { inner: self.shared.clone(), last: None });
            self.stage = match Rows::new(reader, format, reading)? {
                Some(rows) => {
                    let chunk = Chunk::new(rows.layout());
                    Stage::Reading(Box::new(rows), chunk)
                }
                None => Stage::Done,
            };
        }
        let Stage::Reading(rows, chunk) = &mut self.stage else { return Ok(()) };
        let mut more = true;
        while more && (finished || rows.consumed() < whole) {
            more = rows.step(chunk)?;
            if !more || chunk.rows.len() >= reading.chunk_rows {
                let mut full = std::mem::replace(chunk, Chunk::new(rows.layout()));
                full.bytes = self.fed;
                send(full);
            }
        }
        if !more {
            self.stage = Stage::Done;
        }
        Ok(())
    }
}

/// Verifies a history handed over in pieces, on the calling thread: [`feed`](Self::feed) each piece as it
/// arrives, then [`finish`](Self::finish). The report is the one
/// [`verify_history`](crate::verify_history) gives for the same bytes (options `threads` is not used).
///
/// ```
/// let history = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/tampered.jsonl"))?;
/// let mut verifier = fairmines_history::HistoryVerifier::new(&Default::default())?;
/// for piece in history.chunks(100) {
///     verifier.feed(piece)?;
/// }
/// let report = verifier.finish()?;
/// assert_eq!(report, fairmines_history::verify_history(&history[..], &Default::default(), |_| {})?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct HistoryVerifier {
    feeder: Feeder,
    cache: CommitmentCache,
    collector: Collector<Report>,
}

impl HistoryVerifier {
    /// A verifier with `options` (format, column names, delimiter, open pairs); refuses options that cannot
    /// be used ([`HistoryError::Argument`]).
    pub fn new(options: &Options) -> Result<Self, HistoryError> {
        let cache = CommitmentCache::new(options.commitment_cache);
        Ok(HistoryVerifier {
            feeder: Feeder::new(options)?,
            cache,
            collector: Collector::new(options, Report::default()),
        })
    }

    /// Reads the next piece of the history and checks every row it completes.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), HistoryError> {
        let (cache, collector) = (&mut self.cache, &mut self.collector);
        self.feeder.feed(bytes, &mut |chunk| collect(collector, check_chunk(cache, chunk)))
    }

    /// Rows checked and bytes fed so far.
    pub fn progress(&self) -> Progress {
        Progress { rows: self.collector.summary.rows_read, bytes: self.feeder.fed }
    }

    /// Checks the last rows, closes every seed pair (finding its gaps) and returns the report.
    pub fn finish(mut self) -> Result<Report, HistoryError> {
        let (cache, collector) = (&mut self.cache, &mut self.collector);
        self.feeder.finish(&mut |chunk| collect(collector, check_chunk(cache, chunk)))?;
        let (summary, pairs, sink) = self.collector.finish();
        Ok(Report { summary, pairs, failures: sink.failures })
    }
}

fn collect(collector: &mut Collector<Report>, chunk: CheckedChunk) {
    // A `Report` never stops a run.
    let _ = collector.collect(chunk);
}

/// Audits a history handed over in pieces, on the calling thread, as [`HistoryVerifier`] verifies one; the
/// counts are those [`audit_history`](crate::audit_history) gives for the same bytes.
pub struct HistoryAuditor {
    feeder: Feeder,
    counts: AuditCounts,
}

impl HistoryAuditor {
    /// An auditor with `options` (format, column names, delimiter).
    pub fn new(options: &Options) -> Result<Self, HistoryError> {
        Ok(HistoryAuditor { feeder: Feeder::new(options)?, counts: AuditCounts::default() })
    }

    /// Reads the next piece of the history and counts every row it completes.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), HistoryError> {
        let counts = &mut self.counts;
        self.feeder.feed(bytes, &mut |chunk| counts.merge(&audit_chunk(chunk)))
    }

    /// Rows counted and bytes fed so far.
    pub fn progress(&self) -> Progress {
        Progress { rows: self.counts.rows_read, bytes: self.feeder.fed }
    }

    /// Counts the last rows and returns the counts (`.report()` gives the tests).
    pub fn finish(mut self) -> Result<AuditCounts, HistoryError> {
        let counts = &mut self.counts;
        self.feeder.finish(&mut |chunk| counts.merge(&audit_chunk(chunk)))?;
        Ok(self.counts)
    }
}
