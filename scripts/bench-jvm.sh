#!/usr/bin/env bash
# The Kotlin/JVM binding's per-call time against the Python wheel's (minePositions, commitment), paired samples in one run
# (bindings/uniffi/tests/kotlin/.../JvmBench.kt; target within 5x of Python): BENCH lines for bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scratch
need mvn:maven java:default-jdk-headless
bash scripts/test-python.sh --setup-only >&2   # the venv and release wheel that bench-python.sh measures
cargo build --quiet --locked --release -p fairmines-uniffi   # the library the JVM loads, release as the wheel
bindings/uniffi/generate.sh >&2                                # the Kotlin binding (build folder)
mvn -B -ntp -q -f bindings/uniffi/tests/kotlin/pom.xml test -Dtest=JvmBench -Dsurefire.failIfNoSpecifiedTests=false \
    -Dfairmines.lib.dir="$ROOT/target/release" -Dfairmines.generated.dir="$ROOT/target/uniffi-generated" \
    -Dfairmines.bench.python="$ROOT/python/.venv/bin/python" -Dfairmines.bench.out="$TMP/bench" >&2
cat "$TMP/bench"
