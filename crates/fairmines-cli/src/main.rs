//! `fairmines`: verify a provably fair Mines round from the command line.

/// `print!` for the command's output. When the reader has gone (`fairmines audit … | head`), the command
/// stops quietly with status 0, as `simulate-history` does, where `print!` would panic.
macro_rules! out {
    ($($arg:tt)*) => { $crate::write_stdout(format_args!($($arg)*)) };
}

/// `println!` for the command's output, as [`out!`].
macro_rules! outln {
    () => { $crate::write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

mod board;
mod game;
mod history;
mod selftest;

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use fairmines::{Digest, Doubt, MineCount, Places, Published, Rtp, ServerSeed, Tiles, Verdict, Verification, verify};
use serde_json::json;

/// Exit status when every check that was asked for holds.
const EXIT_OK: u8 = 0;
/// Exit status when a check fails (a tampered round, or a failed self-test).
const EXIT_MISMATCH: u8 = 1;
/// Exit status for bad input; clap uses it too for its own usage errors.
const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(name = "fairmines", version, about = "Provably fair Mines (Cloudbet): verify rounds, make server seeds")]
#[command(after_help = "Exit status: 0 when every check holds (or none was given: the verdict says unchecked), \
1 on a mismatch, 2 on bad input (also a mismatch whose seeds look mistyped: empty, white space around them, a \
server seed not in the operator's form of 64 lowercase hex characters).")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Recompute a round from its seeds and check it against what the operator published.
    Verify(VerifyArgs),
    /// Make a new server seed (32 bytes from the OS CSPRNG) and its commitment.
    Seed {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a round in the terminal: the commitment first, then your picks, then the reveal and its verification.
    Play {
        /// The number of mines: a whole number from 1 to 24.
        #[arg(long, value_parser = parse_mines, allow_hyphen_values = true)]
        mines: MineCount,
        /// The return-to-player factor, e.g. 0.99 or 99/100 (no operator's factor is assumed).
        #[arg(long, value_parser = parse_rtp)]
        rtp: Rtp,
        /// Your client seed (a random one if not given).
        #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
        client_seed: Option<String>,
        /// Decimal places shown for multipliers (always rounded down).
        #[arg(long, default_value = "2", value_parser = parse_places, allow_hyphen_values = true)]
        places: Places,
    },
    /// The multiplier table for a return-to-player factor: every mine count and number of safe picks.
    Table {
        /// The return-to-player factor, e.g. 0.99 or 99/100 (no operator's factor is assumed).
        #[arg(long, value_parser = parse_rtp)]
        rtp: Rtp,
        /// Only this mine count.
        #[arg(long, value_parser = parse_mines, allow_hyphen_values = true)]
        mines: Option<MineCount>,
        /// Decimal places shown (always rounded down; the exact fraction is shown beside it).
        #[arg(long, default_value = "2", value_parser = parse_places, allow_hyphen_values = true)]
        places: Places,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Verify a whole bet history (JSON Lines or CSV): every row recomputed, nonce gaps and duplicates found.
    VerifyHistory(history::VerifyHistoryArgs),
    /// Test the mine placement for uniformity: per-tile frequencies, chi-square p-values, a heatmap.
    Audit(history::AuditArgs),
    /// Write a genuine history with fresh seeds (test data for verify-history and audit).
    SimulateHistory(history::SimulateArgs),
    /// Check this build against the reference vectors embedded in it.
    Selftest {
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// The revealed server seed (the text, usually 64 hex characters).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    server_seed: String,
    /// The client seed of the seed pair.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    client_seed: String,
    /// The round's nonce: an integer in 0..=18446744073709551615.
    #[arg(long, value_parser = parse_nonce, allow_hyphen_values = true)]
    nonce: u64,
    /// The number of mines: a whole number from 1 to 24.
    #[arg(long, value_parser = parse_mines, allow_hyphen_values = true)]
    mines: MineCount,
    /// The commitment shown before play (64 hex characters), to check against the server seed.
    #[arg(long, value_name = "HEX", value_parser = parse_commitment)]
    commitment: Option<Digest>,
    /// The mine positions the operator declared, 1-based, e.g. `7,10,19`, to check.
    #[arg(long, value_name = "LIST", value_parser = parse_positions, allow_hyphen_values = true)]
    positions: Option<Tiles>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_nonce(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("nonce: must be a whole number from 0 to 18446744073709551615, got {text:?}"))
}

fn parse_mines(text: &str) -> Result<MineCount, String> {
    let number: i128 =
        text.trim().parse().map_err(|_| format!("mines: must be a whole number from 1 to 24, got {text:?}"))?;
    MineCount::try_from(number).map_err(|e| e.to_string())
}

fn parse_places(text: &str) -> Result<Places, String> {
    let number: i128 =
        text.trim().parse().map_err(|_| format!("places: must be a whole number from 0 to 18, got {text:?}"))?;
    Places::new(number).map_err(|e| e.to_string())
}

fn parse_rtp(text: &str) -> Result<Rtp, String> {
    Rtp::parse(text).map_err(|e| e.to_string())
}

fn parse_commitment(text: &str) -> Result<Digest, String> {
    Digest::parse_hex(text.trim(), "commitment").map_err(|e| e.to_string())
}

/// Accepts `7,10,19`, `7 10 19` and `[7, 10, 19]`.
fn parse_positions(text: &str) -> Result<Tiles, String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    let tiles = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .map(|part| part.parse::<i128>().map_err(|_| format!("positions: {part:?} is not a tile number")))
        .collect::<Result<Vec<_>, _>>()?;
    Tiles::declared(tiles, "positions").map_err(|e| e.to_string())
}

fn write_stdout(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("output: {e}");
            std::process::exit(EXIT_BAD_INPUT.into());
        }
        std::process::exit(EXIT_OK.into());
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    ExitCode::from(match cli.command {
        Command::Verify(args) => run_verify(&args),
        Command::Seed { json } => run_seed(json),
        Command::Play { mines, rtp, client_seed, places } => game::play(mines, rtp, client_seed, places),
        Command::Table { rtp, mines, places, json } => game::table(rtp, mines, places, json),
        Command::Selftest { json } => selftest::run(json),
        Command::VerifyHistory(args) => history::verify_history(&args),
        Command::Audit(args) => history::audit(&args),
        Command::SimulateHistory(args) => history::simulate(&args),
    })
}

fn run_verify(args: &VerifyArgs) -> u8 {
    let published = Published {
        server_seed: &args.server_seed,
        client_seed: &args.client_seed,
        nonce: args.nonce,
        mines: args.mines,
        commitment: args.commitment,
        positions: args.positions,
    };
    let verdict = verify(&published);
    let doubts = published.doubts_for(&verdict);
    if args.json {
        outln!("{}", verdict_json(args, &verdict, &doubts));
    } else {
        print_verdict(args, &verdict, &doubts);
    }
    match verdict.verdict() {
        Verdict::Mismatch if !doubts.is_empty() => EXIT_BAD_INPUT,
        Verdict::Mismatch => EXIT_MISMATCH,
        // Nothing given to check is not a mismatch: the verdict says "unchecked" in words and JSON.
        Verdict::Ok | Verdict::Unchecked => EXIT_OK,
    }
}

fn list(tiles: &[u8]) -> String {
    tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
}

fn verdict_json(args: &VerifyArgs, verdict: &Verification, doubts: &[Doubt]) -> serde_json::Value {
    json!({
        "server_seed": args.server_seed,
        "client_seed": args.client_seed,
        "nonce": args.nonce,
        "mines": args.mines.get(),
        "signature": verdict.signature.to_string(),
        "commitment": verdict.commitment.to_string(),
        "declared_commitment": verdict.commitment_check.map(|c| c.declared.to_string()),
        "commitment_ok": verdict.commitment_ok(),
        "positions": &*verdict.placement.positions(),
        "draw_order": &*verdict.placement.draw_order(),
        "declared_positions": verdict.positions_check.map(|c| c.declared.to_vec()),
        "positions_ok": verdict.positions_ok(),
        "verdict": verdict.verdict().as_str(),
        "ok": verdict.is_ok(),
        "input_doubts": doubts.iter().map(|d| json!({ "argument": d.argument, "detail": d.detail })).collect::<Vec<_>>(),
    })
}

fn print_verdict(args: &VerifyArgs, verdict: &Verification, doubts: &[Doubt]) {
    let positions = verdict.placement.positions();
    outln!("server seed  {}", args.server_seed);
    outln!("client seed  {}", args.client_seed);
    outln!("nonce        {}", args.nonce);
    outln!("mines        {}", args.mines.get());
    outln!("signature    {}", verdict.signature);
    match verdict.commitment_check {
        None => outln!("commitment   {}  (no commitment given to check)", verdict.commitment),
        Some(c) if c.ok() => outln!("commitment   {}  ok: matches the commitment given", verdict.commitment),
        Some(c) => {
            outln!("commitment   {}  MISMATCH", verdict.commitment);
            outln!("   declared  {}", c.declared);
        }
    }
    outln!("draw order   {}  (0-based, as drawn)", list(&verdict.placement.draw_order()));
    match verdict.positions_check {
        None => outln!("positions    {}  (no positions given to check)", list(&positions)),
        Some(c) if c.ok() => outln!("positions    {}  ok: match the positions given", list(&positions)),
        Some(c) => {
            outln!("positions    {}  MISMATCH", list(&positions));
            outln!("   declared  {}", list(&c.declared));
        }
    }
    outln!();
    out!("{}", board::render(&verdict.placement, verdict.positions_check.map(|c| c.declared)));
    outln!();
    for doubt in doubts {
        outln!("input        {doubt}");
    }
    let verdict_line = match verdict.verdict() {
        Verdict::Mismatch if !doubts.is_empty() => {
            "verdict: CHECK THE INPUT, a seed looks mistyped (above): fix it before reading a mismatch as the operator's"
        }
        Verdict::Ok => "verdict: OK, every check given holds",
        Verdict::Unchecked => {
            "verdict: UNCHECKED, nothing was compared; give --commitment and --positions to check the operator's round"
        }
        Verdict::Mismatch => "verdict: MISMATCH, this is not the round the seeds determine",
    };
    outln!("{verdict_line}");
}

fn run_seed(json: bool) -> u8 {
    let seed = match ServerSeed::generate() {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    if json {
        outln!("{}", json!({ "server_seed": seed.reveal(), "commitment": seed.commitment().to_string() }));
    } else {
        outln!("server seed  {}", seed.reveal());
        outln!("commitment   {}", seed.commitment());
        outln!("Publish the commitment now; keep the server seed secret until the seed pair rotates.");
    }
    EXIT_OK
}
