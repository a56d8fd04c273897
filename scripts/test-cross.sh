#!/usr/bin/env bash
# The cross-language test: rounds played through the Node package, verified by the Python package and
# by the C library (tests/cross-language/cross_language.py); rounds in play started in Python and resumed
# from the stored state by Node and by C, each step a new process (tests/cross-language/resume_across.py);
# then the WebAssembly package: records from Node and Python verified by it, and records it writes verified
# by Node, Python and C (wasm/test/cross.mjs). Builds whichever of the four is missing, the same way their own test scripts
# do; in `make test` they are already built.
set -euo pipefail
cd "$(dirname "$0")/.."
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# Python: the package in python/.venv.
if ! python/.venv/bin/python -c 'import fairmines' 2>/dev/null; then
    bash scripts/test-python.sh --setup-only
fi
# Node: the addon next to node/index.js.
if ! compgen -G 'node/fairmines.*.node' >/dev/null; then
    (cd node && npm ci --no-audit --no-fund && npm run build --silent)
fi
# WebAssembly: the module next to wasm/index.js.
if [[ ! -f wasm/fairmines_wasm_bg.wasm ]]; then
    bash wasm/build.sh
fi
# C: the library installed into a scratch prefix, the example built against it with pkg-config.
bash scripts/install-c.sh "$TMP/c" >/dev/null 2>&1
export PKG_CONFIG_PATH="$TMP/c/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -O2 -o "$TMP/verify_round" bindings/c/examples/verify_round.c \
    $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$TMP/c/lib"
# shellcheck disable=SC2046
cc -std=c11 -O2 -Wall -Wextra -Werror -o "$TMP/resume_round" tests/cross-language/resume_round.c \
    $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$TMP/c/lib"

python/.venv/bin/python tests/cross-language/cross_language.py "$TMP/verify_round"
python/.venv/bin/python tests/cross-language/resume_across.py "$TMP/resume_round" "$TMP/verify_round"
node wasm/test/cross.mjs python/.venv/bin/python "$TMP/verify_round"
