#!/usr/bin/env bash
# Across languages: Node's rounds verified by Python and C, Python's resumed by Node and C (tests/cross-language/), the WASM package's
# records both ways (wasm/test/cross.mjs). Builds whichever package is missing, as its own test script does.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scratch
python/.venv/bin/python -c 'import fairmines' 2>/dev/null || bash scripts/test-python.sh --setup-only
compgen -G 'node/fairmines.*.node' >/dev/null || (cd node && npm ci --no-audit --no-fund && npm run build --silent)
[[ -f wasm/fairmines_wasm_bg.wasm ]] || bash wasm/build.sh
# C: installed into a scratch prefix, the programs built against it with pkg-config.
bash scripts/install-c.sh "$TMP/c" >/dev/null 2>&1
export PKG_CONFIG_PATH="$TMP/c/lib/pkgconfig"
for program in bindings/c/examples/verify_round tests/cross-language/resume_round; do
    # shellcheck disable=SC2046
    cc -std=c11 -O2 -Wall -Wextra -Werror -o "$TMP/${program##*/}" "$program.c" $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$TMP/c/lib"
done
python/.venv/bin/python tests/cross-language/cross_language.py "$TMP/verify_round"
python/.venv/bin/python tests/cross-language/resume_across.py "$TMP/resume_round" "$TMP/verify_round"
node wasm/test/cross.mjs python/.venv/bin/python "$TMP/verify_round"
