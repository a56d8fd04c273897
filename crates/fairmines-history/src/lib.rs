//! # fairmines-history
//!
//! Verifies whole bet histories of the provably fair *Mines* game and audits their fairness, for players
//! who export their history and auditors who check millions of rounds. Every result comes from the
//! [`fairmines`] core (commitment, placement); this crate reads, schedules and counts.
//!
//! - [`verify_history`] / [`verify_history_to`]: a JSON Lines or CSV history, streamed in constant memory
//!   on every core; every failing row reported (line, round id, expected against declared), malformed rows
//!   reported and skipped, nonce gaps and duplicates per seed pair. `ok + mismatched + malformed == rows_read`.
//! - [`verify_values`]: the same over rows given as `serde_json::Value` objects (a binding's dicts).
//! - `verify_batches` / `audit_batches` (feature `arrow`): the same over Arrow record batches, read
//!   column-wise (a DataFrame through the Arrow C stream interface).
//! - Any input: gzip is read through (recognised by its first bytes), [`Options::columns`] maps other names to
//!   the fields, [`Options::delimiter`] sets the CSV delimiter.
//! - [`audit_seed_pair`], [`audit_history`], [`audit_values`]: per-tile mine frequencies per mine count, chi-square tests
//!   against the uniform distribution, the first-draw distribution, and a heatmap ([`heatmap_text`],
//!   [`heatmap_svg`]).
//!
//! - [`HistoryVerifier`] / [`HistoryAuditor`]: the same runs over bytes handed over in pieces (`feed`, then
//!   `finish`), on the calling thread, with no thread started (WebAssembly reading a `ReadableStream`).
//! - [`failure_json`], [`summary_json`], [`audit_json`] (and back: [`audit_counts_from_json`]): the JSON of
//!   `fairmines verify-history --json` and `fairmines audit --json`, for every caller that shows it.
//!
//! Every run takes a progress callback (or a [`Sink`]) that may stop it: return `ControlFlow::Break(())` and
//! the workers stop, the run ending with [`HistoryError::Stopped`] (a binding stops on Ctrl-C this way).
//!
//! The format and the memory bounds are described in the crate's README.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

// The layers, bottom up: a module imports only modules of the groups before its own (tests/layers.rs).
mod error;

mod options;

mod row;

mod chunk;

mod pipeline;
mod reading;

mod nonces;

mod audit;
mod verify;

#[cfg(feature = "arrow")]
mod columns;
mod feed;
mod report_json;

/// The Arrow types of [`verify_batches`] (the version this crate reads, for callers).
#[cfg(feature = "arrow")]
pub use arrow_array::{RecordBatch, RecordBatchReader};
pub use audit::{
    AuditCounts, AuditReport, ChiSquare, Deviation, Group, GroupSums, HitRate, MAX_GROUPS, MIN_ROUNDS, MineAudit,
    MinesGroup, NamedGroup, PValue, PayoutAudit, PayoutCounts, PayoutRound, STRONG_EVIDENCE_BELOW, Thresholds,
    UNUSUAL_BELOW, Verdict, VerdictLevel, audit_history, audit_seed_pair, audit_seed_pair_counts, audit_values,
    draw_chi_square, heatmap_svg, heatmap_text, holm, tile_chi_square, tile_ratios,
};
pub use chunk::MAX_LINE_BYTES;
#[cfg(feature = "arrow")]
pub use columns::{audit_batches, verify_batches};
pub use error::HistoryError;
pub use feed::{HistoryAuditor, HistoryVerifier};
pub use nonces::{NonceRanges, PairNonces};
pub use options::{Format, MultiplierForm, Options, Proceed, Progress, parse_delimiter};
pub use report_json::{audit_counts_from_json, audit_json, failure_json, summary_json};
pub use row::{
    CSV_HEADER, FIELDS, MAX_AMOUNT, Play, REQUIRED_FIELDS, Row, RowError, Wager, parse_picks, parse_positions,
};
pub use verify::{Failure, FailureKind, Report, Sink, Summary, verify_history, verify_history_to, verify_values};
