//! `verify_history`: every row recomputed from its seeds, on every core, in constant memory. The workers
//! check chunks (`check`), the calling thread collects them in order (`collect`) into a report (`report`).

use std::io::Read;
use std::ops::ControlFlow;

use serde_json::Value;

use crate::chunk::Chunk;
use crate::error::HistoryError;
use crate::nonces::PairNonces;
use crate::options::{Options, Proceed, Progress};
use crate::pipeline::{pipeline, thread_count};
use crate::reading::{Reading, read_chunks, value_chunks};

mod check;
mod collect;
mod report;

pub(crate) use check::{CheckedChunk, CommitmentCache, check_chunk};
pub(crate) use collect::Collector;
pub use report::{Failure, FailureKind, Report, Sink, Summary};

/// A [`Report`] being filled, with the caller's progress callback.
struct Collecting<F> {
    report: Report,
    on_progress: F,
}

impl<F: FnMut(Progress) -> C, C: Proceed> Sink for Collecting<F> {
    fn failure(&mut self, failure: Failure) {
        self.report.failures.push(failure);
    }
    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        (self.on_progress)(progress).proceed()
    }
}

/// The pipeline of a verification: `produce` reads chunks, every core checks them, `sink` gets the findings.
pub(crate) fn verify_chunks(
    options: &Options,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    sink: &mut dyn Sink,
) -> Result<(Summary, Vec<PairNonces>), HistoryError> {
    let mut collector = Collector::new(options, sink);
    pipeline(
        thread_count(options.threads),
        produce,
        || CommitmentCache::new(options.commitment_cache),
        check_chunk,
        |checked| collector.collect(checked),
    )?;
    let (summary, pairs, _) = collector.finish();
    Ok((summary, pairs))
}

/// [`verify_chunks`] into a [`Report`], with the caller's progress callback.
pub(crate) fn verify_into_report<C: Proceed>(
    options: &Options,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError> {
    let mut sink = Collecting { report: Report::default(), on_progress };
    let (summary, pairs) = verify_chunks(options, produce, &mut sink)?;
    Ok(Report { summary, pairs, ..sink.report })
}

/// Verifies a whole history read from `input`, streaming: findings go to `sink` as they are made, in input
/// order. Malformed rows are reported and skipped; only an I/O error, a CSV header without the needed
/// columns, an input that is one JSON array, options that cannot be used ([`HistoryError::Argument`]) or a
/// stop asked for by [`Sink::progress`] end the run early. A gzip stream is read through.
pub fn verify_history_to<R: Read + Send>(
    input: R,
    options: &Options,
    sink: &mut dyn Sink,
) -> Result<(Summary, Vec<PairNonces>), HistoryError> {
    let reading = Reading::new(options)?;
    verify_chunks(options, move |send| read_chunks(input, &reading, send), sink)
}

/// Verifies a whole history read from `input` and returns everything it found; `on_progress` is called
/// after every chunk (from the calling thread) and may stop the run by returning `ControlFlow::Break(())`.
///
/// ```
/// let history = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/history/history.jsonl"))?;
/// let report = fairmines_history::verify_history(&history[..], &Default::default(), |_| {})?;
/// assert!(report.is_ok());
/// assert_eq!(report.summary.rows_read, report.summary.ok);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_history<R: Read + Send, C: Proceed>(
    input: R,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError> {
    let reading = Reading::new(options)?;
    verify_into_report(options, move |send| read_chunks(input, &reading, send), on_progress)
}

/// Verifies rows given as JSON values (e.g. Python dicts converted to `serde_json::Value`), on every core,
/// as [`verify_history`] verifies lines. Row `i` (0-based) is reported as line `i + 1`. The errors are
/// [`HistoryError::Stopped`], when `on_progress` stops the run, and [`HistoryError::Argument`].
pub fn verify_values<I, C>(
    rows: I,
    options: &Options,
    on_progress: impl FnMut(Progress) -> C,
) -> Result<Report, HistoryError>
where
    I: IntoIterator<Item = Value>,
    I::IntoIter: Send,
    C: Proceed,
{
    let (rows, reading) = (rows.into_iter(), Reading::new(options)?);
    verify_into_report(options, move |send| value_chunks(rows, &reading, send), on_progress)
}
