#!/usr/bin/env bash
# Benchmark of the Node package (not part of the tests): rounds/s of the native addon, per call and
# in batches, against the js-sha3 reference (vectors/reference.js) and a node:crypto (OpenSSL)
# implementation, same inputs, same run. Targets: per call >= 5x js-sha3 and >= 2.5x
# node:crypto, batch >= 15x and >= 8x. BENCH_SAMPLES / BENCH_SAMPLE_MS / BENCH_MINES tune it (see
# node/bench/bench.js). Prints a table and
# `BENCH {json}` lines (collected by scripts/bench.sh).
#   scripts/bench-node.sh --setup-only   the build only (node/'s addon; used by scripts/bench-dist.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
for dir in vectors node; do
    if [[ ! -f "$dir/node_modules/.package-lock.json" || "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
        (cd "$dir" && npm ci --no-audit --no-fund) >&2
    fi
done
# Built (release) into target/, then only the addon is put beside the checked-in index.js, so a
# benchmark never rewrites the generated files (scripts/test-node.sh checks those).
out=target/fairmines-node-bench
rm -rf "$out" && mkdir -p "$out"
(cd node && npm run build --silent -- --output-dir "../$out") >&2
cp "$out"/fairmines.*.node node/
[[ ${1:-} == --setup-only ]] && exit 0
node node/bench/bench.js
