//! Searches nonces of one seed pair for rounds in which a draw is rejected (a word at or above
//! `floor(2^32 / P) * P`), so that the shared vectors can include them. Such rounds are rare: about one in
//! 3.4e7 for a 24-mine round, one in 2e8 at the very first draw (P = 25). See ALGORITHM.md.
//!
//! Usage: `rejection-search [--server-seed S] [--client-seed C] [--start N] [--first-draw K] [--total T]`
//! searches upward from `--start` until it has found at least `K` rounds rejected at the first draw and `T`
//! rounds in all, and prints them as JSON (the format of `vectors/rejections.json`).

use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Instant;

use fairmines::{MineCount, RoundHasher, WordStream, place_mines_observed};

const WORKED_SERVER_SEED: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const WORKED_CLIENT_SEED: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
/// Nonces each worker takes at a time.
const CHUNK: u64 = 1 << 20;

struct Options {
    server_seed: String,
    client_seed: String,
    start: u64,
    first_draw: usize,
    total: usize,
}

#[derive(Clone, Copy)]
struct Hit {
    nonce: u64,
    /// The first draw (0-based) at which a word was rejected, in a 24-mine round.
    draw: u8,
    available: u8,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        server_seed: WORKED_SERVER_SEED.to_owned(),
        client_seed: WORKED_CLIENT_SEED.to_owned(),
        start: 0,
        first_draw: 3,
        total: 24,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag}: needs a value"));
        match flag.as_str() {
            "--server-seed" => options.server_seed = value()?,
            "--client-seed" => options.client_seed = value()?,
            "--start" => options.start = value()?.parse().map_err(|e| format!("--start: {e}"))?,
            "--first-draw" => options.first_draw = value()?.parse().map_err(|e| format!("--first-draw: {e}"))?,
            "--total" => options.total = value()?.parse().map_err(|e| format!("--total: {e}"))?,
            "--help" | "-h" => {
                return Err("usage: rejection-search [--server-seed S] [--client-seed C] [--start N] \
                            [--first-draw K] [--total T]"
                    .to_owned());
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(options)
}

/// The first rejected draw of the 24-mine round with `nonce`, if any. A rejection at draw k shows in
/// every round of the same nonce with more than k mines, since the draws before it are the same.
fn first_rejection(rounds: &RoundHasher, nonce: u64) -> Option<Hit> {
    let mut first = None;
    let all_mines = MineCount::new(24).ok()?;
    let words = WordStream::new(&rounds.signature(nonce));
    let _ = place_mines_observed(words, all_mines, |r| {
        first.get_or_insert(Hit { nonce, draw: r.draw, available: r.available });
    });
    first
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let rounds = RoundHasher::new(&options.server_seed, &options.client_seed);
    let next_chunk = AtomicU64::new(options.start);
    let done = AtomicBool::new(false);
    let hits: Mutex<Vec<Hit>> = Mutex::new(Vec::new());
    let started = Instant::now();
    let enough =
        |hits: &[Hit]| hits.iter().filter(|h| h.draw == 0).count() >= options.first_draw && hits.len() >= options.total;
    let workers = thread::available_parallelism().map_or(1, |n| n.get());
    // Chunks are handed out in order; the search stops only after every chunk below the one that
    // satisfied it is finished, so the result is the same on any number of cores.
    let finished_below = Mutex::new(Vec::<u64>::new());
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let from = next_chunk.fetch_add(CHUNK, Ordering::Relaxed);
                    let found: Vec<Hit> = (from..from.saturating_add(CHUNK))
                        .filter_map(|nonce| first_rejection(&rounds, nonce))
                        .collect();
                    for hit in &found {
                        // Shown as found, so that an interrupted search still yields its rounds.
                        eprintln!(
                            "found nonce {} (first rejected draw {}, P = {})",
                            hit.nonce, hit.draw, hit.available
                        );
                    }
                    let mut all = hits.lock().unwrap_or_else(|e| e.into_inner());
                    all.extend(found);
                    let mut finished = finished_below.lock().unwrap_or_else(|e| e.into_inner());
                    finished.push(from);
                    finished.sort_unstable();
                    // The nonces below `contiguous` are all searched.
                    let mut contiguous = options.start;
                    for &chunk in finished.iter() {
                        if chunk == contiguous {
                            contiguous += CHUNK;
                        }
                    }
                    let settled: Vec<Hit> = all.iter().copied().filter(|h| h.nonce < contiguous).collect();
                    eprintln!(
                        "searched {:>12} nonces in {:>6.1} s: {} rejected rounds, {} at the first draw",
                        contiguous - options.start,
                        started.elapsed().as_secs_f64(),
                        settled.len(),
                        settled.iter().filter(|h| h.draw == 0).count()
                    );
                    if enough(&settled) {
                        done.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let mut found = hits.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort_by_key(|h| h.nonce);
    // Keep the shortest prefix that satisfies the request, so the output does not depend on timing.
    let mut keep = 0;
    while keep < found.len() && !enough(&found[..keep]) {
        keep += 1;
    }
    found.truncate(keep);
    let searched_to = found.last().map_or(options.start, |h| h.nonce);
    let output = serde_json::json!({
        "comment": "Rounds in which a mine draw is rejected, found by `cargo run --release -p rejection-search`. \
                    vectors/generate.js turns each into vectors with the reference JavaScript.",
        "server_seed": options.server_seed,
        "client_seed": options.client_seed,
        "searched": { "from": options.start, "to": searched_to },
        "rounds": found.iter().map(|h| serde_json::json!({
            "nonce": h.nonce,
            "first_rejected_draw": h.draw,
            "available": h.available,
        })).collect::<Vec<_>>(),
    });
    println!("{}", serde_json::to_string_pretty(&output).unwrap_or_default());
    eprintln!("done in {:.1} s", started.elapsed().as_secs_f64());
    ExitCode::SUCCESS
}
