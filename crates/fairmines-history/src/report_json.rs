//! The JSON of a run as `fairmines verify-history --json` and `fairmines audit --json` write it: one
//! definition for the CLI, the WebAssembly package and any other caller that shows it.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::audit::{AuditCounts, AuditReport, ChiSquare};
use crate::verify::{Failure, Summary};

/// A failure as one line of `verify-history --json`: its fields and `"type": "failure"`.
pub fn failure_json(failure: &Failure) -> Value {
    let mut value = serde_json::to_value(failure).unwrap_or_default();
    value["type"] = json!("failure");
    value
}

/// The summary as the last line of `verify-history --json`: its counts, `"type": "summary"`,
/// `"all_ok"` ([`Summary::is_ok`]) and `"text"` (the counts in words, [`Summary::text`]).
pub fn summary_json(summary: &Summary) -> Value {
    let mut value = serde_json::to_value(summary).unwrap_or_default();
    value["type"] = json!("summary");
    value["all_ok"] = json!(summary.is_ok());
    value["text"] = json!(summary.text());
    value
}

fn test_json(test: Option<ChiSquare>) -> Value {
    test.map_or(
        Value::Null,
        |t| json!({ "statistic": t.statistic, "degrees_of_freedom": t.degrees_of_freedom, "p_value": t.p_value }),
    )
}

/// An audit as `audit --json` writes it; `source` says what was audited (a file name, `"input"`).
/// `p_values` lists every p-value with what it tests ([`AuditReport::p_values`]); `combined` is null when
/// the mine counts share their rounds (`shared_rounds`, a seed-pair audit), where `holm_p_value` and
/// `overall_p_value` are the valid joint p-values. `verdict` is the conclusion ([`Verdict`](crate::Verdict)):
/// `{level, words, explanation, rounds, p_value, largest_deviation{tile, percent, z}, thresholds{unusual,
/// strong_evidence, min_rounds}}`. `payout` is the payout audit ([`PayoutAudit`](crate::PayoutAudit)), null
/// when no row has a play.
pub fn audit_json(report: &AuditReport, source: &str) -> Value {
    let by_mines: Vec<_> = report
        .by_mines
        .iter()
        .map(|m| {
            json!({
                "mines": m.mines,
                "rounds": m.rounds,
                "tile_counts": m.tile_counts,
                "chi_square": test_json(m.chi_square),
                "holm_p_value": m.holm_p_value,
            })
        })
        .collect();
    json!({
        "source": source,
        "rows_read": report.rows_read,
        "malformed": report.malformed,
        "skipped": report.skipped,
        "by_mines": by_mines,
        "combined": test_json(report.combined),
        "first_draw_counts": report.first_draw_counts,
        "first_draw": test_json(report.first_draw),
        "holm_p_value": report.holm_p_value,
        "overall_p_value": report.overall_p_value,
        "shared_rounds": report.shared_rounds,
        "p_values": report.p_values,
        "verdict": report.verdict,
        "payout": report.payout,
    })
}

/// The counts an [`audit_json`] object holds (its tests, `tile_ratios` and heatmaps follow from them), for a
/// caller that has only the JSON (a page's worker posted it); other keys are ignored. The error is
/// [`fairmines::Error::InvalidState`] (argument `audit`) when it is not such an object.
pub fn audit_counts_from_json(value: &Value) -> Result<AuditCounts, fairmines::Error> {
    #[derive(Deserialize)]
    struct ByMines {
        mines: u8,
        rounds: u64,
        tile_counts: [u64; 25],
    }
    #[derive(Deserialize)]
    struct Audit {
        rows_read: u64,
        malformed: u64,
        skipped: u64,
        by_mines: Vec<ByMines>,
        first_draw_counts: [u64; 25],
        #[serde(default)]
        shared_rounds: bool,
    }
    let invalid = |detail: String| fairmines::Error::InvalidState { argument: "audit", detail };
    let audit = Audit::deserialize(value).map_err(|e| invalid(e.to_string()))?;
    let mut counts = AuditCounts {
        rows_read: audit.rows_read,
        malformed: audit.malformed,
        skipped: audit.skipped,
        shared_rounds: audit.shared_rounds,
        ..AuditCounts::default()
    };
    counts.first_draw = audit.first_draw_counts;
    for m in audit.by_mines {
        let Some(i) = usize::from(m.mines).checked_sub(1).filter(|&i| i < 24) else {
            return Err(invalid(format!("by_mines: mines must be from 1 to 24, got {}", m.mines)));
        };
        (counts.rounds[i], counts.tiles[i]) = (m.rounds, m.tile_counts);
    }
    Ok(counts)
}
