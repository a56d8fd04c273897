//! Histories fed in pieces (the history crate's `HistoryVerifier` / `HistoryAuditor`: no thread, constant
//! memory); wasm/api.js reads a source chunk by chunk into them. Reports are the CLI's `--json`
//! (`fairmines_history::{summary_json, failure_json, audit_json}`), parsed into JavaScript objects.

use std::collections::BTreeMap;

use fairmines_history::{
    Format, HistoryError, MultiplierForm, Options, audit_json, failure_json, parse_delimiter, summary_json,
};
use wasm_bindgen::prelude::*;

use crate::{Class, Converted, Failure, Thrown, as_object, get, known_keys, object, text_in, type_name};

const OPTION_FIELDS: [&str; 7] =
    ["format", "delimiter", "columns", "maxOpenPairs", "maxFailures", "multiplierForm", "source"];

/// A history error: the run's options (`RangeError`, `argument: 'options'`), the core's, or the input's
/// (`Error`, `code: 'FAIRMINES_HISTORY_UNREADABLE'`, the message as the CLI prints it).
fn failure(error: HistoryError) -> Failure {
    let (class, code, argument) = match &error {
        HistoryError::Invalid(e) => return Failure::core(e.clone()),
        HistoryError::Argument(_) => (Class::Range, "ERR_INVALID_ARG_VALUE", Some("options")),
        _ => (Class::Plain, "FAIRMINES_HISTORY_UNREADABLE", None),
    };
    Failure::new(class, code.into(), None, argument, error.to_string())
}

fn argument_error(message: String) -> Failure {
    failure(HistoryError::Argument(message))
}

/// The run's options from `{ format, delimiter, columns, maxOpenPairs, maxFailures, multiplierForm, source }` (each
/// optional; `maxFailures` defaults to the crate's 10 000, so a page holds a bounded report), and the
/// audit's `source` label.
fn options(value: &JsValue) -> Converted<(Options, String)> {
    let mut options = Options::default();
    if value.is_undefined() || value.is_null() {
        return Ok((options, "input".into()));
    }
    as_object(value, "options")?;
    known_keys(value, "options", "the options of a history run", &OPTION_FIELDS)?;
    let given = |name| Some(get(value, name)).filter(|v| !v.is_undefined() && !v.is_null());
    if let Some(format) = given("format") {
        options.format = Format::parse(&text_in(&format, "options", "options.format")?).map_err(argument_error)?;
    }
    if let Some(delimiter) = given("delimiter") {
        options.delimiter = parse_delimiter(&text_in(&delimiter, "options", "options.delimiter")?).map_err(failure)?;
    }
    if let Some(columns) = given("columns") {
        as_object(&columns, "options").map_err(|_| {
            Failure::wrong_type("options", "options.columns", "an object of names", &type_name(&columns))
        })?;
        let mut map = BTreeMap::new();
        for key in js_sys::Object::keys(columns.unchecked_ref::<js_sys::Object>()).iter() {
            let name = key.as_string().unwrap_or_default();
            let field = text_in(&get(&columns, &name), "options", "options.columns")?;
            map.insert(name, field);
        }
        options.columns = map;
    }
    if let Some(pairs) = given("maxOpenPairs") {
        let count =
            fairmines::input::threads(crate::number(&pairs, "options", "options.maxOpenPairs")?, "max_open_pairs")
                .map_err(|e| Failure::field(e, "options"))?;
        options.max_open_pairs = count.get();
    }
    if let Some(max) = given("maxFailures") {
        let max = crate::number(&max, "options", "options.maxFailures")?;
        let max = fairmines::input::count(max, "max_failures").map_err(|e| Failure::field(e, "options"))?;
        options.max_failures = Some(max);
    }
    if let Some(form) = given("multiplierForm") {
        options.multiplier_form =
            MultiplierForm::parse(&text_in(&form, "options", "options.multiplierForm")?).map_err(argument_error)?;
    }
    let source = match given("source") {
        Some(label) => text_in(&label, "options", "options.source")?,
        None => "input".into(),
    };
    Ok((options, source))
}

fn parse(json: &serde_json::Value) -> JsValue {
    js_sys::JSON::parse(&json.to_string()).unwrap_or(JsValue::NULL)
}

fn progress(rows: u64, bytes: u64) -> JsValue {
    object(vec![("rows", (rows as f64).into()), ("bytes", (bytes as f64).into())])
}

/// Verifies a history fed in pieces: `feed(bytes)` as they arrive, then `finish()` gives
/// `{ summary, failures }` as `fairmines verify-history --json` writes them.
#[wasm_bindgen]
pub struct HistoryVerifier {
    inner: Option<fairmines_history::HistoryVerifier>,
}

#[wasm_bindgen]
impl HistoryVerifier {
    /// A verifier; `options`: `{ format?: 'auto' | 'jsonl' | 'csv', delimiter?, columns?, maxOpenPairs? }`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "HistoryOptions | null")] options: JsValue,
    ) -> Result<HistoryVerifier, Thrown> {
        let (options, _) = self::options(&options)?;
        Ok(HistoryVerifier { inner: Some(fairmines_history::HistoryVerifier::new(&options).map_err(failure)?) })
    }

    /// Reads the next piece of the history and checks every row it completes.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Thrown> {
        Ok(self.inner.as_mut().ok_or_else(finished)?.feed(bytes).map_err(failure)?)
    }

    /// `{ rows, bytes }`: rows checked and bytes fed so far.
    #[wasm_bindgen(unchecked_return_type = "Progress")]
    pub fn progress(&self) -> JsValue {
        self.inner.as_ref().map_or(JsValue::NULL, |v| progress(v.progress().rows, v.progress().bytes))
    }

    /// Checks the last rows and returns `{ summary, failures }` (once).
    #[wasm_bindgen(unchecked_return_type = "HistoryReport")]
    pub fn finish(&mut self) -> Result<JsValue, Thrown> {
        let report = self.inner.take().ok_or_else(finished)?.finish().map_err(failure)?;
        let failures: js_sys::Array = report.failures.iter().map(|f| parse(&failure_json(f))).collect();
        Ok(object(vec![("summary", parse(&summary_json(&report.summary))), ("failures", failures.into())]))
    }
}

/// Audits a history fed in pieces: `finish()` gives the object `fairmines audit --json` writes.
#[wasm_bindgen]
pub struct HistoryAuditor {
    inner: Option<fairmines_history::HistoryAuditor>,
    source: String,
}

#[wasm_bindgen]
impl HistoryAuditor {
    /// An auditor; `options` as {@link HistoryVerifier}'s, and `source`: what the report names (`'input'`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "HistoryOptions | null")] options: JsValue,
    ) -> Result<HistoryAuditor, Thrown> {
        let (options, source) = self::options(&options)?;
        Ok(HistoryAuditor { inner: Some(fairmines_history::HistoryAuditor::new(&options).map_err(failure)?), source })
    }

    /// Reads the next piece of the history and counts every row it completes.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Thrown> {
        Ok(self.inner.as_mut().ok_or_else(finished)?.feed(bytes).map_err(failure)?)
    }

    /// `{ rows, bytes }`: rows counted and bytes fed so far.
    #[wasm_bindgen(unchecked_return_type = "Progress")]
    pub fn progress(&self) -> JsValue {
        self.inner.as_ref().map_or(JsValue::NULL, |v| progress(v.progress().rows, v.progress().bytes))
    }

    /// Counts the last rows and returns the audit as `fairmines audit --json` writes it (once).
    #[wasm_bindgen(unchecked_return_type = "AuditReport")]
    pub fn finish(&mut self) -> Result<JsValue, Thrown> {
        let counts = self.inner.take().ok_or_else(finished)?.finish().map_err(failure)?;
        Ok(parse(&audit_json(&counts.report(), &self.source)))
    }
}

fn finished() -> Failure {
    Failure::new(Class::Plain, "ERR_INVALID_STATE".into(), None, None, "history: finish() was called already".into())
}

/// The counts of an audit object (what `audit()` gives), read back by the history crate.
fn audit_counts(audit: &JsValue) -> Converted<fairmines_history::AuditCounts> {
    as_object(audit, "audit")?;
    let text = js_sys::JSON::stringify(audit).map(String::from).unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or_default();
    fairmines_history::audit_counts_from_json(&value).map_err(|e| Failure::at(e, "audit", "audit"))
}

/// Per tile (index 0 = tile 1): `[observed / expected mines, z-score]`, pooled over the mine counts of an
/// audit (what `audit()` gives), as the heatmap shows them; `null` when it has no rounds.
#[wasm_bindgen(js_name = tileRatios, unchecked_return_type = "[number, number][] | null")]
pub fn tile_ratios(#[wasm_bindgen(unchecked_param_type = "AuditReport")] audit: JsValue) -> Result<JsValue, Thrown> {
    let ratios = fairmines_history::tile_ratios(&audit_counts(&audit)?.report());
    let pairs = |r: [(f64, f64); 25]| {
        r.iter().map(|&(x, z)| js_sys::Array::of2(&x.into(), &z.into())).collect::<js_sys::Array>()
    };
    Ok(ratios.map_or(JsValue::NULL, |r| pairs(r).into()))
}

/// The heatmap of an audit (what `audit()` gives) as an SVG document, titled `title`: the file of
/// `fairmines audit --plot` (whose title is `fairmines audit: ` and the audit's `source`).
#[wasm_bindgen(js_name = heatmapSvg)]
pub fn heatmap_svg(
    #[wasm_bindgen(unchecked_param_type = "AuditReport")] audit: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] title: JsValue,
) -> Result<String, Thrown> {
    let title = crate::text(&title, "title")?;
    Ok(fairmines_history::heatmap_svg(&audit_counts(&audit)?.report(), &title))
}
