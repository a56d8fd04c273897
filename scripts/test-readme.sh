#!/usr/bin/env bash
# README.md's and docs/install.md's blocks run as written (readme_examples.py), docs/vocabulary.md's names looked up (tests/docs); builds what they use.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
python/.venv/bin/python -c 'import fairmines' 2>/dev/null || bash scripts/test-python.sh --setup-only
compgen -G 'node/fairmines.*.node' >/dev/null || (cd node && npm ci --no-audit --no-fund && npm run build --silent)
cargo build --quiet --locked --release -p fairmines-c
bindings/uniffi/generate.sh   # the Kotlin, Swift and Ruby names of docs/vocabulary.md are looked up there
python3 scripts/readme_examples.py README.md
python3 scripts/readme_examples.py docs/install.md
python/.venv/bin/python -m pytest -q tests/docs
