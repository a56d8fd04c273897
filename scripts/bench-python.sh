#!/usr/bin/env bash
# Benchmark of the Python package: rounds/s of fairmines.mine_positions (per call) and
# mine_positions_batch against a pure-Python hashlib implementation of ALGORITHM.md written in
# python/bench/bench.py, same inputs, same run. Targets: >= 5x per call, >= 15x batch.
# Prints a table and `BENCH {json}` lines (collected by scripts/bench.sh). Not part of the tests.
# Extra arguments go to bench.py (--mines, --python-rounds, --call-rounds, --batch-rounds, --samples).
set -euo pipefail
cd "$(dirname "$0")/.."
# The same venv, pinned tools and release build as the tests.
scripts/test-python.sh --setup-only >&2
exec python/.venv/bin/python python/bench/bench.py "$@"
