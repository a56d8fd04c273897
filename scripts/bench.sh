#!/usr/bin/env bash
# Every benchmark (`make bench`): the core's criterion bench (per round beside the Keccak bound, batch
# on all cores beside one thread), then the C, Python and Node benchmarks; writes docs/benchmarks.md at the
# repo root with the machine, the date, the commit, rounds/s and every ratio with its
# target. Each benchmark prints `BENCH {json}` lines; this script collects them. Logs go to
# target/bench-logs/. About 5-10 minutes on 2 cores (builds included). Not part of the tests.
#
#   scripts/bench.sh                 everything
#   BENCH_ONLY="rust c" scripts/bench.sh    a subset (rust, c, python, node, wasm, web, history); docs/benchmarks.md lists what ran
#
# Ratios are measured inside one run of one program, so they hold on a busy machine better than the
# absolute rounds/s do; still, run it on a quiet machine (the load average is recorded).
# The release builds of dist/ against these native ones: scripts/bench-dist.sh (`make bench-dist`,
# docs/benchmarks-dist.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
LOGS=$ROOT/target/bench-logs
mkdir -p "$LOGS"
ONLY=${BENCH_ONLY:-rust c python node wasm web history}
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

rm -f "$LOGS"/*.log "$LOGS"/*.err "$LOGS/status"
# Criterion's own reports go to target/criterion; its bound ratios come out as BENCH lines.
run rust cargo bench --quiet --locked -p fairmines --bench rounds
run c bash scripts/bench-c.sh
run python bash scripts/bench-python.sh
run node bash scripts/bench-node.sh
run wasm bash scripts/bench-wasm.sh
run web bash scripts/bench-web.sh
run history bash scripts/bench-history.sh
sleep 1 # let the tee processes finish writing

python3 - "$LOGS" "$load_before" "$((SECONDS - started))" <<'PY'
import json, os, sys

sys.path.insert(0, "scripts")
from bench_env import header, sh

logs, load_before, elapsed = sys.argv[1], sys.argv[2], int(sys.argv[3])
status = {}
for line in open(os.path.join(logs, "status")):
    suite, state, seconds = line.split()
    status[suite] = (state, int(seconds))
results = []
for suite in status:
    for line in open(os.path.join(logs, f"{suite}.log")):
        if line.startswith("BENCH "):
            results.append(json.loads(line[len("BENCH "):]))

def fmt_rate(r):
    value = r.get("rounds_per_s")
    return f"{value:,.0f}" if value else ""

out = []
out.append("# Benchmarks\n")
out.append("Written by `make bench` (`scripts/bench.sh`); do not edit by hand.\n")
cc = sh("cc", "--version")
out += header(load_before, f"; {cc.splitlines()[0] if cc != '?' else 'cc ?'}")
out.append(f"- suites: " + ", ".join(f"{s} {st} ({sec} s)" for s, (st, sec) in status.items()) + f"; total {elapsed} s\n")
met = sum(1 for r in results if "target" in r and r["met"])
with_target = sum(1 for r in results if "target" in r)
out.append(f"**{met} of {with_target} targets met.**\n")
out.append("| measure | value | target | met | rounds/s |")
out.append("|---|---:|---:|:---:|---:|")
for r in results:
    if r.get("cmp") == "info":
        out.append(f"| {r['name']} | {r['value']:.1f} |  |  |  |")
        continue
    if "target" in r:
        target = f"{r.get('cmp', '>=')} {r['target']}"
        verdict = "yes" if r["met"] else "**no**"
    else:
        target, verdict = "", ""
    value = r["value"]
    unit = "x" if r.get("cmp", ">=") == ">=" and r["suite"] != "rust" else ""
    if r["suite"] == "rust" and "Keccak" in r["name"]:
        shown = f"{value:.1%}"
        if "target" in r:
            target = f">= {r['target']:.0%}"
    else:
        shown = f"{value:.3g}{unit}" if "C " not in r["name"] else f"{value:.3f}"
    out.append(f"| {r['name']} | {shown} | {target} | {verdict} | {fmt_rate(r)} |")
out.append("""
How each is measured:
- **core vs Keccak bound**: `cargo bench -p fairmines --bench rounds`. Each criterion sample times a run of
  `mine_positions` calls, then as many rounds' worth of `keccak::f1600` (2 permutations per round, 3 when
  `server:client:nonce` is 136 bytes or longer: "long" is a 100-byte client seed); value = bound time / round
  time (100% = nothing but permutations), the median over the samples. Rounds/s is one thread's.
- **batch speed-up**: `mine_positions_batch` over 100,000 nonces on all cores against the same rounds on one
  thread (four in step, as each batch thread runs them), one of each per sample, the median over 100 samples;
  rounds/s is the batch's.
- **4 rounds in step** (a stretch, no target set): on one thread, rounds four at a time on
  `fairmines_keccak::f1600_x4` (AVX2 when the CPU has it; the backend is named in the row) against the same rounds
  one at a time, and against the one-lane bound (2 scalar permutations a round here): over 100% is past the
  one-lane limit.
- **C**: `scripts/bench-c.sh`, the C API from C against the same calls straight to the Rust core, in one
  process (the core's loops are a cdylib linked beside `libfairmines.a`), interleaved: each of 300 samples times
  2,000 calls of each side back to back (thread CPU time, order swapped every sample), so the machine's drift
  (20-30% over seconds) cancels; value = the median of the per-sample C / Rust ratios (1.05 = 5% slower). Both
  sides produce the same output (the commitment as 64 hex characters, as the C API writes it). The rows marked
  "instructions" count the same loops with callgrind (2,000 calls each): deterministic.
- **Python**: `scripts/bench-python.sh`, against a pure-Python implementation on hashlib in `python/bench/bench.py`;
  each ratio is the median over 21 samples that time both sides back to back.
- **Node**: `scripts/bench-node.sh`, against `vectors/reference.js` (js-sha3) and a `node:crypto` implementation
  in `node/bench/bench.js`; each ratio is the median over 21 samples in which every line runs for about 40 ms,
  back to back.
- **WASM** (Node): `scripts/bench-wasm.sh`, fairmines-wasm `minePositions` against `vectors/reference.js` (js-sha3)
  in the same Node process, in `wasm/bench/bench.mjs`; each ratio is the median over 21 paired samples of about
  40 ms per side; the module's size is `wasm/fairmines_wasm_bg.wasm`, raw and gzipped (level 9), in KiB.
- **web** (Chromium): `scripts/bench-web.sh`, fairmines-wasm in the verifier page against `vectors/reference.js`
  (js-sha3) in the same page, medians of paired samples as for Node; and history rows/s of the page's worker
  (a `File` stream fed to the core's `HistoryVerifier`, wall time in the page, median of 3) against
  `fairmines verify-history --threads 1` on the same 200,000-row file (wall time of the process).
- **history**: `scripts/bench-history.sh`, `fairmines verify-history` on 1,000,000-row histories made
  by `simulate-history` (JSON Lines and CSV), wall time of the process, each command once per sample, 9 samples
  interleaved, ratios the medians of the per-sample ratios. Against the audit: rows/s of the history over
  rounds/s of `fairmines audit` (a seed pair) for the same rounds: a history of 3-mine rounds against
  `--mines 3`, and the default history (mine counts 1..24 in turn) against `--mines M` for each M in 1..24 (as
  many nonces each, one process per M); on every core for both. One thread against every core on the 3-mine
  history. Against Python: `python/bench/history_loop.py` (`json` + `hashlib`, commitments memoised, the first
  200,000 rows of the same file, one core) against the command on one thread, and as run by default. Peak RSS
  from `wait4`; `make history-memory` shows it on 1,000,000 and 10,000,000 rows.

Logs of the last run: `target/bench-logs/`; criterion's reports: `target/criterion/`.""")
open("docs/benchmarks.md", "w").write("\n".join(out) + "\n")
print("\n".join(out[:12]))
print(f"\ndocs/benchmarks.md written: {met} of {with_target} targets met")
failed = [s for s, (st, _) in status.items() if st != "ok"]
sys.exit(1 if failed else 0)
PY
