#!/usr/bin/env bash
# The Python package against pure-Python hashlib (python/bench/bench.py, its options pass through): BENCH lines for scripts/bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bash scripts/test-python.sh --setup-only >&2   # the same venv, pinned tools and release build as the tests
exec python/.venv/bin/python python/bench/bench.py "$@"
