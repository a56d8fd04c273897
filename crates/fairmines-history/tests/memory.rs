//! A 1,000,000-row history verified with flat memory. Ignored by default (it takes a while on 2 cores):
//! `cargo test --release -p fairmines-history --test memory -- --ignored --nocapture`.

use std::io::Read;
use std::time::Instant;

use fairmines::{MineCount, ServerSeed};
use fairmines_history::{Options, Row, verify_history};

/// Writes a genuine history row by row as it is read: the input itself takes no memory.
struct Generated {
    rows: u64,
    next: u64,
    line: Vec<u8>,
    at: usize,
    seed: Option<ServerSeed>,
}

const PER_PAIR: u64 = 1_000;

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.line.len() {
            if self.next == self.rows {
                return Ok(0);
            }
            let (i, nonce) = (self.next, self.next % PER_PAIR);
            if nonce == 0 {
                let mut bytes = [0u8; 32];
                bytes[..8].copy_from_slice(&(i / PER_PAIR).to_le_bytes());
                self.seed = Some(ServerSeed::from_bytes(&bytes));
            }
            let seed = self.seed.as_ref().unwrap();
            let mines = MineCount::try_from(1 + i % 24).unwrap();
            let row = Row {
                server_seed: seed.reveal().to_owned(),
                commitment: seed.commitment(),
                client_seed: "memory-test".to_owned(),
                nonce,
                mines,
                positions: fairmines::placement(seed.reveal(), "memory-test", nonce, mines).positions(),
                round_id: Some(i.to_string()),
                play: None,
                wager: None,
            };
            self.line = (row.to_json_line() + "\n").into_bytes();
            self.at = 0;
            self.next += 1;
        }
        let n = buf.len().min(self.line.len() - self.at);
        buf[..n].copy_from_slice(&self.line[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Peak resident memory of this process so far, in KiB (Linux).
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn run(rows: u64) -> (u64, f64) {
    let input = Generated { rows, next: 0, line: Vec::new(), at: 0, seed: None };
    let start = Instant::now();
    let report = verify_history(input, &Options::default(), |_| {}).unwrap();
    let seconds = start.elapsed().as_secs_f64();
    assert!(report.is_ok(), "{:?}", &report.failures[..report.failures.len().min(5)]);
    assert_eq!(report.summary.ok, rows);
    assert_eq!(report.summary.seed_pairs, rows.div_ceil(PER_PAIR));
    (peak_rss_kib(), seconds)
}

#[test]
#[ignore = "1,000,000 rows: run with --ignored"]
fn a_million_rows_verify_in_flat_memory() {
    let (after_small, _) = run(100_000);
    let (after_large, seconds) = run(1_000_000);
    println!(
        "peak RSS after 100,000 rows: {after_small} KiB; after 1,000,000 more: {after_large} KiB; \
         1,000,000 rows in {seconds:.1} s ({:.0} rows/s, generating the rows in the same process)",
        1e6 / seconds
    );
    // Ten times the rows may not grow the peak by more than a few MiB (the seed pairs' entries).
    assert!(after_large < after_small + 8 * 1024, "{after_small} KiB -> {after_large} KiB");
    assert!(after_large < 64 * 1024, "{after_large} KiB");
}
