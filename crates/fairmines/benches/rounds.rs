//! Per-round cost of the core beside the Keccak bound, the batch on all cores beside one thread, and the
//! cost of a move made after a restart (the pair read from its state) beside one placement.
//!
//! A round costs the Keccak-f[1600] permutations it needs and nothing can be faster than that on one
//! lane: one per 136-byte block of `server:client:nonce` (SHA3-256) plus one for the first 34 words of
//! the SHAKE256 stream. Each sample times a run of rounds and then a run of that many permutations
//! (`keccak::f1600`, the permutation the core itself calls), so the two are measured side by side
//! even when other work loads the machine. The ratio bound / round (1.0 = nothing but permutations)
//! is the median over the samples; so is the batch's speed-up over one thread.
//!
//! At the end the bench prints a table and one `BENCH {json}` line per result for `scripts/bench.sh`.
//! `cargo bench -p fairmines --bench rounds` (a few minutes); criterion's usual filters work.

use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use fairmines::{MineCount, Nonces, RoundHasher, Rtp, SeedPair, ServerSeed, mine_positions, mine_positions_batch};

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const SHORT_CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
/// Keccak-f[1600]'s rate for SHA3-256 and SHAKE256.
const RATE: usize = 136;
/// The speed targets: the core per round, and the batch per round (as ratios of the Keccak bound).
const CORE_TARGET: f64 = 0.90;
const BATCH_TARGET: f64 = 1.80;

/// Per-sample measurements of one benchmark: (name, ns per unit of the thing measured, ns of the
/// reference in the same sample). Criterion keeps its statistics to itself, so they are kept here too.
static SAMPLES: Mutex<Vec<(String, f64, f64)>> = Mutex::new(Vec::new());

fn record(name: &str, measured: Duration, reference: Duration, per: u64) {
    let per = per as f64;
    let sample = (name.to_owned(), measured.as_nanos() as f64 / per, reference.as_nanos() as f64 / per);
    SAMPLES.lock().unwrap().push(sample);
}

/// The permutations a round of this seed pair needs (nonces up to 20 digits: the count is for the
/// nonces the bench uses, which stay short).
fn permutations(client: &str, nonce_digits: usize) -> u32 {
    let signature_input = SERVER.len() + 1 + client.len() + 1 + nonce_digits;
    (signature_input / RATE + 1) as u32 + 1
}

fn rounds(c: &mut Criterion) {
    let long_client = "c".repeat(100); // pushes `server:client:nonce` past one 136-byte block
    let mut group = c.benchmark_group("round");
    group.throughput(Throughput::Elements(1));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    for (label, client) in [("short", SHORT_CLIENT), ("long", long_client.as_str())] {
        let perms = permutations(client, 6);
        for mines in [1u32, 3, 24] {
            let name = format!("mine_positions/{label}/{mines}");
            let mut nonce = 100_000u64; // six digits throughout
            group.bench_function(BenchmarkId::new(format!("mine_positions/{label}"), mines), |b| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        nonce += 1;
                        black_box(mine_positions(black_box(SERVER), black_box(client), nonce, mines).ok());
                    }
                    let round = start.elapsed();
                    let mut state = [0u64; 25];
                    let start = Instant::now();
                    for _ in 0..iters {
                        for _ in 0..perms {
                            keccak::f1600(black_box(&mut state));
                        }
                    }
                    record(&name, round, start.elapsed(), iters);
                    round
                })
            });
        }
    }
    // The bound on its own, for criterion's report.
    for perms in [2, 3] {
        group.bench_function(format!("keccak_f1600 x{perms} (bound)"), |b| {
            let mut state = [0u64; 25];
            b.iter(|| {
                for _ in 0..perms {
                    keccak::f1600(black_box(&mut state));
                }
            })
        });
    }
    group.finish();
}

fn batch(c: &mut Criterion) {
    let count = 100_000;
    let mines = MineCount::new(3).unwrap();
    // One batch and its one-thread reference a sample (~75 ms): the two halves of a sample are close
    // in time, so the machine's drift cancels in their ratio, and 100 of them give a steady median.
    let mut group = flat_group(c, "batch", count, 100);
    let mut out = vec![0u8; count * 3];
    let hasher = RoundHasher::new(SERVER, SHORT_CLIENT);
    // One thread doing what each of the batch's threads does: four rounds in step.
    let one_thread = |out: &mut [u8]| {
        for (quad, rows) in out.chunks_exact_mut(4 * 3).enumerate() {
            let nonces = [0, 1, 2, 3].map(|i| (4 * quad + i) as u64);
            for (row, placement) in rows.chunks_exact_mut(3).zip(hasher.placements_x4(nonces, [mines; 4])) {
                row.copy_from_slice(&placement.positions());
            }
        }
    };
    // One thread, one round at a time: what four rounds in step gain over it.
    let one_lane = |out: &mut [u8]| {
        for (nonce, row) in out.chunks_exact_mut(3).enumerate() {
            row.copy_from_slice(&hasher.placement(nonce as u64, mines).positions());
        }
    };
    group.bench_function("mine_positions_batch/all cores/3", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let nonces = Nonces::Range { start: 0, count };
                mine_positions_batch(SERVER, SHORT_CLIENT, nonces, mines, &mut out).unwrap();
            }
            let all = start.elapsed();
            let start = Instant::now();
            for _ in 0..iters {
                one_thread(&mut out);
            }
            record("batch", all, start.elapsed(), iters * count as u64);
            all
        })
    });
    group.finish();
    // Each sample here is longer (~300 ms: three runs of the rounds), so fewer of them.
    let mut group = flat_group(c, "lanes", count, 20);
    group.bench_function("one thread, 4 lanes vs 1/3", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                one_thread(&mut out);
            }
            let lanes = start.elapsed();
            let start = Instant::now();
            for _ in 0..iters {
                one_lane(&mut out);
            }
            record("lanes", lanes, start.elapsed(), iters * count as u64);
            // And beside the one-lane limit: the permutations these rounds need, one at a time
            // (`server:client:nonce` stays under 136 bytes here: 2 a round).
            let mut state = [0u64; 25];
            let start = Instant::now();
            for _ in 0..iters * 2 * count as u64 {
                keccak::f1600(black_box(&mut state));
            }
            record("lanes vs bound", lanes, start.elapsed(), iters * count as u64);
            lanes
        })
    });
    group.finish();
}

/// The operator's move after a restart, as a service that keeps no pair in memory makes every move: the pair
/// read from its stored state (one round in play with a pick), the round taken back by its nonce, a reveal,
/// the state written again. Beside it in each sample, as many placements of a round (`mine_positions`): the
/// ratio says what share of the move the placement alone is.
fn resumed_move(c: &mut Criterion) {
    let mines = MineCount::new(3).unwrap();
    let grid = mine_positions(SERVER, SHORT_CLIENT, 1, 3).unwrap();
    let safe: Vec<u8> = (1..=25).filter(|t| !grid.contains(t)).collect();
    let mut pair = SeedPair::from_parts(ServerSeed::from_hex(SERVER).unwrap(), SHORT_CLIENT, 1).unwrap();
    let mut round = pair.start_round(mines, Rtp::parse("0.99").unwrap()).unwrap();
    round.reveal(safe[0]).unwrap();
    drop(round);
    let stored = pair.to_state_json();
    let mut group = c.benchmark_group("game");
    group.throughput(Throughput::Elements(1));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("move restored from its state", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let pair = SeedPair::from_state_json(black_box(&stored)).unwrap();
                let mut round = pair.round(1).unwrap();
                black_box(round.reveal(safe[1]).unwrap());
                black_box(pair.to_state_json());
            }
            let moves = start.elapsed();
            let start = Instant::now();
            for _ in 0..iters {
                black_box(mine_positions(black_box(SERVER), SHORT_CLIENT, 1, 3).unwrap());
            }
            record("move restored from state", moves, start.elapsed(), iters);
            moves
        })
    });
    group.finish();
}

/// A group whose samples each run `rounds` rounds a fixed number of times (about 8 s in all).
fn flat_group<'a>(c: &'a mut Criterion, name: &str, rounds: usize, samples: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(rounds as u64));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(samples);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(8));
    group
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 { values[n / 2] } else { (values[n / 2 - 1] + values[n / 2]) / 2.0 }
}

/// The table for people and the `BENCH` lines for scripts/bench.sh.
fn report() {
    let samples = SAMPLES.lock().unwrap();
    // Each name once, in the order first measured (one sample run may record several names).
    let mut names: Vec<&str> = Vec::new();
    for (name, ..) in samples.iter() {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    println!("\n{:<28} {:>11} {:>11} {:>8} {:>8} target", "", "ns/round", "bound ns", "ratio", "");
    for name in names {
        let mine: Vec<&(String, f64, f64)> = samples.iter().filter(|(n, ..)| n == name).collect();
        let measured = median(mine.iter().map(|s| s.1).collect());
        let reference = median(mine.iter().map(|s| s.2).collect());
        // The median of the per-sample ratios: each sample's pair ran at the same moment.
        let ratio = median(mine.iter().map(|s| s.2 / s.1).collect());
        // Four rounds in step is a stretch with no number set for it: that row has no target.
        let (target, what, value_name) = if name == "batch" {
            let value_name = format!("batch speed-up on {} cores", cores());
            (Some(BATCH_TARGET), "all cores / one thread (2 cores: >= 1.8x)", value_name)
        } else if name == "lanes" {
            let value_name =
                format!("batch, 4 rounds in step ({}) vs one at a time, one thread", fairmines::keccak_backend());
            (None, "4 lanes / 1 lane, one thread", value_name)
        } else if name == "move restored from state" {
            let value_name = "a move restored from its state (read, round(nonce), reveal, write) vs one placement";
            (None, "one placement / move (the share of the move that is the round's placement)", value_name.to_owned())
        } else if name == "lanes vs bound" {
            let value_name = format!(
                "batch, 4 rounds in step ({}), one thread, vs the one-lane Keccak bound",
                fairmines::keccak_backend()
            );
            (None, "one-lane bound / round (over 1: past the one-lane limit)", value_name)
        } else {
            (Some(CORE_TARGET), "Keccak bound / round", format!("core {name} vs Keccak bound"))
        };
        let verdict = match target {
            Some(target) if ratio >= target => format!("met      {what} >= {target}"),
            Some(target) => format!("NOT MET  {what} >= {target}"),
            None => format!("         {what}"),
        };
        println!("{name:<28} {measured:>11.1} {reference:>11.1} {ratio:>8.3} {verdict}");
        let target_fields = match target {
            Some(target) => format!(",\"target\":{target},\"cmp\":\">=\",\"met\":{}", ratio >= target),
            None => String::new(),
        };
        // The batch's "reference" is one thread, so rounds/s is the batch's (and the 4 lanes'); a
        // round's is its own.
        println!(
            "BENCH {{\"suite\":\"rust\",\"name\":\"{value_name}\",\"value\":{ratio:.4}{target_fields},\"rounds_per_s\":{:.0},\"ns_per_round\":{measured:.1},\"reference_ns\":{reference:.1},\"samples\":{}}}",
            1e9 / measured,
            mine.len()
        );
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    rounds(&mut c);
    batch(&mut c);
    resumed_move(&mut c);
    c.final_summary();
    report();
}
