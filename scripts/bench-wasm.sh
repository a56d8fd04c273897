#!/usr/bin/env bash
# Benchmark of the WebAssembly package in Node (not part of the tests; `make bench` runs it through
# scripts/bench.sh): fairmines-wasm `minePositions` per call against the js-sha3 reference of vectors/
# (vectors/reference.js, the operator's seed-004 verifier) in the same process, target >= 3x; and the
# size of the .wasm, raw and gzipped. Prints a table and `BENCH {json}` lines (see wasm/bench/bench.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
if [[ ! -f vectors/node_modules/.package-lock.json || vectors/package-lock.json -nt vectors/node_modules/.package-lock.json ]]; then
    (cd vectors && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
bash wasm/build.sh >&2
node wasm/bench/bench.mjs
