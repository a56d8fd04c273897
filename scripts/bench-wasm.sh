#!/usr/bin/env bash
# fairmines-wasm in Node against js-sha3 (vectors/reference.js), and the .wasm's size (wasm/bench/bench.mjs): BENCH lines for scripts/bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
[[ -f vectors/node_modules/.package-lock.json && ! vectors/package-lock.json -nt vectors/node_modules/.package-lock.json ]] ||
    (cd vectors && npm ci --no-audit --no-fund --loglevel=error) >&2
bash wasm/build.sh >&2
node wasm/bench/bench.mjs
