#!/usr/bin/env bash
# Benchmark of the verifier page in Chromium (not part of the tests; `make bench` runs it through
# scripts/bench.sh): fairmines-wasm `minePositions` per call against the js-sha3 reference
# (vectors/reference.js) in the same page (target >= 3x), and history rows/s in the page's worker against
# `fairmines verify-history --threads 1` on the same file (made by `fairmines simulate-history`; BENCH_ROWS,
# default 200000). Prints a table and `BENCH {json}` lines (see web/bench/bench.mjs for the method).
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
if [[ ! -x /usr/bin/chromium ]]; then
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium >/dev/null ||
        { $sudo apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends chromium >/dev/null; }
fi
for dir in vectors web; do
    if [[ ! -f "$dir/node_modules/.package-lock.json" || "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >&2
    fi
done
make --no-print-directory web >&2
cargo build --quiet --locked --release -p fairmines-cli
rows=${BENCH_ROWS:-200000}
history=target/web-bench/history-$rows.jsonl
if [[ ! -s $history ]]; then
    mkdir -p target/web-bench
    target/release/fairmines simulate-history --rows "$rows" --output "$history.tmp" && mv "$history.tmp" "$history"
fi
FAIRMINES_CLI=$PWD/target/release/fairmines node web/bench/bench.mjs "$history"
