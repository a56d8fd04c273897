#!/usr/bin/env bash
# fuzz.sh [SECONDS (60) | replay | minimize [N (40)]]: cargo-fuzz (nightly, pinned) on every target, or FUZZ_TARGETS (fuzz/README.md).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
TARGET_DIR=$ROOT/target/fuzz   # the sanitizer build cannot share the main target directory
mode=${1:-60} max_files=${2:-40}
[[ $mode == replay || $mode == minimize || $mode =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS|replay|minimize [N]]" >&2; exit 2; }
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal || fail "fuzzing needs the nightly toolchain"
[[ $(cargo fuzz --version 2>/dev/null | awk '{print $2}') == 0.13.2 ]] || nice cargo install cargo-fuzz --locked --version 0.13.2
mapfile -t ALL < <(cargo +nightly fuzz list)
read -r -a TARGETS <<<"${FUZZ_TARGETS:-${ALL[*]}}"
# Release with debug assertions and overflow checks (an overflow is a finding); inputs capped at 4096 bytes.
for t in "${TARGETS[@]}"; do nice cargo +nightly fuzz build -O --debug-assertions --target-dir "$TARGET_DIR" "$t"; done
fuzz() { # target args...; history's reader runs threads, and LeakSanitizer takes std's channel context in finished threads for a leak
    ${nice:-} "$TARGET_DIR/x86_64-unknown-linux-gnu/release/$1" -max_len=4096 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
        $([[ $1 == history ]] && echo -detect_leaks=0) "${@:2}"
}
# The non-empty folders among fuzz/DIR/TARGET for each DIR.
inputs() { local d; for d in "${@:2}"; do [[ -n $(ls -A "fuzz/$d/$1" 2>/dev/null) ]] && echo "fuzz/$d/$1"; done; return 0; }
# Every function the C library exports should be called by the c_api target.
missing=$(grep -ho 'extern "C" fn [a-z_0-9]*' bindings/c/src/*.rs | awk '{print $4}' | sort -u |
    while read -r f; do grep -q "\b$f\b" fuzz/fuzz_targets/c_api.rs || echo "$f"; done | paste -sd ' ' -)
if [[ -n $missing ]]; then
    echo "fuzz: WARNING: the c_api target does not call: $missing (add them to fuzz/fuzz_targets/c_api.rs)" >&2
    [[ ${FAIRMINES_FUZZ_STRICT:-0} != 1 ]] || exit 1   # strict: also fail on findings already reported
fi

failed=()
for t in "${TARGETS[@]}"; do
    mapfile -t dirs < <(if [[ $mode == minimize ]]; then inputs "$t" work-corpus corpus; else inputs "$t" corpus regressions; fi)
    case $mode in
    replay) # every committed input once
        if ((${#dirs[@]} == 0)); then
            echo "fuzz: $t has no committed inputs" >&2 && failed+=("$t")
        elif fuzz "$t" -runs=0 "${dirs[@]}" >"$TARGET_DIR/replay-$t.log" 2>&1; then
            echo "fuzz: replay $t: $(find "${dirs[@]}" -type f | wc -l) inputs ok"
        else
            echo "fuzz: replay $t FAILED; log:" >&2 && tail -40 "$TARGET_DIR/replay-$t.log" >&2 && failed+=("$t")
        fi ;;
    minimize) # the seed corpus again: the N inputs of work-corpus + corpus that together reach the most edges
        ((${#dirs[@]})) || { echo "fuzz: $t has no inputs to minimise"; continue; }
        scratch
        mkdir "$TMP/cover" "$TMP/chosen"
        # The fewest inputs reaching every edge (no hit counters), then each one's edges alone (a one-file merge).
        fuzz "$t" -set_cover_merge=1 -use_counters=0 -use_value_profile=0 "$TMP/cover" "${dirs[@]}" >"$TARGET_DIR/minimize-$t.log" 2>&1
        for f in "$TMP/cover"/*; do
            mkdir -p "$TMP/empty" "$TMP/one-input" && cp "$f" "$TMP/one-input/"
            fuzz "$t" -merge=1 -merge_control_file="$TMP/one" "$TMP/empty" "$TMP/one-input" >/dev/null 2>&1 || true
            echo "$(basename "$f") $(awk '$1 == "COV" { for (i = 3; i <= NF; i++) printf " %s", $i }' "$TMP/one")" >>"$TMP/edges"
            rm -rf "$TMP/empty" "$TMP/one" "$TMP/one-input"
        done
        # A greedy pick: the input that adds the most edges not yet reached, N times.
        python3 - "$TMP/edges" "$TMP/cover" "$TMP/chosen" "$max_files" <<'PY'
import shutil, sys
edges, cover, chosen_dir, cap = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cov = {name: set(pcs) for name, *pcs in map(str.split, open(edges))}
every, reached, chosen = set().union(*cov.values()), set(), []
while len(chosen) < cap and cov and cov[(best := max(sorted(cov), key=lambda f: len(cov[f] - reached)))] - reached:
    reached |= cov.pop(best)
    chosen.append(best)
    shutil.copy(f"{cover}/{best}", f"{chosen_dir}/{best}")
print(f"  {len(chosen)} inputs reach {len(reached)} of the {len(every)} edges of the set cover ({len(chosen) + len(cov)} inputs)")
PY
        rm -rf "fuzz/corpus/$t" && mkdir -p "fuzz/corpus/$t" && cp "$TMP/chosen"/* "fuzz/corpus/$t/"
        rm -rf "$TMP"
        echo "fuzz: $t: $(find "fuzz/corpus/$t" -type f | wc -l) inputs, $(du -sh "fuzz/corpus/$t" | cut -f1)" ;;
    *) # SECONDS: new inputs go to fuzz/work-corpus/; the committed ones are only read
        mkdir -p "fuzz/work-corpus/$t" "fuzz/artifacts/$t"
        status=0
        nice=nice fuzz "$t" -max_total_time="$mode" \
            -artifact_prefix="fuzz/artifacts/$t/" "fuzz/work-corpus/$t" "${dirs[@]}" >"$TARGET_DIR/run-$t.log" 2>&1 || status=$?
        grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^==[0-9]+==|panicked at|^stat::(number_of_executed_units|new_units_added)' "$TARGET_DIR/run-$t.log" || true
        ((status == 0)) || fail "$t found a failure; see fuzz/artifacts/$t/ and $TARGET_DIR/run-$t.log" ;;
    esac
done
((${#failed[@]} == 0)) || fail "replay failed for ${failed[*]}"
[[ $mode != replay ]] || echo "fuzz: replay: ${#TARGETS[@]} passed, 0 failed"
