//! The Rust side of scripts/bench-c.sh: the same calls as bench/c_api.c, straight into the core.
//! Prints `<case> <ns per call>` lines; the script runs both programs in turns and compares.
//! Run through the script (cargo build --release -p fairmines-c --example bench-core).
use std::hint::black_box;
use std::time::Instant;

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
const CALLS: u64 = 100_000;
const BATCH: usize = 200_000;

/// Best of five runs of `n` calls, in nanoseconds per call.
fn per_call(n: u64, mut f: impl FnMut(u64)) -> f64 {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            for i in 0..n {
                f(i);
            }
            start.elapsed().as_nanos() as f64 / n as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let r = per_call(CALLS, |_| {
        black_box(fairmines::commitment(black_box(SERVER)));
    });
    println!("commitment {r:.1}");
    for mines in [1, 3, 24] {
        let r = per_call(CALLS, |i| {
            black_box(fairmines::mine_positions(black_box(SERVER), black_box(CLIENT), i, mines).ok());
        });
        println!("mine_positions/{mines} {r:.1}");
    }
    let mines = fairmines::MineCount::new(3).unwrap();
    let mut out = vec![0u8; BATCH * 3];
    let r = per_call(1, |_| {
        let nonces = fairmines::Nonces::Range { start: 0, count: BATCH };
        fairmines::mine_positions_batch(SERVER, CLIENT, nonces, mines, &mut out).unwrap();
    }) / BATCH as f64;
    println!("batch/3 {r:.1}");
}
