#!/usr/bin/env bash
# Fuzzing of fairmines with cargo-fuzz (libFuzzer + AddressSanitizer) on the nightly toolchain.
#
#   scripts/fuzz.sh [SECONDS]        build, then run every target for SECONDS each (default 60),
#                                    one at a time, under nice; new inputs go to fuzz/work-corpus/
#   scripts/fuzz.sh replay           run every target once over its committed seed corpus and
#                                    regression inputs (fuzz/corpus/, fuzz/regressions/): -runs=0
#   scripts/fuzz.sh minimize [N]     rebuild the committed seed corpus from fuzz/work-corpus/ + the
#                                    current seeds: the N (40) inputs that together reach the most edges
#   FUZZ_TARGETS="core verify" ...   only these targets
#   FAIRMINES_FUZZ_STRICT=1 ...      also fail on findings already reported (fuzz/README.md)
#
# Installs what it needs: the nightly toolchain (rustup) if missing, cargo-fuzz at a pinned version.
# Build outputs go to target/fuzz (the sanitizer build cannot share the main target directory).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARGO_FUZZ_VERSION="0.13.2"
TARGET_DIR="$REPO/target/fuzz"
# Release build with debug assertions and overflow checks: an overflow in the core is a finding too.
BUILD_FLAGS=(-O --debug-assertions --target-dir "$TARGET_DIR")
# Bigger inputs than libFuzzer's default 4096 bytes add nothing here (seeds cross the 136-byte
# Keccak blocks many times below it); a cap keeps runs fast.
RUN_FLAGS=(-max_len=4096 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1)

cd "$REPO"
mode="run"
seconds=60
case "${1:-}" in
    replay) mode="replay" ;;
    minimize) mode="minimize"; max_files="${2:-40}" ;;
    ""|*[!0-9]*) [ -z "${1:-}" ] || { echo "usage: scripts/fuzz.sh [SECONDS|replay|minimize [N]]" >&2; exit 2; } ;;
    *) seconds="$1" ;;
esac

# ---------------------------------------------------------------------------------------- tools
if ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz: installing the nightly toolchain (cargo-fuzz needs -Zsanitizer)"
    rustup toolchain install nightly --profile minimal || {
        echo "fuzz: cannot install the nightly toolchain here; fuzzing needs it" >&2
        exit 1
    }
fi
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
    echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION"
    nice cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
fi

mapfile -t ALL_TARGETS < <(cargo +nightly fuzz list)
read -r -a TARGETS <<< "${FUZZ_TARGETS:-${ALL_TARGETS[*]}}"

echo "fuzz: building ${TARGETS[*]}"
start=$SECONDS
for t in "${TARGETS[@]}"; do
    nice cargo +nightly fuzz build "${BUILD_FLAGS[@]}" "$t"
done
echo "fuzz: built in $((SECONDS - start)) s"

binary() { echo "$TARGET_DIR/x86_64-unknown-linux-gnu/release/$1"; }

# Flags of one target. history: its reader runs worker threads, and LeakSanitizer reports the
# thread-local receive context of std's mpsc channels in finished threads as leaked (std, not the
# crate, which has no unsafe code); the other targets keep leak detection (c_api: lost handles).
target_flags() {
    case "$1" in
        history) echo "-detect_leaks=0" ;;
    esac
}

dirs_with_files() { # prints the given directories that exist and hold at least one file
    for d in "$@"; do
        [ -d "$d" ] && [ -n "$(ls -A "$d")" ] && echo "$d"
    done
    return 0
}

# Every function the C library exports should be called by the c_api target.
uncovered_c_functions() {
    grep -ho 'extern "C" fn [a-z_0-9]*' bindings/c/src/*.rs | awk '{print $4}' | sort -u \
        | while read -r f; do grep -q "\b$f\b" fuzz/fuzz_targets/c_api.rs || echo "$f"; done
}
missing="$(uncovered_c_functions | paste -sd ' ' -)"
if [ -n "$missing" ]; then
    echo "fuzz: WARNING: the c_api target does not call: $missing (add them to fuzz/fuzz_targets/c_api.rs)" >&2
    [ "${FAIRMINES_FUZZ_STRICT:-0}" != 1 ] || exit 1
fi

case "$mode" in
replay)
    failed=()
    for t in "${TARGETS[@]}"; do
        mapfile -t inputs < <(dirs_with_files "fuzz/corpus/$t" "fuzz/regressions/$t")
        if [ "${#inputs[@]}" = 0 ]; then
            echo "fuzz: $t has no committed inputs" >&2
            failed+=("$t")
            continue
        fi
        n=$(find "${inputs[@]}" -type f | wc -l)
        start=$SECONDS
        if "$(binary "$t")" -runs=0 "${RUN_FLAGS[@]}" $(target_flags "$t") "${inputs[@]}" > "$TARGET_DIR/replay-$t.log" 2>&1; then
            echo "fuzz: replay $t: $n inputs ok ($((SECONDS - start)) s)"
        else
            echo "fuzz: replay $t FAILED; log:" >&2
            tail -40 "$TARGET_DIR/replay-$t.log" >&2
            failed+=("$t")
        fi
    done
    if [ "${#failed[@]}" != 0 ]; then
        echo "fuzz: replay failed for ${failed[*]}" >&2
        exit 1
    fi
    echo "fuzz: replay: ${#TARGETS[@]} passed, 0 failed"
    ;;
run)
    for t in "${TARGETS[@]}"; do
        mkdir -p "fuzz/work-corpus/$t" "fuzz/artifacts/$t"
        mapfile -t seeds < <(dirs_with_files "fuzz/corpus/$t" "fuzz/regressions/$t")
        echo "fuzz: running $t for $seconds s"
        # The first directory receives new inputs; the committed ones are only read.
        status=0
        nice "$(binary "$t")" "${RUN_FLAGS[@]}" $(target_flags "$t") -max_total_time="$seconds" \
            -artifact_prefix="fuzz/artifacts/$t/" "fuzz/work-corpus/$t" "${seeds[@]}" \
            > "$TARGET_DIR/run-$t.log" 2>&1 || status=$?
        grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^==[0-9]+==|panicked at|^stat::(number_of_executed_units|new_units_added)' \
            "$TARGET_DIR/run-$t.log" || true
        if [ "$status" != 0 ]; then
            echo "fuzz: $t found a failure; see fuzz/artifacts/$t/ and $TARGET_DIR/run-$t.log" >&2
            exit 1
        fi
    done
    ;;
minimize)
    for t in "${TARGETS[@]}"; do
        mapfile -t sources < <(dirs_with_files "fuzz/work-corpus/$t" "fuzz/corpus/$t")
        [ "${#sources[@]}" != 0 ] || { echo "fuzz: $t has no inputs to minimise"; continue; }
        scratch="$(mktemp -d)"
        mkdir "$scratch/cover" "$scratch/chosen"
        # First the fewest inputs that reach every edge any input reaches (edges only: no hit counters).
        "$(binary "$t")" -set_cover_merge=1 -use_counters=0 -use_value_profile=0 "${RUN_FLAGS[@]}" \
            $(target_flags "$t") "$scratch/cover" "${sources[@]}" > "$TARGET_DIR/minimize-$t.log" 2>&1
        # Then, if they are more than N, the edges of each one alone (a one-file merge records them all),
        # and a greedy pick: the input that adds the most edges not yet reached, N times.
        for f in "$scratch/cover"/*; do
            mkdir -p "$scratch/empty" "$scratch/one-input"
            cp "$f" "$scratch/one-input/"
            "$(binary "$t")" -merge=1 -merge_control_file="$scratch/one" "${RUN_FLAGS[@]}" $(target_flags "$t") \
                "$scratch/empty" "$scratch/one-input" > /dev/null 2>&1 || true
            printf '%s' "$(basename "$f")" >> "$scratch/edges"
            awk '$1 == "COV" { for (i = 3; i <= NF; i++) printf " %s", $i }' "$scratch/one" >> "$scratch/edges"
            echo >> "$scratch/edges"
            rm -rf "$scratch/empty" "$scratch/one" "$scratch/one-input"
        done
        python3 - "$scratch/edges" "$scratch/cover" "$scratch/chosen" "$max_files" <<'PY'
import shutil, sys
edges_file, cover, chosen_dir, cap = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cov = {}
for line in open(edges_file):
    name, *pcs = line.split()
    cov[name] = set(pcs)
every = set().union(*cov.values()) if cov else set()
reached, chosen = set(), []
while len(chosen) < cap and cov:
    best = max(sorted(cov), key=lambda f: len(cov[f] - reached))
    if not cov[best] - reached:
        break
    reached |= cov.pop(best)
    chosen.append(best)
for name in chosen:
    shutil.copy(f"{cover}/{name}", f"{chosen_dir}/{name}")
print(f"  {len(chosen)} inputs reach {len(reached)} of the {len(every)} edges of the set cover ({len(chosen) + len(cov)} inputs)")
PY
        rm -rf "fuzz/corpus/$t"
        mkdir -p "fuzz/corpus/$t"
        cp "$scratch/chosen"/* "fuzz/corpus/$t/"
        rm -rf "$scratch"
        echo "fuzz: $t: $(find "fuzz/corpus/$t" -type f | wc -l) inputs, $(du -sh "fuzz/corpus/$t" | cut -f1)"
    done
    ;;
esac
