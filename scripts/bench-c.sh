#!/usr/bin/env bash
# Per-call cost of the C API (libfairmines.a, called from C) against the same calls made straight to
# the Rust core: bindings/c/bench/c_api.c and bindings/c/bench/rust_core.rs. The two programs run in
# turns (BENCH_TURNS, default 3), each reporting its best of 5 runs; the best of all turns is kept.
# Target (issue 9): C per call within 5% of the Rust core. Prints a table and `BENCH {json}` lines
# (collected by scripts/bench.sh). Not part of the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
TURNS=${BENCH_TURNS:-3}
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
STATIC_LIBS="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"

cargo build --quiet --locked --release -p fairmines-c --lib --example bench-core
# shellcheck disable=SC2086
cc -std=c11 -O2 -Iinclude -o "$TMP/c_api" bindings/c/bench/c_api.c target/release/libfairmines.a $STATIC_LIBS

for ((turn = 0; turn < TURNS; turn++)); do
    target/release/examples/bench-core | sed 's/^/rust /' >>"$TMP/results"
    "$TMP/c_api" | sed 's/^/c /' >>"$TMP/results"
done

python3 - "$TMP/results" "$(nproc)" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[1]):
    side, case, ns = line.split()
    best[(side, case)] = min(float(ns), best.get((side, case), float("inf")))
cases = [case for side, case in best if side == "rust"]
print(f"{'':24} {'Rust ns':>9} {'C ns':>9} {'C / Rust':>9}")
for case in cases:
    rust, c = best[("rust", case)], best[("c", case)]
    ratio = c / rust
    per_call = not case.startswith("batch")
    print(f"{case:24} {rust:9.1f} {c:9.1f} {ratio:9.3f}  {('met' if ratio <= 1.05 else 'NOT MET') + ' (<= 1.05)' if per_call else '(batch: per round, all cores)'}")
    result = {"suite": "c", "name": f"C {case} per call / Rust core", "value": round(ratio, 4),
              "rounds_per_s": round(1e9 / c), "ns_per_round": c, "reference_ns": rust}
    if per_call:
        result.update(target=1.05, cmp="<=", met=ratio <= 1.05)
    if case.startswith("batch"):
        result["name"] = f"C {case} per round / Rust core ({sys.argv[2]} cores)"
    print("BENCH " + json.dumps(result))
PY
