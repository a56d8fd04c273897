//! `fairmines verify-history`, `fairmines audit` and `fairmines simulate-history`.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use fairmines::{MineCount, ServerSeed, Tiles};
use fairmines_history::{
    AuditCounts, AuditReport, CSV_HEADER, ChiSquare, Failure, Format, MultiplierForm, Options, Progress, Row, Sink,
    Summary, audit_history, audit_json, audit_seed_pair_counts, failure_json, heatmap_svg, heatmap_text, summary_json,
    verify_history_to,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK};

#[derive(clap::Args)]
pub struct VerifyHistoryArgs {
    /// The history: a JSON Lines or CSV file, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    input: PathBuf,
    /// The input's format: auto (from the extension, else the first byte), jsonl or csv.
    #[arg(long, default_value = "auto", value_parser = Format::parse)]
    format: Format,
    /// Print JSON Lines: one object per failure ("type": "failure"), then the summary ("type": "summary", "all_ok").
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Seed pairs whose nonces are held at once (see the history crate's README).
    #[arg(long, default_value_t = Options::default().max_open_pairs)]
    max_open_pairs: usize,
    /// Print at most N failures; the others are counted ("failures omitted" in the summary). Default: every
    /// one (they are printed as found, not held).
    #[arg(long, value_name = "N")]
    max_failures: Option<u64>,
    /// The revealed seed pairs, one JSON object a line ({"server_seed", "commitment", "client_seed",
    /// "rounds"}, as a rotation reveals them): rounds missing at either end of a pair, and rows past its
    /// round count, are reported too.
    #[arg(long, value_name = "FILE")]
    revealed: Option<PathBuf>,
    /// How the `multiplier` of a row without a `multiplier_form` column is written: exact, or displayed (as
    /// the operator's site shows it: the exact multiplier rounded down to the decimals written, 99/80 as 1.23).
    #[arg(long, default_value = "exact", value_parser = MultiplierForm::parse)]
    multiplier_form: MultiplierForm,
}

/// The revealed seed pairs of `--revealed`, one JSON object a line (blank lines skipped).
fn read_revealed(path: &std::path::Path) -> Result<Vec<fairmines::RevealedSeedPair>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("revealed: cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            fairmines::RevealedSeedPair::from_json(line)
                .map_err(|e| format!("revealed: {} line {}: {e}", path.display(), i + 1))
        })
        .collect()
}

#[derive(clap::Args)]
pub struct AuditArgs {
    /// A history to audit (JSON Lines or CSV, `-` for standard input); or give a seed pair instead.
    #[arg(value_name = "FILE|-", conflicts_with_all = ["server_seed", "client_seed"])]
    input: Option<PathBuf>,
    /// The history's format: auto, jsonl or csv.
    #[arg(long, default_value = "auto", value_parser = Format::parse)]
    format: Format,
    /// The server seed of the seed pair to audit.
    #[arg(long, value_name = "TEXT", requires_all = ["client_seed", "count", "mines"], allow_hyphen_values = true)]
    server_seed: Option<String>,
    /// The client seed of the seed pair to audit.
    #[arg(long, value_name = "TEXT", requires = "server_seed", allow_hyphen_values = true)]
    client_seed: Option<String>,
    /// The first nonce of the range.
    #[arg(long, default_value_t = 0, value_parser = crate::parse_nonce)]
    first: u64,
    /// How many nonces, from --first.
    #[arg(long, value_parser = crate::parse_nonce)]
    count: Option<u64>,
    /// Mine counts for a seed pair: `3`, `1,3,24`, `1-24` or `all`.
    #[arg(long, value_name = "LIST", value_parser = parse_mine_list)]
    mines: Option<MineList>,
    /// Write the heatmap as SVG to this file.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Exit 1 when the overall p-value (every test of the report, each mine count and the first draw, adjusted
    /// for their number by Holm's method, valid whatever their dependence) is below this level (by default the
    /// audit only reports).
    #[arg(long, value_name = "P")]
    fail_below: Option<f64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Worker threads for a history (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

#[derive(clap::Args)]
pub struct SimulateArgs {
    /// Rows to write.
    #[arg(long, default_value_t = 1000)]
    rows: u64,
    /// Rounds per seed pair: after this many nonces (0, 1, 2, …) a fresh server seed is drawn.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    rounds_per_seed: u64,
    /// Every round with this many mines (by default the mine count cycles through 1 to 24).
    #[arg(long, value_parser = crate::parse_mines, allow_hyphen_values = true)]
    mines: Option<MineCount>,
    /// The client seed of every pair (by default a fresh random one per pair).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    client_seed: Option<String>,
    /// jsonl or csv (by default from the output's extension, else jsonl).
    #[arg(long, value_parser = Format::parse)]
    format: Option<Format>,
    /// Write here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// A list of mine counts (one clap value, hence the wrapper).
#[derive(Clone, Debug)]
pub struct MineList(Vec<MineCount>);

/// Accepts `3`, `1,3,24`, `1-24` and `all`.
fn parse_mine_list(text: &str) -> Result<MineList, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (lo, hi) = match part {
            "all" => ("1", "24"),
            _ => part.split_once('-').unwrap_or((part, part)),
        };
        let (lo, hi) = (crate::parse_mines(lo)?, crate::parse_mines(hi)?);
        for m in lo.get()..=hi.get() {
            out.push(MineCount::new(u32::from(m)).map_err(|e| e.to_string())?);
        }
    }
    if out.is_empty() {
        return Err(format!("mines: give a list like 3, 1,3,24, 1-24 or all, got {text:?}"));
    }
    Ok(MineList(out))
}

fn open(path: &Path) -> io::Result<(Box<dyn Read + Send>, Option<u64>)> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(io::stdin()), None));
    }
    let file = File::open(path)?;
    let len = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    Ok((Box::new(file), len))
}

fn format_for(path: &Path, given: Format) -> Format {
    match given {
        Format::Auto => Format::from_path(path),
        other => other,
    }
}

/// A progress bar on standard error when it is a terminal; nothing otherwise.
fn progress_bar(total_bytes: Option<u64>) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match total_bytes {
        Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {msg} ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
            ProgressStyle::with_template("{spinner} {bytes} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    bar.set_message("0 rows");
    bar
}

fn on_progress(bar: &ProgressBar, progress: Progress) {
    bar.set_position(progress.bytes);
    bar.set_message(format!("{} rows", progress.rows));
}

struct Printer<W: Write> {
    out: W,
    json: bool,
    bar: ProgressBar,
    error: Option<io::Error>,
}

fn describe_failure(f: &Failure) -> String {
    let pair = || {
        let pair = f.pair_commitment.as_deref().map_or("", |c| &c[..c.len().min(16)]);
        format!("seed pair {pair}… / client seed {:?}", f.client_seed.as_deref().unwrap_or(""))
    };
    let at = match (f.line, &f.round_id) {
        // A gap lies before the row of its line, in its seed pair.
        (Some(line), _) if f.kind == fairmines_history::FailureKind::NonceGap => format!("line {line}, {}", pair()),
        (Some(line), Some(id)) => format!("line {line} (round {id})"),
        (Some(line), None) => format!("line {line}"),
        (None, _) => pair(),
    };
    let mut text = format!("{at}: {} {}", f.kind.as_str().to_uppercase(), f.message);
    if let (Some(expected), Some(declared), fairmines_history::FailureKind::Commitment) =
        (&f.expected, &f.declared, f.kind)
    {
        text.push_str(&format!("\n    expected {expected}\n    declared {declared}"));
    }
    text
}

impl<W: Write> Sink for Printer<W> {
    fn failure(&mut self, failure: Failure) {
        if self.error.is_some() {
            return;
        }
        let line = if self.json { failure_json(&failure).to_string() } else { describe_failure(&failure) };
        let out = &mut self.out;
        if let Err(e) = self.bar.suspend(|| writeln!(out, "{line}")) {
            self.error = Some(e);
        }
    }

    fn progress(&mut self, progress: Progress) -> ControlFlow<()> {
        on_progress(&self.bar, progress);
        ControlFlow::Continue(())
    }
}

fn print_summary(out: &mut impl Write, s: &Summary) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "rows read        {}", s.rows_read)?;
    writeln!(out, "  ok             {}", s.ok)?;
    writeln!(
        out,
        "  mismatched     {}  (commitment {}, positions {}, play {}, duplicate nonce {})",
        s.mismatched, s.commitment_mismatches, s.position_mismatches, s.play_mismatches, s.duplicate_nonces
    )?;
    writeln!(out, "  malformed      {}", s.malformed)?;
    writeln!(out, "seed pairs       {}", s.seed_pairs)?;
    writeln!(out, "nonce gaps       {}  ({} nonces missing)", s.nonce_gaps, s.missing_nonces)?;
    if s.failures_omitted > 0 {
        writeln!(
            out,
            "failures         {}  ({} listed above, {} not listed: past --max-failures; counted above)",
            s.failures_found(),
            s.failures_listed,
            s.failures_omitted
        )?;
    } else {
        writeln!(out, "failures         {}  (all listed above)", s.failures_found())?;
    }
    if s.blank_lines > 0 {
        writeln!(out, "blank lines      {}  (skipped; not rows)", s.blank_lines)?;
    }
    if s.unterminated_last_line {
        writeln!(out, "note: the last line has no newline")?;
    }
    if s.pairs_closed_early > 0 {
        writeln!(
            out,
            "note: {} seed pairs were closed early (more than --max-open-pairs open at once); \
             gaps and duplicates across a pair's two stretches are not seen if it came back",
            s.pairs_closed_early
        )?;
    }
    writeln!(out, "summary: {}", s.text())?;
    writeln!(out, "verdict: {}", s.verdict())
}

pub fn verify_history(args: &VerifyHistoryArgs) -> u8 {
    let (input, len) = match open(&args.input) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("input: cannot open {}: {e}", args.input.display());
            return EXIT_BAD_INPUT;
        }
    };
    let revealed = match args.revealed.as_deref().map(read_revealed).transpose() {
        Ok(revealed) => revealed.unwrap_or_default(),
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let options = Options {
        format: format_for(&args.input, args.format),
        threads: args.threads,
        max_open_pairs: args.max_open_pairs,
        max_failures: args.max_failures,
        revealed,
        multiplier_form: args.multiplier_form,
        ..Options::default()
    };
    let bar = progress_bar(len);
    let stdout = io::stdout();
    let mut printer = Printer { out: BufWriter::new(stdout.lock()), json: args.json, bar: bar.clone(), error: None };
    let result = verify_history_to(input, &options, &mut printer);
    bar.finish_and_clear();
    let summary = match result {
        Ok((summary, _pairs)) => summary,
        Err(e) => {
            let _ = printer.out.flush();
            eprintln!("{e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut out = printer.out;
    let written =
        if args.json { writeln!(out, "{}", summary_json(&summary)) } else { print_summary(&mut out, &summary) };
    if let Some(e) = printer.error.or(written.err()).or(out.flush().err()) {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("output: {e}");
        }
        return EXIT_BAD_INPUT;
    }
    if summary.is_ok() { EXIT_OK } else { EXIT_MISMATCH }
}

fn print_audit(what: &str, report: &AuditReport) {
    outln!("audit of {what}");
    let verdict = &report.verdict;
    outln!("verdict: {}", verdict.words);
    if let Some(d) = verdict.largest_deviation {
        outln!("largest deviation: tile {}, {:+.1}% mines against expected, z = {:.1}", d.tile, d.percent, d.z);
    }
    outln!("{}", verdict.explanation);
    outln!();
    outln!("{:>5} {:>10} {:>11} {:>4} {:>9}", "mines", "rounds", "chi-square", "df", "p-value");
    let row = |label: String, rounds: String, test: Option<ChiSquare>| match test {
        Some(t) => {
            outln!("{label:>5} {rounds:>10} {:>11.2} {:>4} {:>9.4}", t.statistic, t.degrees_of_freedom, t.p_value)
        }
        None => outln!("{label:>5} {rounds:>10} {:>11}", "-"),
    };
    for m in &report.by_mines {
        row(m.mines.to_string(), m.rounds.to_string(), m.chi_square);
    }
    let total: u64 = report.by_mines.iter().map(|m| m.rounds).sum();
    if report.combined.is_some() {
        row("all".into(), total.to_string(), report.combined);
    }
    let draws: u64 = report.first_draw_counts.iter().sum();
    outln!();
    match report.first_draw {
        Some(t) => outln!(
            "first draw over {draws} rounds: chi-square {:.2} (df {}), p = {:.4}",
            t.statistic,
            t.degrees_of_freedom,
            t.p_value
        ),
        None => outln!("first draw: no rounds"),
    }
    if report.malformed > 0 || report.skipped > 0 {
        outln!(
            "rows read {}, malformed {} (skipped; `fairmines verify-history` says why), not a board {} (skipped)",
            report.rows_read,
            report.malformed,
            report.skipped
        );
    }
    if !report.p_values.is_empty() {
        outln!();
        outln!("what each p-value tests (a small one says it is not uniform):");
        // The mine counts' own p-values are the table's rows; what they test is said once.
        let rows = report.p_values.iter().filter(|p| p.name.ends_with(" mines")).count();
        if rows > 0 {
            outln!(
                "  {:<10} {:<10}  each row: tiles of its mine count's rounds uniform (chi-square, df 24)",
                "table",
                ""
            );
        }
        for p in report.p_values.iter().filter(|p| !p.name.ends_with(" mines")) {
            outln!("  {:<10} p = {:.4}  {}", p.name, p.p_value, p.what);
        }
        if report.shared_rounds && report.by_mines.len() > 1 {
            outln!(
                "  (no combined test: every mine count comes from the same nonces, so their tests are not independent)"
            );
        }
    }
    if let Some(payout) = &report.payout {
        print_payout(payout);
    }
    outln!();
    out!("{}", heatmap_text(report));
    outln!("p-values are the chance of a deviation at least this large if every tile were equally likely:");
    outln!("a small one alone is no proof (1 test in 20 is below 0.05 by chance). The verdict holds `overall`");
    let t = verdict.thresholds;
    outln!(
        "(every test, Holm-adjusted) against {} (unusual) and {:e} (strong evidence), from {} rounds on.",
        t.unusual,
        t.strong_evidence,
        t.min_rounds
    );
}

/// The payout audit: returns against the declared RTP with their 95% intervals, then the hit rates.
fn print_payout(payout: &fairmines_history::PayoutAudit) {
    let show = |x: Option<f64>| x.map_or("-".to_owned(), |x| format!("{x:.4}"));
    let row = |label: &str, g: &fairmines_history::Group| {
        let inside = match g.declared_inside {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        outln!(
            "{label:>12} {:>9} {:>8} [{}, {}] {:>8} {:>7}",
            g.rounds,
            show(g.realised_return),
            show(g.ci_low),
            show(g.ci_high),
            show(g.declared_rtp),
            inside
        );
    };
    outln!();
    outln!("payouts: realised return (payout / stake; without stakes the mean multiplier) and its 95% interval");
    outln!("{:>12} {:>9} {:>8} {:^18} {:>8} {:>7}", "", "rounds", "return", "95% interval", "declared", "inside");
    row("all", &payout.overall);
    for g in &payout.by_mines {
        row(&format!("{} mines", g.mines), &g.group);
    }
    for (kind, groups) in [("currency", &payout.by_currency), ("player", &payout.by_player)] {
        for g in groups.iter().take(20) {
            row(&format!("{kind} {}", g.key), &g.group);
        }
        if groups.len() > 20 {
            outln!("{:>12} … and {} more (see --json)", "", groups.len() - 20);
        }
    }
    if payout.groups_omitted > 0 {
        outln!("rounds left out of the per-group rows (over 1,000 groups of a kind): {}", payout.groups_omitted);
    }
    let flagged: Vec<_> = payout.hit_rates.iter().filter(|h| h.z.abs() >= 4.0).collect();
    outln!(
        "hit rates: {} (mine count, pick number) cells, the share of k-th reveals that were safe against \
         (25 - mines - k + 1)/(25 - k + 1); {} with |z| >= 4",
        payout.hit_rates.len(),
        flagged.len()
    );
    for h in flagged {
        outln!(
            "  {} mines, pick {}: {}/{} safe = {:.4}, exact {} = {:.4}, z = {:.1}",
            h.mines,
            h.pick,
            h.safe,
            h.reveals,
            h.rate,
            h.expected_exact,
            h.expected,
            h.z
        );
    }
}

pub fn audit(args: &AuditArgs) -> u8 {
    let (counts, what) = match (&args.input, &args.server_seed) {
        (Some(path), _) => {
            let (input, len) = match open(path) {
                Ok(opened) => opened,
                Err(e) => {
                    eprintln!("input: cannot open {}: {e}", path.display());
                    return EXIT_BAD_INPUT;
                }
            };
            let options =
                Options { format: format_for(path, args.format), threads: args.threads, ..Options::default() };
            let bar = progress_bar(len);
            let result = audit_history(input, &options, |p| on_progress(&bar, p));
            bar.finish_and_clear();
            match result {
                Ok(counts) => (counts, format!("the history {}", path.display())),
                Err(e) => {
                    eprintln!("{e}");
                    return EXIT_BAD_INPUT;
                }
            }
        }
        (None, Some(server_seed)) => {
            let (Some(client_seed), Some(count), Some(mines)) = (&args.client_seed, args.count, &args.mines) else {
                eprintln!("audit: a seed pair needs --client-seed, --count and --mines");
                return EXIT_BAD_INPUT;
            };
            let bar = progress_bar(None);
            let result = audit_seed_pair_counts(server_seed, client_seed, args.first, count, &mines.0, |p| {
                bar.set_message(format!("{} nonces", p.rows));
                bar.tick();
            });
            bar.finish_and_clear();
            match result {
                Ok(counts) => (counts, format!("{count} rounds of one seed pair (nonces from {})", args.first)),
                Err(e) => {
                    eprintln!("{e}");
                    return EXIT_BAD_INPUT;
                }
            }
        }
        (None, None) => {
            eprintln!(
                "audit: give a history FILE, or a seed pair with --server-seed, --client-seed, --count and --mines"
            );
            return EXIT_BAD_INPUT;
        }
    };
    audit_output(args, &counts, &what)
}

fn audit_output(args: &AuditArgs, counts: &AuditCounts, what: &str) -> u8 {
    let report = counts.report();
    if let Some(plot) = &args.plot {
        if !plot.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg")) {
            eprintln!("plot: only SVG is written; give a file name ending in .svg, got {}", plot.display());
            return EXIT_BAD_INPUT;
        }
        if let Err(e) = std::fs::write(plot, heatmap_svg(&report, &format!("fairmines audit: {what}"))) {
            eprintln!("plot: cannot write {}: {e}", plot.display());
            return EXIT_BAD_INPUT;
        }
    }
    if args.json {
        outln!("{}", audit_json(&report, what));
    } else {
        print_audit(what, &report);
        if let Some(plot) = &args.plot {
            outln!("heatmap written to {}", plot.display());
        }
    }
    // One p-value for the whole report (Holm over every test), so the level holds whatever the number of
    // mine counts and their dependence; no test (no rounds) is a p-value of 1.
    match args.fail_below {
        Some(alpha) if report.overall_p_value.unwrap_or(1.0) < alpha => EXIT_MISMATCH,
        _ => EXIT_OK,
    }
}

fn fresh_hex() -> Result<String, fairmines::Error> {
    Ok(ServerSeed::generate()?.reveal().to_owned())
}

pub fn simulate(args: &SimulateArgs) -> u8 {
    let format = match (args.format, &args.output) {
        (Some(Format::Csv), _) => Format::Csv,
        (Some(_), _) => Format::JsonLines,
        (None, Some(path)) if Format::from_path(path) == Format::Csv => Format::Csv,
        (None, _) => Format::JsonLines,
    };
    let out: Box<dyn Write> = match &args.output {
        None => Box::new(io::stdout().lock()),
        Some(path) => match File::create(path) {
            Ok(file) => Box::new(file),
            Err(e) => {
                eprintln!("output: cannot create {}: {e}", path.display());
                return EXIT_BAD_INPUT;
            }
        },
    };
    match write_simulated(args, format, BufWriter::with_capacity(1 << 16, out)) {
        Ok(()) => EXIT_OK,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("output: {e}");
            EXIT_BAD_INPUT
        }
    }
}

fn write_simulated(args: &SimulateArgs, format: Format, mut out: impl Write) -> io::Result<()> {
    if format == Format::Csv {
        writeln!(out, "{CSV_HEADER}")?;
    }
    let mut seed: Option<(ServerSeed, String)> = None;
    for i in 0..args.rows {
        let nonce = i % args.rounds_per_seed;
        if nonce == 0 || seed.is_none() {
            let client = match &args.client_seed {
                Some(c) => c.clone(),
                None => fresh_hex().map_err(io::Error::other)?,
            };
            seed = Some((ServerSeed::generate().map_err(io::Error::other)?, client));
        }
        let Some((server, client)) = &seed else { continue };
        let mines = match args.mines {
            Some(m) => m,
            None => MineCount::try_from(1 + i % 24).map_err(io::Error::other)?,
        };
        let positions: Tiles = fairmines::placement(server.reveal(), client, nonce, mines).positions();
        let row = Row {
            server_seed: server.reveal().to_owned(),
            commitment: server.commitment(),
            client_seed: client.clone(),
            nonce,
            mines,
            positions,
            round_id: Some(format!("r{}", i + 1)),
            play: None,
            wager: None,
        };
        let line = if format == Format::Csv { row.to_csv_line() } else { row.to_json_line() };
        writeln!(out, "{line}")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mine_lists_parse() {
        let m = |t| parse_mine_list(t).map(|v| v.0.iter().map(|m| m.get()).collect::<Vec<_>>());
        assert_eq!(m("3").unwrap(), [3]);
        assert_eq!(m("1,3, 24").unwrap(), [1, 3, 24]);
        assert_eq!(m("22-24").unwrap(), [22, 23, 24]);
        assert_eq!(m("all").unwrap().len(), 24);
        assert!(m("25").unwrap_err().starts_with("mines:"));
        assert!(m("").is_err());
    }
}
