#!/usr/bin/env bash
# The verifier page in Chromium (web/bench/bench.mjs): fairmines-wasm against js-sha3, and the page's history rows/s against
# `fairmines verify-history --threads 1` on BENCH_ROWS (200000) simulated rows: BENCH lines for scripts/bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
[[ -x /usr/bin/chromium ]] || bash scripts/bootstrap.sh chromium
for dir in vectors web; do
    [[ -f $dir/node_modules/.package-lock.json && ! $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]] ||
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >&2
done
make --no-print-directory web >&2
cargo build --quiet --locked --release -p fairmines-cli
history=target/web-bench/history-${BENCH_ROWS:-200000}.jsonl
if [[ ! -s $history ]]; then
    mkdir -p target/web-bench
    target/release/fairmines simulate-history --rows "${BENCH_ROWS:-200000}" --output "$history.tmp" && mv "$history.tmp" "$history"
fi
FAIRMINES_CLI=$PWD/target/release/fairmines node web/bench/bench.mjs "$history"
