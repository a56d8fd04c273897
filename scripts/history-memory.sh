#!/usr/bin/env bash
# Verifies 1,000,000 generated history rows and prints peak RSS and rows/s (about a minute on 2 cores):
# the evidence that `fairmines verify-history` streams in constant memory. Not part of `make test`
# (the history crate's tests run in scripts/test-rust.sh); `make history-memory` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked --release -p fairmines-history --test memory -- --ignored --nocapture
cargo build --locked --release -p fairmines-cli
big="$(mktemp -d)"
trap 'rm -rf "$big"' EXIT
target/release/fairmines simulate-history --rows 1000000 --output "$big/h.jsonl"
if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v target/release/fairmines verify-history "$big/h.jsonl" --json 2>"$big/time" | tail -n 1
    grep -E 'Maximum resident|Elapsed|User time|System time|Percent of CPU' "$big/time"
else
    start=$(date +%s.%N)
    target/release/fairmines verify-history "$big/h.jsonl" --json | tail -n 1
    echo "elapsed: $(echo "$(date +%s.%N) - $start" | bc) s (install the time package for peak RSS)"
fi
