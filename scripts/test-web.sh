#!/usr/bin/env bash
# The verifier page (web/) built (make web) and tested in Debian's Chromium through playwright-core (web/test/, node:test).
#   UPDATE_SCREENSHOT=1 scripts/test-web.sh    also rewrites docs/web-verifier.png (the README's screenshot)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -x /usr/bin/chromium ]] || bash scripts/bootstrap.sh chromium
/usr/bin/chromium --version 2>/dev/null | head -1 >&2 || true
[[ -f web/node_modules/.package-lock.json && ! web/package-lock.json -nt web/node_modules/.package-lock.json ]] ||
    (cd web && npm ci --no-audit --no-fund --loglevel=error) >&2
make --no-print-directory web
cargo build --quiet --locked --release -p fairmines-cli
FAIRMINES_CLI=$PWD/target/release/fairmines node --test --test-reporter=spec web/test/
