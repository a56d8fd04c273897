#!/usr/bin/env bash
# Every code block of README.md and docs/install.md, run as written with its shown output compared
# (scripts/readme_examples.py); then every name of docs/vocabulary.md looked up in its language.
# Builds what the blocks use when it is missing, the way the packages' own scripts do (in `make test` they are
# already built): the Python package in python/.venv, the Node addon, the static C library.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! python/.venv/bin/python -c 'import fairmines' 2>/dev/null; then
    bash scripts/test-python.sh --setup-only
fi
if ! compgen -G 'node/fairmines.*.node' >/dev/null; then
    (cd node && npm ci --no-audit --no-fund && npm run build --silent)
fi
cargo build --quiet --locked --release -p fairmines-c
bindings/uniffi/generate.sh   # the Kotlin, Swift and Ruby names of docs/vocabulary.md are looked up there
python3 scripts/readme_examples.py README.md
python3 scripts/readme_examples.py docs/install.md
python/.venv/bin/python scripts/check_vocabulary.py
