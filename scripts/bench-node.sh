#!/usr/bin/env bash
# Benchmark of the Node package (not part of the tests): rounds/s of the native addon, per call and
# in batches, against the js-sha3 reference (vectors/reference.js) and a node:crypto (OpenSSL)
# implementation, same inputs, same run. Builds the addon first. BENCH_SECONDS / BENCH_MINES tune it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
for dir in vectors node; do
    if [[ ! -f "$dir/node_modules/.package-lock.json" || "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]]; then
        (cd "$dir" && npm ci --no-audit --no-fund)
    fi
done
(cd node && npm run build --silent)
node node/bench/bench.js
