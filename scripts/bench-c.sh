#!/usr/bin/env bash
# Per-call cost of the C API (libfairmines.a, called from C) against the same calls made straight to
# the Rust core. One program, bindings/c/bench/c_api.c, links libfairmines.a and the core's loops
# (bindings/c/bench/rust_core.rs, the cdylib example bench-core) and times both sides interleaved:
# each sample times 2,000 calls through C, then 2,000 in Rust (the order swapped every sample; the
# thread's CPU time, so other processes' time slices stay out), and the median of the per-sample
# C / Rust ratios is kept. (This machine's speed drifts by 20-30% over seconds; separate programs in
# turns gave ratios from 0.6 to 1.6.) Target: C per call within 5% of the Rust core. Also
# counts instructions per call (callgrind, when valgrind is installed). Prints a table and
# `BENCH {json}` lines (collected by scripts/bench.sh). Not part of the tests.
# BENCH_SAMPLES (default 300) sets the samples per case.
set -euo pipefail
cd "$(dirname "$0")/.."
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
STATIC_LIBS="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"
EXAMPLES="$PWD/target/release/examples"

cargo build --quiet --locked --release -p fairmines-c --lib --example bench-core
# shellcheck disable=SC2086
cc -std=c11 -O2 -Iinclude -o "$TMP/bench" bindings/c/bench/c_api.c target/release/libfairmines.a $STATIC_LIBS \
    -L"$EXAMPLES" -lbench_core -Wl,-rpath,"$EXAMPLES"

"$TMP/bench" >"$TMP/samples"

# Instructions per call (callgrind, when valgrind is installed): deterministic, unlike the times above.
# One sample of 2,000 calls per side, counting only inside each side's loop function, by exact name.
# LD_BIND_NOW: no lazy symbol binding inside the counted loops.
: >"$TMP/instructions"
if command -v valgrind >/dev/null; then
    for case in commitment mine_positions/1 mine_positions/3 mine_positions/24; do
        loop=positions_loop
        [ "$case" = commitment ] && loop=commitment_loop
        for side in rust_core c_api; do
            LD_BIND_NOW=1 BENCH_ONLY=$case BENCH_CALLS=2000 BENCH_SAMPLES=1 BENCH_WARMUP=0 valgrind --tool=callgrind \
                --callgrind-out-file="$TMP/callgrind.out" --toggle-collect="${side}_$loop" "$TMP/bench" >/dev/null 2>&1
            echo "${side%%_*} $case $(sed -n 's/^summary: //p' "$TMP/callgrind.out")" >>"$TMP/instructions"
        done
    done
fi

python3 - "$TMP/samples" "$(nproc)" "$TMP/instructions" <<'PY'
import json, statistics, sys
samples = {}
for line in open(sys.argv[1]):
    case, c, rust = line.split()
    samples.setdefault(case, []).append((float(c), float(rust)))
print(f"{'':24} {'Rust ns':>9} {'C ns':>9} {'C / Rust':>9} {'(quartiles)':>13}  medians over {len(samples['commitment'])} samples")
for case, pairs in samples.items():
    rust, c = statistics.median(r for _, r in pairs), statistics.median(c for c, _ in pairs)
    q1, ratio, q3 = statistics.quantiles((c / r for c, r in pairs), n=4)
    per_call = not case.startswith("batch")
    verdict = ('met' if ratio <= 1.05 else 'NOT MET') + ' (<= 1.05)' if per_call else '(batch: per round, all cores)'
    print(f"{case:24} {rust:9.1f} {c:9.1f} {ratio:9.3f} {q1:6.3f}-{q3:5.3f}  {verdict}")
    result = {"suite": "c", "name": f"C {case} per call / Rust core", "value": round(ratio, 4),
              "rounds_per_s": round(1e9 / c), "ns_per_round": c, "reference_ns": rust,
              "samples": len(pairs), "ratio_quartiles": [round(q1, 4), round(q3, 4)]}
    if per_call:
        result.update(target=1.05, cmp="<=", met=ratio <= 1.05)
    else:
        result["name"] = f"C {case} per round / Rust core ({sys.argv[2]} cores)"
    print("BENCH " + json.dumps(result))
counts = {}
for line in open(sys.argv[3]):
    side, case, total = line.split()
    counts[(side, case)] = int(total) / 2000
for case in [case for side, case in counts if side == "rust"]:
    rust, c = counts[("rust", case)], counts[("c", case)]
    ratio = c / rust
    print(f"{case + ' (instructions)':32} {rust:9.0f} {c:9.0f} {ratio:9.3f}  {'met' if ratio <= 1.05 else 'NOT MET'} (<= 1.05)")
    print("BENCH " + json.dumps({"suite": "c", "name": f"C {case} instructions per call / Rust core (callgrind)",
                                 "value": round(ratio, 4), "target": 1.05, "cmp": "<=", "met": ratio <= 1.05,
                                 "instructions": round(c), "reference_instructions": round(rust)}))
PY
