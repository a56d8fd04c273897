#!/usr/bin/env bash
# The Node package (node/ over bindings/node): the addon built, its generated files checked, the Rust and node:test suites.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
need node:nodejs npm
(($(node -p 'process.versions.node.split(".")[0]') >= 20)) || fail "Node.js >= 20 is required, found $(node --version)"
have cargo || fail "cargo (Rust) is required"
npm_ci() { [[ -f $1/node_modules/.package-lock.json && ! $1/package-lock.json -nt $1/node_modules/.package-lock.json ]] ||
    (cd "$1" && npm ci --no-audit --no-fund); }
npm_ci vectors   # js-sha3 for the reference implementation the differential test loads
npm_ci node      # @napi-rs/cli
# Built beside, checked against the committed index.js / index.d.ts / index.mjs, then the addon put next to them.
fresh=target/fairmines-node-gen
rm -rf "$fresh" && mkdir -p "$fresh"
(cd node && npm run build --silent -- --output-dir "../$fresh")
bash scripts/check-generated.sh node "$fresh"
cp "$fresh"/fairmines.*.node node/
cargo test --quiet -p fairmines-node
cd node && npm test
