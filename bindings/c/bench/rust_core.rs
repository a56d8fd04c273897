//! The Rust side of scripts/bench-c.sh: the same calls as bench/c_api.c, straight into the core.
//! Prints `<case> <ns per call>` lines; the script runs both programs in turns and compares.
//! Environment: BENCH_CALLS, BENCH_RUNS and BENCH_ONLY as in c_api.c; the calls are made in the
//! non-inlined functions `commitment_calls` and `positions_calls` (the script counts their
//! instructions with callgrind). Run through the script (cargo build --release -p fairmines-c
//! --example bench-core).
use std::hint::black_box;
use std::time::Instant;

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
const BATCH: usize = 200_000;

fn env_or(name: &str, fallback: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(fallback)
}

fn wanted(case: &str) -> bool {
    std::env::var("BENCH_ONLY").map_or(true, |only| only.is_empty() || only == case)
}

#[inline(never)]
fn commitment_calls(calls: u64) {
    for _ in 0..calls {
        black_box(fairmines::commitment(black_box(SERVER)));
    }
}

#[inline(never)]
fn positions_calls(mines: u32, calls: u64) {
    for i in 0..calls {
        black_box(fairmines::mine_positions(black_box(SERVER), black_box(CLIENT), i, black_box(mines)).ok());
    }
}

/// Best of `runs` runs of `calls` calls, in nanoseconds per call.
fn best_per_call(runs: u64, calls: u64, mut f: impl FnMut()) -> f64 {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_nanos() as f64 / calls as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let (calls, runs) = (env_or("BENCH_CALLS", 100_000), env_or("BENCH_RUNS", 5));
    if wanted("commitment") {
        println!("commitment {:.1}", best_per_call(runs, calls, || commitment_calls(calls)));
    }
    for mines in [1, 3, 24] {
        let case = format!("mine_positions/{mines}");
        if wanted(&case) {
            println!("{case} {:.1}", best_per_call(runs, calls, || positions_calls(mines, calls)));
        }
    }
    if wanted("batch/3") {
        let mines = fairmines::MineCount::new(3).unwrap();
        let mut out = vec![0u8; BATCH * 3];
        let r = best_per_call(1, BATCH as u64, || {
            let nonces = fairmines::Nonces::Range { start: 0, count: BATCH };
            fairmines::mine_positions_batch(SERVER, CLIENT, nonces, mines, &mut out).unwrap();
        });
        println!("batch/3 {r:.1}");
    }
}
