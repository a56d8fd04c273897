//! What `verify_history` and `audit` found, as the history crate has it, behind the Python classes that
//! show it (`fairmines.HistoryReport`, `fairmines.AuditReport`: python/fairmines/_reports.py).
//!
//! Kept here: what needs the crate (merging, JSON, equality, the tests and the heatmap). Handed over, in
//! one conversion each: the failures (dicts, on first use), the summary and the audit's tests (JSON).
//! The two classes are `_native._Report` and `_native._AuditCounts`, for `_reports.py` only.

use fairmines_history::{self as history, AuditCounts, FailureKind};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::Obj;
use crate::args;
use crate::errors::OrRaise;

/// The history crate's report of ``verify_history``, behind ``fairmines.HistoryReport``.
#[pyclass(module = "fairmines._native", name = "_Report", frozen, eq)]
#[derive(PartialEq, Default)]
pub(crate) struct Report(pub(crate) history::Report);

#[pymethods]
impl Report {
    /// An empty report (no rows).
    #[new]
    fn new() -> Self {
        Report::default()
    }

    /// Every failure kind, in order.
    #[classattr]
    fn kinds() -> [&'static str; FailureKind::ALL.len()] {
        FailureKind::ALL.map(FailureKind::as_str)
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not.
    #[staticmethod]
    fn from_json(json: &Obj<'_>) -> PyResult<Self> {
        history::Report::from_json(&args::text(json, "json")?).map(Report).or_raise(json.py())
    }

    /// The report as JSON (summary, failures, and each seed pair's nonces for ``merge``).
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The report of this part and ``other`` together.
    fn merge(&self, other: &Self) -> Self {
        Report(self.0.clone().merge(other.0.clone()))
    }

    /// The number of failures.
    fn __len__(&self) -> usize {
        self.0.failures.len()
    }

    /// Whether the history checks out.
    #[getter]
    fn ok(&self) -> bool {
        self.0.is_ok()
    }

    /// The summary as JSON.
    fn summary(&self) -> String {
        // Plain data (numbers, strings, lists): serialising it cannot fail.
        serde_json::to_string(&self.0.summary).unwrap_or_default()
    }

    /// The counts in one line of words (the core's ``Summary::text``).
    fn summary_text(&self) -> String {
        self.0.summary.text()
    }

    /// Every failure, as a dict of its fields.
    fn failures<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let failure = |f: &history::Failure| -> PyResult<_> {
            let dict = PyDict::new(py);
            dict.set_item(intern!(py, "kind"), f.kind.as_str())?;
            dict.set_item(intern!(py, "line"), f.line)?;
            dict.set_item(intern!(py, "round_id"), &f.round_id)?;
            dict.set_item(intern!(py, "pair_commitment"), &f.pair_commitment)?;
            dict.set_item(intern!(py, "client_seed"), &f.client_seed)?;
            dict.set_item(intern!(py, "nonce"), f.nonce)?;
            dict.set_item(intern!(py, "last_nonce"), f.last_nonce)?;
            dict.set_item(intern!(py, "field"), &f.field)?;
            dict.set_item(intern!(py, "expected"), &f.expected)?;
            dict.set_item(intern!(py, "declared"), &f.declared)?;
            dict.set_item(intern!(py, "message"), &f.message)?;
            Ok(dict)
        };
        self.0.failures.iter().map(failure).collect()
    }
}

/// The history crate's counts of ``audit``, behind ``fairmines.AuditReport``.
#[pyclass(module = "fairmines._native", name = "_AuditCounts", frozen, eq)]
#[derive(PartialEq, Default)]
pub(crate) struct Audit(pub(crate) AuditCounts);

#[pymethods]
impl Audit {
    /// No counts (no rounds).
    #[new]
    fn new() -> Self {
        Audit::default()
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not.
    #[staticmethod]
    fn from_json(json: &Obj<'_>) -> PyResult<Self> {
        AuditCounts::from_json(&args::text(json, "json")?).map(Audit).or_raise(json.py())
    }

    /// The counts as JSON.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// These counts and ``other``'s added up.
    fn merge(&self, other: &Self) -> Self {
        let mut counts = self.0.clone();
        counts.merge(&other.0);
        Audit(counts)
    }

    /// The tests over the counts (the crate's ``AuditReport``), as JSON.
    fn report(&self) -> String {
        serde_json::to_string(&self.0.report()).unwrap_or_default()
    }

    /// The counts of one mine count only (for its heatmap).
    fn only(&self, mines: &Obj<'_>) -> PyResult<Self> {
        Ok(Audit(self.0.only(args::mines(mines)?)))
    }

    /// The heatmap as text.
    fn heatmap_text(&self) -> String {
        history::heatmap_text(&self.0.report())
    }

    /// The heatmap as SVG.
    #[pyo3(signature = (title = None))]
    fn heatmap_svg(&self, title: Option<&Obj<'_>>) -> PyResult<String> {
        let title = title.filter(|t| !t.is_none()).map(|t| args::text(t, "title")).transpose()?;
        Ok(history::heatmap_svg(&self.0.report(), title.as_deref().unwrap_or("fairmines audit")))
    }
}
