#!/usr/bin/env bash
# `make bench-dist`: the Python, Node and C benchmarks of the dist/ packages (glibc 2.17; `make dist` first when missing or older than HEAD) against the native builds, in BENCH_DIST_SAMPLES interleaved pairs (default 5; BENCH_DIST_ONLY="c c-shared python node"); writes docs/benchmarks-dist.md (the bar: dist / native >= 0.95).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
unset BENCH_ONLY # bench.sh's suite list; c_api.c would read it as its case filter
SAMPLES=${BENCH_DIST_SAMPLES:-5} ONLY=${BENCH_DIST_ONLY:-c c-shared python node} WORK=$target_dir/bench-dist LOGS=$target_dir/bench-dist/logs
started=$SECONDS load_before=$(cut -d' ' -f1-3 /proc/loadavg)
wants() { [[ " $ONLY " == *" $1 "* ]]; }
[[ $SAMPLES =~ ^[1-9][0-9]*$ ]] || fail "BENCH_DIST_SAMPLES must be a positive number"
wheel=dist/fairmines-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl npm_root=dist/fairmines-$version.tgz
npm_gnu=dist/fairmines-linux-x64-gnu-$version.tgz c_gnu=dist/fairmines-$version-x86_64-linux-gnu.tar.gz
for f in "$wheel" "$npm_root" "$npm_gnu" "$c_gnu"; do
    if [[ ! -f $f ]] || (($(stat -c %Y "$f") < $(git log -1 --format=%ct))); then
        step "$f is missing or older than HEAD: make dist"
        nice -n 10 bash scripts/dist.sh >&2
        break
    fi
done
rm -rf "$LOGS" && mkdir -p "$LOGS" && scratch
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

if wants python; then
    step "python: native (scripts/test-python.sh --setup-only), and the wheel of dist/ in $WORK/venv"
    nice -n 10 scripts/test-python.sh --setup-only >&2
    numpy_pin=$(grep -E '^numpy==' python/requirements-dev.txt)
    if [[ "$(cat "$WORK/venv/numpy-pin.txt" 2>/dev/null)" != "$numpy_pin" ]]; then
        rm -rf "$WORK/venv" && python3 -m venv "$WORK/venv"
        "$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "$numpy_pin"
        echo "$numpy_pin" >"$WORK/venv/numpy-pin.txt"
    fi
    (cd "$TMP" && "$WORK/venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$ROOT/dist" \
        --force-reinstall --no-deps "fairmines==$version")
    for py in "$ROOT/python/.venv/bin/python" "$WORK/venv/bin/python"; do
        where=$(cd "$TMP" && "$py" -I -c 'import sys, fairmines, fairmines._native as n; print(sys.prefix, fairmines.__file__, n.__file__)')
        for file in ${where#* }; do [[ $file == "${where%% *}"/lib/python3*/site-packages/fairmines/* ]] || fail "$py imports $file"; done
        echo "python: $where" >>"$LOGS/which.txt"
    done
    cp python/bench/bench.py "$TMP/bench.py"
fi
if wants node; then
    step "node: the native addon (scripts/bench-node.sh --setup-only); the tarballs of dist/ installed offline elsewhere"
    nice -n 10 scripts/bench-node.sh --setup-only >&2
    # bench.js at node/bench/ beside a link to the checkout's vectors/ (its reference.js), requiring the installed package.
    app=$TMP/node-app && mkdir -p "$app/node/bench"
    printf '{ "name": "bench-dist", "version": "1.0.0", "private": true }\n' >"$app/package.json"
    (cd "$app" && npm_config_cache="$TMP/npm-cache" npm install --offline --loglevel=error "$ROOT/$npm_root" "$ROOT/$npm_gnu" >/dev/null)
    ln -s "$ROOT/vectors" "$app/vectors" && cp node/bench/bench.js "$app/node/bench/bench.js"
    echo "process.on('exit', () => process.stderr.write('addon: ' + Object.keys(require.cache).filter((f) => f.endsWith('.node')).join(' ') + '\n'));" >"$TMP/which-addon.cjs"
fi
if wants c || wants c-shared; then
    step "c: target/release libfairmines (.a, .so) and bench-core; the gnu archive of dist/"
    nice -n 10 cargo build --quiet --locked --release -p fairmines-c --lib --example bench-core
    static_libs=$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)
    mkdir -p "$TMP/c-dist" "$TMP/c-native" && tar -xzf "$c_gnu" -C "$TMP/c-dist"
    dist_lib=$(echo "$TMP"/c-dist/*/lib)
    cp target/release/libfairmines.so "$TMP/c-native/"
    ln -sf libfairmines.so "$TMP/c-native/$(readelf -d target/release/libfairmines.so | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')"
    cbench() { # output library...
        # shellcheck disable=SC2086
        cc -std=c11 -O2 -Iinclude -o "$1" bindings/c/bench/c_api.c "${@:2}" $static_libs \
            -Ltarget/release/examples -lbench_core -Wl,-rpath,"$ROOT/target/release/examples"
    }
    cbench "$TMP/c-native.bin" target/release/libfairmines.a
    cbench "$TMP/c-dist.bin" "$dist_lib/libfairmines.a"
    cbench "$TMP/c-shared-native.bin" -L"$TMP/c-native" -lfairmines -Wl,-rpath,"$TMP/c-native"
    cbench "$TMP/c-shared-dist.bin" -L"$dist_lib" -lfairmines -Wl,-rpath,"$dist_lib"
    for side in native dist; do
        lib=$(ldd "$TMP/c-shared-$side.bin" | awk '/libfairmines/ { print $3 }')
        [[ $lib == "$TMP/c-$side/"* ]] || fail "c-shared $side loads $lib"
        echo "c-shared $side: $lib" >>"$LOGS/which.txt"
    done
fi

run_side() { # suite side pair: its BENCH lines into $LOGS/suite.side.pair.log
    local log=$LOGS/$1.$2.$3 py=$ROOT/python/.venv/bin/python js=$ROOT/node/bench/bench.js
    [[ $2 == dist ]] && py=$WORK/venv/bin/python js=$TMP/node-app/node/bench/bench.js
    if ! case $1 in
        python) (cd "$TMP" && "$py" -I bench.py) ;;
        node) (cd "$(dirname "$js")" && node -r "$TMP/which-addon.cjs" "$js") ;;
        # The C samples as BENCH lines: the median of the per-sample C / Rust core ratios (as bench-c.sh).
        c | c-shared) "$TMP/$1-$2.bin" >"$log.samples" && python3 - "$1" "$log.samples" <<'PY' ;;
import json, statistics, sys
samples = {}
for line in open(sys.argv[2]):
    case, c, rust = line.split()
    samples.setdefault(case, []).append((float(c), float(rust)))
for case, pairs in samples.items():
    c_ns = statistics.median(c for c, _ in pairs)
    name = f"C {case} per {'round' if case.startswith('batch') else 'call'} / Rust core"
    print("BENCH " + json.dumps({"suite": sys.argv[1], "name": name, "value": round(statistics.median(c / r for c, r in pairs), 4),
                                 "cmp": "<=", "rounds_per_s": round(1e9 / c_ns), "samples": len(pairs)}))
PY
    esac >"$log.log" 2>"$log.err"; then
        cat "$log.log" "$log.err" >&2
        fail "$1 $2 failed (logs: $log.log, $log.err)"
    fi
    grep -q '^BENCH ' "$log.log" || fail "$1 $2: no BENCH line (log: $log.log)"
    if [[ $1 == node ]]; then
        want=$ROOT/node/fairmines.linux-x64-gnu.node
        [[ $2 == dist ]] && want=$TMP/node-app/node_modules/fairmines-linux-x64-gnu/fairmines.linux-x64-gnu.node
        [[ $(sed -n 's/^addon: //p' "$log.err") == "$want" ]] || fail "node $2 loaded $(sed -n 's/^addon: //p' "$log.err")"
    fi
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
            run_side "$suite" "$side" "$pair"
        done
    done
done

artifacts=$(cd dist && sha256sum "${wheel#dist/}" "${npm_root#dist/}" "${npm_gnu#dist/}" "${c_gnu#dist/}")
python3 - "$LOGS" "$SAMPLES" "$load_before" "$((SECONDS - started))" "$artifacts" "${suites[*]}" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, "scripts")
from bench_env import header
logs, pairs, load_before, elapsed, artifacts, suites = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6].split()
def bench(suite, side, pair):
    lines = open(os.path.join(logs, f"{suite}.{side}.{pair}.log"))
    return {r["name"]: r for r in (json.loads(l[6:]) for l in lines if l.startswith("BENCH "))}
rows = []
for suite in suites:
    runs = [(bench(suite, "native", p), bench(suite, "dist", p)) for p in range(1, pairs + 1)]
    for name in [n for n in runs[0][0] if all(n in a and n in b for a, b in runs)]:
        lower = runs[0][0][name].get("cmp") == "<="
        native, dist = [a[name]["value"] for a, _ in runs], [b[name]["value"] for _, b in runs]
        ratios = [(n / d) if lower else (d / n) for n, d in zip(native, dist)]
        rows.append((suite, name, statistics.median(native), statistics.median(dist), statistics.median(ratios), min(ratios), max(ratios)))
met = sum(1 for r in rows if r[4] >= 0.95)
out = ["# Benchmarks of the release builds (dist/) against the native builds\n",
       "Written by `make bench-dist` (`scripts/bench-dist.sh`); do not edit by hand. The bar: the glibc-2.17 "
       "builds of `make dist` must perform within 5% of the native builds (dist / native >= 0.95).\n",
       *header(load_before),
       f"- {pairs} pairs of runs (native and dist back to back, alternately first); suites: {', '.join(suites)}; total {elapsed} s",
       "- dist artifacts (sha256):"]
out += [f"  - `{line.split()[1]}` {line.split()[0][:16]}…" for line in artifacts.splitlines()]
out += [f"\n**{met} of {len(rows)} at dist / native >= 0.95.**\n", "| suite | bench | native | dist | dist / native (min-max) | >= 0.95 |",
        "|---|---|---:|---:|---:|:---:|"]
out += [f"| {s} | {n} | {a:.3f} | {b:.3f} | {r:.3f} ({lo:.3f}-{hi:.3f}) | {'yes' if r >= 0.95 else '**no**'} |" for s, n, a, b, r, lo, hi in rows]
out.append("""
How: each suite's benchmark (the values of `make bench`, docs/benchmarks.md: rates or times against a reference in
the same process) runs against the native build (python/.venv, node/'s addon, target/release/libfairmines.{a,so})
and against the package installed from `dist/` (the manylinux_2_17 wheel, the npm tarballs, the gnu C archive),
back to back, alternately first; dist / native is the median of the pairs' ratios (native / dist for the C rows,
where lower is better): above 1 the dist build is faster. Logs: `target/bench-dist/logs/` (which.txt: what each side loaded).""")
open("docs/benchmarks-dist.md", "w").write("\n".join(out) + "\n")
for s, n, a, b, r, lo, hi in rows:
    print(f"{s:9} {n:50} {a:9.3f} {b:9.3f} {r:7.3f}  {'yes' if r >= 0.95 else 'NO'}  ({lo:.3f}-{hi:.3f})")
print(f"\ndocs/benchmarks-dist.md written: {met} of {len(rows)} at >= 0.95; {pairs} pairs, {elapsed} s, load average before {load_before}")
PY
