#!/usr/bin/env bash
# `make history-memory`: verify-history's peak RSS and rows/s on 1,000,000 and 10,000,000 generated rows (3.3 GB, removed after).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cargo test --locked --release -p fairmines-history --test memory -- --ignored --nocapture
cargo build --locked --release -p fairmines-cli
[[ -x /usr/bin/time ]] || bash scripts/bootstrap.sh time
scratch
for rows in 1000000 10000000; do
    target/release/fairmines simulate-history --rows "$rows" --output "$TMP/h.jsonl"
    echo "== $rows rows ($(stat -c %s "$TMP/h.jsonl") bytes)"
    /usr/bin/time -v target/release/fairmines verify-history "$TMP/h.jsonl" --json 2>"$TMP/time" | tail -n 1 | cut -c1-120
    grep -E 'Maximum resident|Elapsed|User time|System time|Percent of CPU' "$TMP/time"
    rm -f "$TMP/h.jsonl"
done
