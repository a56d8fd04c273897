#!/usr/bin/env bash
# The Node addon against js-sha3 and node:crypto (node/bench/bench.js; BENCH_SAMPLES, BENCH_SAMPLE_MS, BENCH_MINES): BENCH lines for
# scripts/bench.sh. --setup-only: the build only (scripts/bench-dist.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
for dir in vectors node; do
    [[ -f $dir/node_modules/.package-lock.json && ! $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]] ||
        (cd "$dir" && npm ci --no-audit --no-fund) >&2
done
# Built beside, then only the addon put next to the committed index.js: a benchmark never rewrites generated files.
out=target/fairmines-node-bench
rm -rf "$out" && mkdir -p "$out"
(cd node && npm run build --silent -- --output-dir "../$out") >&2
cp "$out"/fairmines.*.node node/
[[ ${1:-} == --setup-only ]] || node node/bench/bench.js
