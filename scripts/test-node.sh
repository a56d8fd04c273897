#!/usr/bin/env bash
# The Node package `fairmines` (node/ over bindings/node): installs what it needs, builds the addon,
# checks that the generated index.js / index.d.ts / index.mjs match the checked-in copies, and runs the
# node:test suite (shared vectors, conversion and error mapping with the core's error kinds walked, a
# 10,000-round differential test against vectors/reference.js, the async batch off the event loop, a
# smoke of the game API with the no-rotation-in-play sequence, worker_threads, every README code block and
# examples/play-round.mjs, and a tsc --strict check of index.d.ts). The game's rules are tested in the
# core (crates/fairmines/tests). Runnable from any directory; non-interactive.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# Node.js >= 20 and npm (Debian's packages only when missing).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if (( node_major < 20 )); then
    echo "test-node: Node.js >= 20 is required, found $(node --version)" >&2
    exit 1
fi
command -v cargo >/dev/null || { echo "test-node: cargo (Rust) is required" >&2; exit 1; }

# npm packages from the committed lockfiles, only when missing or stale.
npm_ci() { # dir
    if [[ ! -f "$1/node_modules/.package-lock.json" || "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]]; then
        (cd "$1" && npm ci --no-audit --no-fund)
    fi
}
npm_ci vectors   # js-sha3 for the reference implementation the differential test loads
npm_ci node      # @napi-rs/cli

# Build into a scratch directory under target/, compare the generated files with the checked-in
# ones, then put the addon next to them.
fresh=target/fairmines-node-gen
rm -rf "$fresh" && mkdir -p "$fresh"
(cd node && npm run build --silent -- --output-dir "../$fresh")
stale=0
for f in index.js index.d.ts index.mjs; do
    if ! cmp -s "$fresh/$f" "node/$f"; then
        echo "test-node: node/$f differs from a fresh generation; run 'cd node && npm run build' and commit it:" >&2
        diff -u "node/$f" "$fresh/$f" | head -40 >&2 || true
        stale=1
    fi
done
(( stale == 0 )) || exit 1
cp "$fresh"/fairmines.*.node node/

# The binding's own Rust tests (panic boundary, error conversion), then the JavaScript suite.
cargo test --quiet -p fairmines-node
cd node && npm test
