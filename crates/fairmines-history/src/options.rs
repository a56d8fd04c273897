//! What a caller sets for a run and how it hears back: every run (verify, audit, threaded or fed) takes these.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use crate::error::HistoryError;

/// How a run goes. `Options::default()` suits almost every history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Options {
    /// JSON Lines, CSV, or decided from the first byte.
    pub format: Format,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Rows per chunk handed to a worker.
    pub chunk_rows: usize,
    /// Server seeds whose commitment each worker keeps (see the crate's README, "Memory").
    pub commitment_cache: usize,
    /// Seed pairs whose nonces are held at once; past it the least recently seen half is closed early.
    pub max_open_pairs: usize,
    /// Other names for the fields: the input's name → the field of the format it holds
    /// (`{"serverSeed": "server_seed"}`), for CSV headers, JSON keys and columns alike. A field not mapped
    /// keeps its own name; a name that maps to no field of the format ([`FIELDS`](crate::FIELDS)), or two
    /// names for one field, fail the run ([`HistoryError::Argument`]).
    pub columns: BTreeMap<String, String>,
    /// The CSV field delimiter (`b','`; `b';'` and `b'\t'` are common); [`parse_delimiter`]
    /// reads one from text.
    pub delimiter: u8,
    /// The most failures a run hands on (to its [`Report`](crate::Report) or [`Sink`](crate::Sink)); the
    /// others are counted in [`Summary::failures_omitted`](crate::Summary::failures_omitted) (the other
    /// counts stay exact). `None`: every failure. The default, 10 000, keeps a report of a history that is
    /// wrong everywhere small.
    pub max_failures: Option<u64>,
    /// The seed pairs the operator revealed, each with its round count (nonces `0..rounds`): the nonces of
    /// such a pair missing before its first row or after its last are reported as gaps (all of them when
    /// the history has no row of the pair), and a row with a nonce `>= rounds` fails
    /// ([`FailureKind::NoncePastEnd`](crate::FailureKind::NoncePastEnd)). Pairs are matched by SHA3-256 of
    /// the server seed and the client seed.
    pub revealed: Vec<fairmines::RevealedSeedPair>,
    /// How the `multiplier` of a row without a `multiplier_form` column is written: exact (the default), or
    /// as the operator displays it (see [`MultiplierForm`]).
    pub multiplier_form: MultiplierForm,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: Format::Auto,
            threads: 0,
            chunk_rows: 2048,
            commitment_cache: 4096,
            max_open_pairs: 100_000,
            columns: BTreeMap::new(),
            delimiter: b',',
            max_failures: Some(10_000),
            revealed: Vec::new(),
            multiplier_form: MultiplierForm::Exact,
        }
    }
}

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

/// How a history row writes its `multiplier` (its `multiplier_form` column, or [`Options::multiplier_form`]
/// for rows without one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MultiplierForm {
    /// The exact multiplier (`99/80`, or a decimal equal to it: `1.2375`).
    #[default]
    Exact,
    /// As the operator's site shows it: a decimal with `d` decimals equal to the exact multiplier rounded
    /// down to `d` decimals (99/80 shown as `1.23`, as [`fairmines::Ratio::to_decimal`] shows it). One that
    /// differs from that (even by 0.01) fails as `play`.
    Displayed,
}

impl MultiplierForm {
    /// From a name: `exact` or `displayed` (trimmed, any case).
    pub fn parse(name: &str) -> Result<MultiplierForm, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "exact" => Ok(MultiplierForm::Exact),
            "displayed" => Ok(MultiplierForm::Displayed),
            _ => Err(format!("multiplier_form: must be exact or displayed, got {name:?}")),
        }
    }

    /// `exact` or `displayed`.
    pub const fn as_str(self) -> &'static str {
        match self {
            MultiplierForm::Exact => "exact",
            MultiplierForm::Displayed => "displayed",
        }
    }
}

/// How far a run has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Rows checked so far.
    pub rows: u64,
    /// Input bytes read so far (the input may be a little ahead of the rows checked).
    pub bytes: u64,
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

pub(crate) fn delimiter_message(got: &str) -> String {
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
