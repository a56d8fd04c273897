#!/usr/bin/env bash
# fairmines-server under load against the floor of its stack and a hand-written game service, one after another
# on the same embedded PostgreSQL (server/bench/bench.js; BENCH_SERVER_SECONDS per run, default 10): moves/s,
# latency and CPU per move at 16 and 128 connections, the ratios, pgbench beside: BENCH lines for scripts/bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
need node:nodejs pgbench:postgresql-client
bash scripts/bench-node.sh --setup-only
[[ -f server/node_modules/.package-lock.json && ! server/package-lock.json -nt server/node_modules/.package-lock.json ]] ||
    (cd server && npm ci --no-audit --no-fund) >&2
node server/bench/bench.js "${BENCH_SERVER_SECONDS:-10}"
