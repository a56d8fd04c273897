#!/usr/bin/env bash
# The verifier page (web/) in Chromium (`make test-web`): builds the page (`make web`: the fairmines-wasm
# package, then web/build.mjs into web/dist/) and the CLI, then runs web/test/ with node:test driving Debian's
# Chromium through playwright-core (pinned in web/package-lock.json). Installs what is missing: Chromium with
# apt-get, playwright-core with npm ci (into web/node_modules, never in git). About a minute once built.
#
#   UPDATE_SCREENSHOT=1 scripts/test-web.sh    also rewrites docs/web-verifier.png (the README's screenshot)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ! -x /usr/bin/chromium ]]; then
    echo "test-web: installing Chromium (apt-get install chromium)" >&2
    export DEBIAN_FRONTEND=noninteractive
    sudo=""
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get install -y --no-install-recommends chromium >/dev/null ||
        { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends chromium >/dev/null; }
fi
/usr/bin/chromium --version 2>/dev/null | head -1 >&2 || true

if [[ ! -f web/node_modules/.package-lock.json || web/package-lock.json -nt web/node_modules/.package-lock.json ]]; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error) >&2
fi

make --no-print-directory web
cargo build --quiet --locked --release -p fairmines-cli

export FAIRMINES_CLI=$PWD/target/release/fairmines
node --test --test-reporter=spec web/test/
