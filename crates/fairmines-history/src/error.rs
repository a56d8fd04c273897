//! What ends a run as a whole: the bottom of the crate, imported by every layer above.

use std::io;

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

/// A report's JSON, or the error that names it `json`.
pub(crate) fn from_json<T: for<'de> serde::Deserialize<'de>>(json: &str) -> Result<T, fairmines::Error> {
    serde_json::from_str(json).map_err(|e| fairmines::Error::InvalidState { argument: "json", detail: e.to_string() })
}
