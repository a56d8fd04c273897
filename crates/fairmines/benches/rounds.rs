//! Per-round cost of the core, beside the Keccak bound: the cost of the permutations a round needs
//! (two, or three when `server:client:nonce` is 136 bytes or longer), measured in the same run.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fairmines::{MineCount, Nonces, RoundHasher, mine_positions, mine_positions_batch};
use std::hint::black_box;

const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
const SHORT_CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

fn rounds(c: &mut Criterion) {
    let long_client = "c".repeat(100); // pushes the signature input past one 136-byte block
    let mut group = c.benchmark_group("round");
    group.throughput(Throughput::Elements(1));
    for (label, client) in [("short", SHORT_CLIENT), ("long", long_client.as_str())] {
        for mines in [1u32, 3, 24] {
            let id = BenchmarkId::new(format!("mine_positions/{label}"), mines);
            let mut nonce = 0u64;
            group.bench_function(id, |b| {
                b.iter(|| {
                    nonce += 1;
                    mine_positions(black_box(SERVER), black_box(client), nonce, mines)
                })
            });
        }
    }
    let mut state = [0u64; 25];
    group.bench_function("keccak_f1600 x2 (bound, short)", |b| {
        b.iter(|| {
            keccak::f1600(black_box(&mut state));
            keccak::f1600(black_box(&mut state));
        })
    });
    group.bench_function("keccak_f1600 x3 (bound, long)", |b| {
        b.iter(|| {
            keccak::f1600(black_box(&mut state));
            keccak::f1600(black_box(&mut state));
            keccak::f1600(black_box(&mut state));
        })
    });
    group.finish();

    let mut group = c.benchmark_group("batch");
    let count = 100_000;
    group.throughput(Throughput::Elements(count as u64));
    group.sample_size(10);
    let mines = MineCount::new(3).unwrap();
    let mut out = vec![0u8; count * 3];
    group.bench_function("mine_positions_batch/all cores/3", |b| {
        b.iter(|| mine_positions_batch(SERVER, SHORT_CLIENT, Nonces::Range { start: 0, count }, mines, &mut out))
    });
    let hasher = RoundHasher::new(SERVER, SHORT_CLIENT);
    group.bench_function("RoundHasher::placement/one thread/3", |b| {
        b.iter(|| (0..count as u64).map(|n| hasher.placement(n, mines).mines() as u64).sum::<u64>())
    });
    group.finish();
}

criterion_group!(benches, rounds);
criterion_main!(benches);
