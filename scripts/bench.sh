#!/usr/bin/env bash
# `make bench`: every benchmark (the core's criterion bench, C, Python, the JVM against Python, Node, WASM, web, history, server), their `BENCH {json}` lines
# collected into docs/benchmarks.md with the machine, commit and targets; logs in target/bench-logs/. BENCH_ONLY="rust c ..."
# runs a subset; with BENCH_KEEP=1 the other suites' results of the last run (their logs) stay in the report. Ratios are
# measured within one program's run, so they hold on a busy machine better than rounds/s do.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
LOGS=$ROOT/target/bench-logs
mkdir -p "$LOGS"
SUITES="rust c python jvm node wasm web history server"
ONLY=${BENCH_ONLY:-$SUITES}
unset BENCH_ONLY   # bindings/c/bench/c_api.c reads its own BENCH_ONLY (one case)
started=$SECONDS
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

run() { # suite command...
    local suite=$1
    shift
    [[ " $ONLY " == *" $suite "* ]] || return 0
    printf '\n== %s: %s\n' "$suite" "$*"
    local t0=$SECONDS
    if "$@" > >(tee "$LOGS/$suite.log") 2> >(tee "$LOGS/$suite.err" >&2); then
        echo "$suite ok $((SECONDS - t0))" >>"$LOGS/status"
    else
        echo "$suite failed $((SECONDS - t0))" >>"$LOGS/status"
        echo "bench: $suite failed (log: $LOGS/$suite.log, $LOGS/$suite.err)" >&2
    fi
}

if [[ -n ${BENCH_KEEP:-} && -f $LOGS/status ]]; then
    for suite in $ONLY; do
        rm -f "$LOGS/$suite.log" "$LOGS/$suite.err"
        sed -i "/^$suite /d" "$LOGS/status"
    done
else
    rm -f "$LOGS"/*.log "$LOGS"/*.err "$LOGS/status"
fi
# Criterion's own reports go to target/criterion; its bound ratios come out as BENCH lines.
run rust cargo bench --quiet --locked -p fairmines --bench rounds
run c bash scripts/bench-c.sh
run python bash scripts/bench-python.sh
run jvm bash scripts/bench-jvm.sh
run node bash scripts/bench-node.sh
run wasm bash scripts/bench-wasm.sh
run web bash scripts/bench-web.sh
run history bash scripts/bench-history.sh
run server bash scripts/bench-server.sh
sleep 1 # let the tee processes finish writing

python3 - "$LOGS" "$load_before" "$((SECONDS - started))" "$SUITES" "${BENCH_KEEP:+$ONLY}" <<'PY'
import json, sys

sys.path.insert(0, "scripts")
from bench_env import header, sh

logs, load_before, elapsed, suites, kept_besides = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split(), sys.argv[5].split()
lines = {suite: (state, int(seconds)) for suite, state, seconds in map(str.split, open(f"{logs}/status"))}
status = {suite: lines[suite] for suite in suites if suite in lines}
results = [json.loads(line[len("BENCH "):]) for suite in status for line in open(f"{logs}/{suite}.log") if line.startswith("BENCH ")]
with_target = sum(1 for r in results if "target" in r)
met = sum(1 for r in results if "target" in r and r["met"])
cc = sh("cc", "--version")
out = ["# Benchmarks\n", "Written by `make bench` (`scripts/bench.sh`); do not edit by hand.\n",
       *header(load_before, f"; {cc.splitlines()[0] if cc != '?' else 'cc ?'}"),
       "- suites: " + ", ".join(f"{s} {st} ({sec} s)" for s, (st, sec) in status.items()) + f"; total {elapsed} s\n",
       *([f"- {', '.join(s for s in status if s not in kept_besides)}: from the run before, whose logs were kept (BENCH_KEEP); "
          f"{', '.join(s for s in status if s in kept_besides)} run now\n"] if kept_besides else []),
       f"**{met} of {with_target} targets met.**\n", "| measure | value | target | met | rounds/s |", "|---|---:|---:|:---:|---:|"]
for r in results:
    if r.get("cmp") == "info":
        out.append(f"| {r['name']} | {r['value']:.1f}{r.get('unit', '')} |  |  |  |")
        continue
    target, verdict = (f"{r.get('cmp', '>=')} {r['target']}", "yes" if r["met"] else "**no**") if "target" in r else ("", "")
    value, rate = r["value"], f"{r['rounds_per_s']:,.0f}" if r.get("rounds_per_s") else ""
    if r["suite"] == "rust" and "Keccak" in r["name"]:
        shown, target = f"{value:.1%}", f">= {r['target']:.0%}" if "target" in r else target
    else:
        unit = r.get("unit", "x" if r.get("cmp", ">=") == ">=" and r["suite"] != "rust" else "")
        shown = f"{value:.3f}" if "C " in r["name"] else f"{value:.3g}{unit}"
    out.append(f"| {r['name']} | {shown} | {target} | {verdict} | {rate} |")
out.append("""
How each is measured (each script's header says more); ratios are medians of paired samples in one process, so the
machine's drift cancels:
- **core vs Keccak bound**: `cargo bench -p fairmines --bench rounds`: `mine_positions` time against as many rounds'
  worth of `keccak::f1600` (2 permutations a round, 3 from 136 bytes of `server:client:nonce`; "long" is a 100-byte
  client seed): 100% = nothing but permutations. **batch speed-up**: `mine_positions_batch` over 100,000 nonces on
  all cores against one thread. **4 rounds in step** (no target): `f1600_x4` (AVX2 when present) against one lane.
- **C**: `scripts/bench-c.sh`, the C API from C against the same calls straight to the Rust core in one process, 300
  samples of 2,000 calls per side (thread CPU time, order swapped); "instructions" rows count them with callgrind.
- **JVM**: `scripts/bench-jvm.sh`, the Kotlin binding (UniFFI over JNA, patched by `bindings/uniffi/patch_kotlin.py`)
  per call against the Python wheel's same call, in one run: 21 samples of 20,000 calls a side, each timed back to
  back with a Python process driven from the JVM (release builds of both libraries).
- **Python** (`scripts/bench-python.sh`, against pure-Python hashlib), **Node** (`scripts/bench-node.sh`, against
  js-sha3 and `node:crypto`), **WASM** (`scripts/bench-wasm.sh`, against js-sha3 in Node; the .wasm's size raw and
  gzipped, KiB) and **web** (`scripts/bench-web.sh`, in Chromium; the page worker's history rows/s against
  `fairmines verify-history --threads 1` on 200,000 rows): medians over 21 samples.
- **history**: `scripts/bench-history.sh`, `fairmines verify-history` on 1,000,000-row histories (JSON Lines, CSV),
  9 interleaved samples: against `fairmines audit` on the same rounds (3 mines; mine counts 1..24 as 24 audits), one
  thread against every core, and against `python/bench/history_loop.py` (one core, 200,000 rows). Peak RSS from
  `wait4`; `make history-memory` shows it on 10,000,000 rows.
- **server**: `scripts/bench-server.sh` (`server/bench/bench.js`), on one embedded PostgreSQL, one service process
  at a time, one after another under the same load: fairmines-server, the floor of its stack (`server/bench/floor.js`:
  Fastify + node-postgres, each request one autocommit UPDATE of one row) and a hand-written game service
  (`server/bench/handwritten.js`: each move BEGIN, SELECT … FOR UPDATE, the retry look-up, UPDATE, INSERT, COMMIT with
  parameters, mines from `node:crypto`, seeds in the clear). Players at 16 and 128 connections from the benchmark's
  process (a round of 3 mines, reveals until a mine or three safe picks, a cash-out; each request is a move), moves/s
  and p50/p99 of each, and the ratios; `pgbench`'s one-row UPDATE transactions on the same PostgreSQL are shown for
  information. The addon's share is its calls' time against the service's CPU time (from `/metrics`). All of it
  shares the machine's cores: a row per service and connection count gives its moves/s, p50/p99, its CPU time per
  move split between service, PostgreSQL and load generator, and the WAL bytes per move.

Logs of the last run: `target/bench-logs/`; criterion's reports: `target/criterion/`.""")
open("docs/benchmarks.md", "w").write("\n".join(out) + "\n")
print("\n".join(out[:12]))
print(f"\ndocs/benchmarks.md written: {met} of {with_target} targets met")
sys.exit(any(state != "ok" for state, _ in status.values()))
PY
