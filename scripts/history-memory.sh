#!/usr/bin/env bash
# The evidence that `fairmines verify-history` streams in constant memory: peak RSS and rows/s on 1,000,000 and
# 10,000,000 generated rows (JSON Lines: 334 MB and 3.3 GB, written to a temporary folder and removed; a few
# minutes on 2 cores). Not part of `make test` (the history crate's memory test runs in scripts/test-rust.sh);
# `make history-memory` runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --locked --release -p fairmines-history --test memory -- --ignored --nocapture
cargo build --locked --release -p fairmines-cli
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
big="$(mktemp -d)"
trap 'rm -rf "$big"' EXIT
for rows in 1000000 10000000; do
    target/release/fairmines simulate-history --rows "$rows" --output "$big/h.jsonl"
    echo "== $rows rows ($(stat -c %s "$big/h.jsonl") bytes)"
    /usr/bin/time -v target/release/fairmines verify-history "$big/h.jsonl" --json 2>"$big/time" | tail -n 1 | cut -c1-120
    grep -E 'Maximum resident|Elapsed|User time|System time|Percent of CPU' "$big/time"
    rm -f "$big/h.jsonl"
done
