#!/usr/bin/env bash
# The WebAssembly package `fairmines-wasm` (wasm/ over bindings/wasm) in Node: installs what it needs
# (the wasm32 target and the wasm-bindgen CLI, cached in target/; the npm devDependencies from the
# lockfile), builds the module and checks that the generated fairmines_wasm.js / index.d.ts match the
# checked-in copies, builds the CLI the history tests compare with, and runs the node:test suite: every
# vector, the error model (the same errors as the Node package where it is built), histories and audits
# equal to the CLI's --json from every kind of source, loading (import, initSync, a worker), and every
# README block (run, and type-checked with tsc --strict). Runnable from any directory; non-interactive.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if (( node_major < 20 )); then
    echo "test-wasm: Node.js >= 20 is required, found $(node --version)" >&2
    exit 1
fi

bash wasm/build.sh --check
cargo build --locked --release --quiet -p fairmines-cli
if [[ ! -f wasm/node_modules/.package-lock.json || wasm/package-lock.json -nt wasm/node_modules/.package-lock.json ]]; then
    (cd wasm && npm ci --no-audit --no-fund)
fi
(cd wasm && npm test)
