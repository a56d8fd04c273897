#!/usr/bin/env bash
# fairmines-wasm (wasm/ over bindings/wasm) in Node: built with its drift check (wasm/build.sh --check), then the node:test suite (wasm/test/).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
need node:nodejs npm
(($(node -p 'process.versions.node.split(".")[0]') >= 20)) || fail "Node.js >= 20 is required, found $(node --version)"
bash wasm/build.sh --check
cargo build --locked --release --quiet -p fairmines-cli   # the histories are compared with its --json
[[ -f wasm/node_modules/.package-lock.json && ! wasm/package-lock.json -nt wasm/node_modules/.package-lock.json ]] ||
    (cd wasm && npm ci --no-audit --no-fund)
(cd wasm && npm test)
