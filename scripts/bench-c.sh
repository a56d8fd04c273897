#!/usr/bin/env bash
# The C API's per-call cost against the same calls straight to the Rust core, interleaved in one program (bindings/c/bench/c_api.c,
# medians of BENCH_SAMPLES (300) per-sample ratios; target within 5%), and instructions per call (callgrind): BENCH lines for bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scratch
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
if have valgrind; then
    for case in commitment mine_positions/1 mine_positions/3 mine_positions/24; do
        loop=${case%%/*} && loop=${loop#mine_}_loop   # commitment_loop, positions_loop
        for side in rust_core c_api; do
            LD_BIND_NOW=1 BENCH_ONLY=$case BENCH_CALLS=2000 BENCH_SAMPLES=1 BENCH_WARMUP=0 valgrind --tool=callgrind \
                --callgrind-out-file="$TMP/callgrind.out" --toggle-collect="${side}_$loop" "$TMP/bench" >/dev/null 2>&1
            echo "${side%%_*} $case $(sed -n 's/^summary: //p' "$TMP/callgrind.out")" >>"$TMP/instructions"
        done
    done
fi

python3 - "$TMP/samples" "$(nproc)" "$TMP/instructions" <<'PY'
import json, statistics, sys
samples, counts = {}, {}
for case, c, rust in map(str.split, open(sys.argv[1])):
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
for side, case, total in map(str.split, open(sys.argv[3])):
    counts[(side, case)] = int(total) / 2000
for case in [case for side, case in counts if side == "rust"]:
    rust, c = counts[("rust", case)], counts[("c", case)]
    ratio = c / rust
    print(f"{case + ' (instructions)':32} {rust:9.0f} {c:9.0f} {ratio:9.3f}  {'met' if ratio <= 1.05 else 'NOT MET'} (<= 1.05)")
    print("BENCH " + json.dumps({"suite": "c", "name": f"C {case} instructions per call / Rust core (callgrind)",
                                 "value": round(ratio, 4), "target": 1.05, "cmp": "<=", "met": ratio <= 1.05,
                                 "instructions": round(c), "reference_instructions": round(rust)}))
PY
