#!/usr/bin/env bash
# `make bench-dist`: the benchmarks of the packages a user installs from dist/ (the glibc 2.17 builds of
# `make dist`) against the same benchmarks of the native builds the tests use, on this machine, in one run,
# interleaved; writes docs/benchmarks-dist.md (the glibc-2.17 builds should be within 5% of the native ones).
#   - Python: python/bench/bench.py in python/.venv (the native build, as scripts/bench-python.sh) and in
#     target/bench-dist/venv, where the manylinux_2_17 wheel of dist/ is installed (pip --no-index
#     --find-links dist; numpy at python/requirements-dev.txt's pin); run from outside the source tree with
#     `python -I`, and the `fairmines` each imports is checked (its venv's).
#   - Node: node/bench/bench.js against the native addon (as scripts/bench-node.sh) and, copied into a temp
#     folder outside the source tree, against the root and linux-x64-gnu tarballs of dist/ npm-installed there
#     (offline, as scripts/test-dist-node.sh does); the addon each loads is checked.
#   - C: bindings/c/bench/c_api.c (as scripts/bench-c.sh) linked against target/release/libfairmines.a and the
#     gnu archive's lib/libfairmines.a ("c"), and against the two libfairmines.so ("c-shared"); each binary's
#     own C / Rust-core ratio (the Rust side is the same native bench-core library in all four).
# Every bench prints `BENCH {json}` lines; the two sides run back to back, alternately first, in
# BENCH_DIST_SAMPLES pairs (default 5). For each BENCH name of both sides: the median over the pairs of the
# per-pair dist / native ratio of the values (native / dist for the C rows, whose value is a time ratio,
# lower is better), so > 1 means the dist build is faster; >= 0.95 is the bar (within 5%). The values are
# themselves ratios against a reference measured in the same process (pure Python, js-sha3, node:crypto, the
# Rust core), so the machine's drift mostly cancels. Builds dist/ first (`make dist`) if a file is missing or
# older than HEAD's commit. Logs: target/bench-dist/. A pair takes about 50 s (2 cores): about 5 minutes warm
# with the default 5 pairs (the native rebuild checks included). Not in the tests.
#   scripts/bench-dist.sh                               everything
#   BENCH_DIST_ONLY="c python" scripts/bench-dist.sh    a subset (c, c-shared, python, node)
#   BENCH_DIST_SAMPLES=9 scripts/bench-dist.sh          more pairs
# The benches' own knobs pass through (BENCH_SAMPLES: c_api.c's and bench.js's samples per run; BENCH_SAMPLE_MS).
set -euo pipefail
unset BENCH_ONLY # bench.sh's suite list; c_api.c would read it as its case filter
cd "$(dirname "$0")/.."
ROOT=$PWD
SAMPLES=${BENCH_DIST_SAMPLES:-5}
ONLY=${BENCH_DIST_ONLY:-c c-shared python node}
WORK=$ROOT/target/bench-dist
LOGS=$WORK/logs
started=$SECONDS
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
fail() { echo "bench-dist: $*" >&2; exit 1; }
step() { printf '\n== bench-dist: %s\n' "$*" >&2; }
wants() { [[ " $ONLY " == *" $1 "* ]]; }
[[ $SAMPLES =~ ^[1-9][0-9]*$ ]] || fail "BENCH_DIST_SAMPLES must be a positive number"

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
wheel=dist/fairmines-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
npm_root=dist/fairmines-$version.tgz
npm_gnu=dist/fairmines-linux-x64-gnu-$version.tgz
c_gnu=dist/fairmines-$version-x86_64-linux-gnu.tar.gz

# --- dist/: `make dist` when a file is missing or older than HEAD ------------------------------------------
head_time=$(git log -1 --format=%ct)
stale=
for f in "$wheel" "$npm_root" "$npm_gnu" "$c_gnu"; do
    if [[ ! -f $f ]] || (($(stat -c %Y "$f") < head_time)); then stale=$f; fi
done
if [[ -n $stale ]]; then
    step "$stale is missing or older than HEAD: make dist"
    nice -n 10 bash scripts/dist.sh >&2
fi
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
    echo "bench-dist: note: uncommitted changes; dist/ was built from the working tree when it was made" >&2
fi

mkdir -p "$WORK"
rm -rf "$LOGS" && mkdir -p "$LOGS"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[[ "$TMP/" != "$ROOT/"* ]] || fail "the temp folder $TMP is inside the source tree"
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# --- setup: both sides of each suite, built or installed once --------------------------------------------
if wants python; then
    step "python: native (scripts/test-python.sh --setup-only, python/.venv)"
    nice -n 10 scripts/test-python.sh --setup-only >&2
    venv=$WORK/venv
    numpy_pin=$(grep -E '^numpy==' python/requirements-dev.txt)
    if [[ "$(cat "$venv/numpy-pin.txt" 2>/dev/null)" != "$numpy_pin" ]]; then
        step "python: dist venv $venv ($numpy_pin)"
        rm -rf "$venv"
        python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check "$numpy_pin"
        echo "$numpy_pin" >"$venv/numpy-pin.txt"
    fi
    step "python: the wheel of dist/ into $venv"
    (cd "$TMP" && "$venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$ROOT/dist" \
        --force-reinstall --no-deps "fairmines==$version")
    # `python -I`: neither the script's folder nor the current one is on sys.path; run from $TMP.
    for side in native dist; do
        py=$ROOT/python/.venv/bin/python
        [[ $side == dist ]] && py=$venv/bin/python
        where=$(cd "$TMP" && "$py" -I -c 'import fairmines, fairmines._native as n; print(fairmines.__file__, n.__file__)')
        prefix=$("$py" -I -c 'import sys; print(sys.prefix)')
        for file in $where; do
            [[ $file == "$prefix"/lib/python3*/site-packages/fairmines/* ]] || fail "python $side imports $file"
        done
        echo "python $side: $where" >>"$LOGS/which.txt"
    done
    cp python/bench/bench.py "$TMP/bench.py"
fi

if wants node; then
    step "node: native addon (scripts/bench-node.sh --setup-only)"
    nice -n 10 scripts/bench-node.sh --setup-only >&2
    # The dist side: the two tarballs installed offline into a folder outside the source tree, bench.js copied
    # in at node/bench/ so that its ../../vectors/reference.js is the checkout's (a symlink: its js-sha3 resolves
    # from the real path) and its require('fairmines') is the installed package.
    app=$TMP/node-app
    mkdir -p "$app/node/bench"
    printf '{ "name": "bench-dist", "version": "1.0.0", "private": true }\n' >"$app/package.json"
    (cd "$app" && npm_config_cache="$TMP/npm-cache" npm install --offline --no-audit --no-fund --loglevel=error \
        "$ROOT/$npm_root" "$ROOT/$npm_gnu" >/dev/null)
    ln -s "$ROOT/vectors" "$app/vectors"
    cp node/bench/bench.js "$app/node/bench/bench.js"
    [[ -z "$(find "$app/node_modules/fairmines" -name '*.node')" ]] || fail "an addon inside node_modules/fairmines"
    # Preloaded into each run: the addon(s) the bench process loaded, to stderr.
    cat >"$TMP/which-addon.cjs" <<'JS'
process.on('exit', () => {
  const addons = Object.keys(require.cache).filter((f) => f.endsWith('.node'));
  process.stderr.write(`addon: ${addons.join(' ')}\n`);
});
JS
fi

if wants c || wants c-shared; then
    step "c: target/release libfairmines (.a, .so) and bench-core; the gnu archive of dist/"
    nice -n 10 cargo build --quiet --locked --release -p fairmines-c --lib --example bench-core
    STATIC_LIBS="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"
    EXAMPLES=$ROOT/target/release/examples
    mkdir -p "$TMP/c-dist" "$TMP/c-native"
    tar -xzf "$c_gnu" -C "$TMP/c-dist"
    dist_lib=$(echo "$TMP"/c-dist/*/lib)
    [[ -f $dist_lib/libfairmines.a && -f $dist_lib/libfairmines.so ]] || fail "no lib/libfairmines.{a,so} in $c_gnu"
    # The native .so under its SONAME too (the loader looks for that name).
    soname=$(readelf -d target/release/libfairmines.so | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')
    cp target/release/libfairmines.so "$TMP/c-native/libfairmines.so"
    [[ -z $soname ]] || ln -sf libfairmines.so "$TMP/c-native/$soname"
    cbench() { # output library...
        local out=$1
        shift
        # shellcheck disable=SC2086
        cc -std=c11 -O2 -Iinclude -o "$out" bindings/c/bench/c_api.c "$@" $STATIC_LIBS \
            -L"$EXAMPLES" -lbench_core -Wl,-rpath,"$EXAMPLES"
    }
    cbench "$TMP/c-native.bin" target/release/libfairmines.a
    cbench "$TMP/c-dist.bin" "$dist_lib/libfairmines.a"
    cbench "$TMP/c-shared-native.bin" -L"$TMP/c-native" -lfairmines -Wl,-rpath,"$TMP/c-native"
    cbench "$TMP/c-shared-dist.bin" -L"$dist_lib" -lfairmines -Wl,-rpath,"$dist_lib"
    for side in native dist; do
        lib=$(ldd "$TMP/c-shared-$side.bin" | awk '/libfairmines/ { print $3 }')
        echo "c-shared $side: $lib" >>"$LOGS/which.txt"
        case $side in native) [[ $lib == "$TMP/c-native/"* ]] ;; dist) [[ $lib == "$dist_lib/"* ]] ;; esac ||
            fail "c-shared $side loads $lib"
    done
fi

# C samples -> BENCH lines, as scripts/bench-c.sh computes them (the median of the per-sample C / Rust ratios).
c_summary() { # suite samples-file
    python3 - "$1" "$2" <<'PY'
import json, statistics, sys
suite, samples = sys.argv[1], {}
for line in open(sys.argv[2]):
    case, c, rust = line.split()
    samples.setdefault(case, []).append((float(c), float(rust)))
for case, pairs in samples.items():
    ratio = statistics.median(c / r for c, r in pairs)
    c_ns = statistics.median(c for c, _ in pairs)
    name = f"C {case} per call / Rust core" if not case.startswith("batch") else f"C {case} per round / Rust core"
    print(f"{case:24} C {c_ns:9.1f} ns  C / Rust {ratio:.3f}")
    print("BENCH " + json.dumps({"suite": suite, "name": name, "value": round(ratio, 4), "cmp": "<=",
                                 "rounds_per_s": round(1e9 / c_ns), "samples": len(pairs)}))
PY
}

run_side() { # suite side pair
    local suite=$1 side=$2 pair=$3 log=$LOGS/$1.$2.$3 py js
    if ! case $suite in
        python)
            py=$ROOT/python/.venv/bin/python
            [[ $side == dist ]] && py=$WORK/venv/bin/python
            (cd "$TMP" && "$py" -I bench.py) ;;
        node)
            js=$ROOT/node/bench/bench.js
            [[ $side == dist ]] && js=$TMP/node-app/node/bench/bench.js
            (cd "$(dirname "$js")" && node -r "$TMP/which-addon.cjs" "$js") ;;
        c | c-shared)
            "$TMP/$suite-$side.bin" >"$log.samples" && c_summary "$suite" "$log.samples" ;;
    esac >"$log.log" 2>"$log.err"; then
        cat "$log.log" "$log.err" >&2
        fail "$suite $side failed (logs: $log.log, $log.err)"
    fi
    grep -q '^BENCH ' "$log.log" || fail "$suite $side: no BENCH line (log: $log.log)"
    grep -v '^BENCH ' "$log.log" >&2 || true
}

suites=()
for s in c c-shared python node; do wants "$s" && suites+=("$s"); done
((${#suites[@]})) || fail "BENCH_DIST_ONLY=\"$ONLY\" names no suite (c, c-shared, python, node)"
for ((pair = 1; pair <= SAMPLES; pair++)); do
    for suite in "${suites[@]}"; do
        order=(native dist)
        ((pair % 2 == 0)) && order=(dist native)
        for side in "${order[@]}"; do
            step "pair $pair/$SAMPLES: $suite $side"
            t0=$SECONDS
            run_side "$suite" "$side" "$pair"
            echo "$suite $side $pair $((SECONDS - t0))" >>"$LOGS/status"
        done
    done
done
if wants node; then
    for side in native dist; do
        want=$ROOT/node/fairmines.linux-x64-gnu.node
        [[ $side == dist ]] && want=$TMP/node-app/node_modules/fairmines-linux-x64-gnu/fairmines.linux-x64-gnu.node
        for ((pair = 1; pair <= SAMPLES; pair++)); do
            addon=$(sed -n 's/^addon: //p' "$LOGS/node.$side.$pair.err")
            [[ $addon == "$want" ]] || fail "node $side (pair $pair) loaded '$addon'"
        done
        echo "node $side: $addon" >>"$LOGS/which.txt"
    done
fi

artifacts=$(cd dist && sha256sum "${wheel#dist/}" "${npm_root#dist/}" "${npm_gnu#dist/}" "${c_gnu#dist/}")
python3 - "$LOGS" "$SAMPLES" "$load_before" "$((SECONDS - started))" "$artifacts" "${suites[*]}" <<'PY'
import json, os, statistics, sys

sys.path.insert(0, "scripts")
from bench_env import header

logs, pairs, load_before, elapsed, artifacts, suites = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6].split()

def bench(suite, side, pair):
    out = {}
    for line in open(os.path.join(logs, f"{suite}.{side}.{pair}.log")):
        if line.startswith("BENCH "):
            r = json.loads(line[len("BENCH "):])
            out[r["name"]] = r
    return out

rows = []
for suite in suites:
    runs = [(bench(suite, "native", p), bench(suite, "dist", p)) for p in range(1, pairs + 1)]
    names = [n for n in runs[0][0] if all(n in native and n in dist for native, dist in runs)]
    for name in names:
        lower_better = runs[0][0][name].get("cmp") == "<="
        native = [n[name]["value"] for n, _ in runs]
        dist = [d[name]["value"] for _, d in runs]
        ratios = [(n / d) if lower_better else (d / n) for n, d in zip(native, dist)]
        rows.append((suite, name, statistics.median(native), statistics.median(dist), statistics.median(ratios),
                     min(ratios), max(ratios), lower_better))

met = sum(1 for r in rows if r[4] >= 0.95)
out = ["# Benchmarks of the release builds (dist/) against the native builds\n",
       "Written by `make bench-dist` (`scripts/bench-dist.sh`); do not edit by hand. The bar: the glibc-2.17 "
       "builds of `make dist` must perform within 5% of the native builds (dist / native >= 0.95).\n",
       *header(load_before),
       f"- {pairs} pairs of runs (native and dist back to back, alternately first); suites: {', '.join(suites)}; "
       f"total {elapsed} s",
       "- dist artifacts (sha256):"]
out += [f"  - `{line.split()[1]}` {line.split()[0][:16]}…" for line in artifacts.splitlines()]
out.append(f"\n**{met} of {len(rows)} at dist / native >= 0.95.**\n")
out.append("| suite | bench | native | dist | dist / native (min-max) | >= 0.95 |")
out.append("|---|---|---:|---:|---:|:---:|")
for suite, name, native, dist, ratio, lo, hi, lower_better in rows:
    out.append(f"| {suite} | {name} | {native:.3f} | {dist:.3f} | {ratio:.3f} ({lo:.3f}-{hi:.3f}) | "
               f"{'yes' if ratio >= 0.95 else '**no**'} |")
out.append("""
How: `scripts/bench-dist.sh` runs each suite's benchmark program against the native build and against the
package installed from `dist/`, back to back, alternately first, in each pair. The values are those of
`make bench` (docs/benchmarks.md): for python and node the rate of fairmines over a reference in the same process
(pure-Python hashlib; js-sha3 and node:crypto), for c the C API's time per call over the Rust core's (the
same native `bench-core` library in every binary: lower is better, so that column is native / dist).
dist / native is the median over the pairs of each pair's ratio (min-max over the pairs beside it): above 1
the dist build is faster. Native: python/.venv (`pip install ./python`), node/'s addon (`npm run build`),
target/release/libfairmines.{a,so}. Dist: the manylinux_2_17 wheel in a venv of its own, the root and
linux-x64-gnu npm tarballs installed in an empty folder, the gnu C archive's lib/libfairmines.{a,so} (the .a is
linked by the host's cc against the host's glibc like the native one; the .so is linked by zig against glibc
2.17's symbols). Logs: `target/bench-dist/logs/` (which.txt: the module, addon and library each side loaded).""")
open("docs/benchmarks-dist.md", "w").write("\n".join(out) + "\n")
width = max(len(r[1]) for r in rows) if rows else 10
print(f"\n{'suite':9} {'bench':{width}} {'native':>9} {'dist':>9} {'dist/native':>11}  >=0.95")
for suite, name, native, dist, ratio, lo, hi, _ in rows:
    print(f"{suite:9} {name:{width}} {native:9.3f} {dist:9.3f} {ratio:11.3f}  {'yes' if ratio >= 0.95 else 'NO'}"
          f"  ({lo:.3f}-{hi:.3f})")
print(f"\ndocs/benchmarks-dist.md written: {met} of {len(rows)} at >= 0.95; {pairs} pairs, {elapsed} s, "
      f"load average before {load_before}")
PY
