//! Four Keccak-f[1600] permutations: `keccak::f1600` four times, `f1600_x4` (the backend this machine
//! picks) and the scalar fallback `f1600_x4_scalar`. Throughput is in permutations, so criterion reports
//! the time of one permutation of each.
//!
//! `cargo bench -p fairmines-keccak --bench x4`; at the end it prints the ratio of `f1600_x4` to four
//! scalar permutations measured in the same samples.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use fairmines_keccak::{backend, f1600_x4, f1600_x4_scalar};

/// Four different, nonzero starting states.
fn states() -> [[u64; 25]; 4] {
    let mut states = [[0u64; 25]; 4];
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for lane in states.iter_mut().flatten() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *lane = x;
    }
    states
}

fn four_scalar(states: &mut [[u64; 25]; 4]) {
    for state in states {
        keccak::f1600(state);
    }
}

fn permutations(c: &mut Criterion) {
    let mut group = c.benchmark_group("keccak_f1600");
    group.throughput(Throughput::Elements(4));
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("4 x keccak::f1600", |b| {
        let mut s = states();
        b.iter(|| four_scalar(black_box(&mut s)))
    });
    group.bench_function(format!("f1600_x4 ({})", backend()), |b| {
        let mut s = states();
        b.iter(|| f1600_x4(black_box(&mut s)))
    });
    group.bench_function("f1600_x4_scalar", |b| {
        let mut s = states();
        b.iter(|| f1600_x4_scalar(black_box(&mut s)))
    });
    group.finish();
}

/// Interleaved runs of both, so that load from other processes hits both alike; the median ratio.
fn ratio() {
    const CALLS: u32 = 20_000;
    let mut ratios = Vec::new();
    let (mut scalar_ns, mut x4_ns) = (Vec::new(), Vec::new());
    let mut s = states();
    for _ in 0..31 {
        let start = Instant::now();
        for _ in 0..CALLS {
            four_scalar(black_box(&mut s));
        }
        let scalar = start.elapsed().as_nanos() as f64 / f64::from(4 * CALLS);
        let start = Instant::now();
        for _ in 0..CALLS {
            f1600_x4(black_box(&mut s));
        }
        let x4 = start.elapsed().as_nanos() as f64 / f64::from(4 * CALLS);
        ratios.push(scalar / x4);
        scalar_ns.push(scalar);
        x4_ns.push(x4);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let fastest = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "f1600_x4 ({}): {:.1} ns per permutation (fastest sample {:.1}); 4 x keccak::f1600: {:.1} ns per \
         permutation (fastest {:.1}); speed-up {:.2}x (median of 31 interleaved samples)",
        backend(),
        median(&mut x4_ns),
        fastest(&x4_ns),
        median(&mut scalar_ns),
        fastest(&scalar_ns),
        median(&mut ratios)
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    permutations(&mut c);
    c.final_summary();
    ratio();
}
