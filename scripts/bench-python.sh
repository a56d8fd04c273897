#!/usr/bin/env bash
# Benchmark of the Python package: rounds/s of fairmines.mine_positions (per call) and
# mine_positions_batch against the pure-Python hashlib implementation of SPEC.md
# (python/tests/spec_reference.py), same inputs, same run. Not part of the tests.
# Extra arguments go to python/bench/bench.py (--mines, --python-rounds, --call-rounds, --batch-rounds).
set -euo pipefail
cd "$(dirname "$0")/.."
# The same venv, pinned tools and release build as the tests.
scripts/test-python.sh --setup-only
exec python/.venv/bin/python python/bench/bench.py "$@"
