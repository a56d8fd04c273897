#!/usr/bin/env bash
# verify-history rows/s (JSON Lines, CSV; one thread, every core) against the audit's rounds/s on the same rounds and a Python
# json + hashlib loop, medians of BENCH_HISTORY_SAMPLES (9) interleaved runs on BENCH_ROWS (1000000): BENCH lines for bench.sh.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
rows=${BENCH_ROWS:-1000000} samples=${BENCH_HISTORY_SAMPLES:-9} bin=$PWD/target/release/fairmines dir=$PWD/target/bench-history
cargo build --quiet --locked --release -p fairmines-cli
mkdir -p "$dir"
# Two kinds of history: every round with 3 mines (the same rounds as `audit --mines 3`), and the mix of mine
# counts 1..24 that simulate-history writes by default (a 334 MB file).
for kind in m3 mixed; do
    for format in jsonl csv; do
        file=$dir/$kind-$rows.$format
        [[ -s $file ]] || { "$bin" simulate-history --rows "$rows" $([[ $kind == m3 ]] && echo --mines 3) --format "$format" \
            --output "$file.part" && mv "$file.part" "$file"; }
    done
done
# The Python loop imports python/bench/bench.py (numpy, fairmines): the test venv has them.
[[ -x python/.venv/bin/python ]] || bash scripts/test-python.sh --setup-only
python/.venv/bin/python - "$bin" "$dir" "$rows" "$samples" <<'PY'
import json, os, statistics, subprocess, sys, time

bin, folder, rows, samples = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
SERVER = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
CLIENT = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
cores = os.cpu_count()
python_rows = min(rows, 200_000)

def run(args):
    """Wall seconds and peak RSS (KiB) of one process; it must exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench-history: {' '.join(args)} failed")
    return seconds, usage.ru_maxrss

def python_loop():
    """The Python loop over the first rows of the 3-mine JSON Lines history: its own timing (no start-up)."""
    out = subprocess.run([sys.executable, "python/bench/history_loop.py", f"{folder}/m3-{rows}.jsonl",
                          str(python_rows)], capture_output=True, text=True, check=True).stdout.split()
    assert int(out[0]) == python_rows and out[2] == "0", out
    return float(out[1]), None

def audit(mines):
    return run([bin, "audit", "--server-seed", SERVER, "--client-seed", CLIENT, "--count", str(rows), "--mines", str(mines), "--json"])

def audit_mixed():
    """The audit's rate over the mixed history's mine counts: `--mines M` for each M in 1..24 over `rows` nonces each
    (separate rounds, as a history's rows are; one process per mine count, whose start-up is under 1% of it):
    the 24 audits' total time and the largest peak RSS."""
    runs = [audit(m) for m in range(1, 25)]
    return sum(seconds for seconds, _ in runs), max(peak for _, peak in runs)

measured = {"audit m3": lambda: audit(3), "audit mixed": audit_mixed, "python": python_loop}
for kind, fmt, threads in ((k, f, t) for k in ("m3", "mixed") for f in ("jsonl", "csv") for t in (1, cores) if (k, t) != ("mixed", 1)):
    measured[f"{kind} {fmt} {threads}"] = lambda k=kind, f=fmt, t=threads: run(
        [bin, "verify-history", f"{folder}/{k}-{rows}.{f}", "--threads", str(t), "--json"])
times, rss = {}, {}
for sample in range(samples):
    for name, measure in measured.items():
        seconds, peak = measure()
        times.setdefault(name, []).append(seconds)
        if peak:
            rss[name] = max(rss.get(name, 0), peak)
    print(f"sample {sample + 1}/{samples}: " + ", ".join(f"{k} {v[-1]:.3f} s" for k, v in times.items()), flush=True)

def ratio(numerator, denominator, scale=1.0):
    return statistics.median(a / b * scale for a, b in zip(times[numerator], times[denominator]))

def rate(name, count=rows):
    return count / statistics.median(times[name])

results = []
def bench(name, value, target, rounds_per_s):
    results.append({"suite": "history", "name": name, "value": value, "rounds_per_s": rounds_per_s}
                   | ({} if target is None else {"target": target, "met": value >= target}))

for fmt, label in (("jsonl", "JSON Lines"), ("csv", "CSV")):
    bench(f"history {label} rows/s / audit rounds/s, 3-mine rounds, {cores} threads", ratio("audit m3", f"m3 {fmt} {cores}"),
          0.6, rate(f"m3 {fmt} {cores}"))
    bench(f"history {label} rows/s / audit rounds/s, mine counts 1..24, {cores} threads",
          ratio("audit mixed", f"mixed {fmt} {cores}", 1 / 24), 0.6, rate(f"mixed {fmt} {cores}"))
    bench(f"history {label}: {cores} threads / 1 thread", ratio(f"m3 {fmt} 1", f"m3 {fmt} {cores}"), 1.8,
          rate(f"m3 {fmt} 1"))
# The Python loop runs on one core; the command as run by default uses every core.
bench("history JSON Lines, 1 thread / Python json + hashlib loop", rate("m3 jsonl 1") / rate("python", python_rows),
      None, rate("m3 jsonl 1"))
bench(f"history JSON Lines, {cores} threads (the default) / Python json + hashlib loop",
      rate(f"m3 jsonl {cores}") / rate("python", python_rows), 10.0, rate(f"m3 jsonl {cores}"))
print(f"\naudit, 3 mines: {rate('audit m3'):,.0f} rounds/s; mine counts 1..24: "
      f"{rate('audit mixed', rows * 24):,.0f} rounds/s; Python loop {rate('python', python_rows):,.0f} rows/s")
print("peak RSS (KiB): " + ", ".join(f"{k} {v:,}" for k, v in sorted(rss.items())))
for r in results:
    verdict = "" if "target" not in r else ("met" if r["met"] else "NOT met")
    print(f"{r['name']:<78} {r['value']:8.3f}  target {r.get('target', '-')}  {verdict}  {r['rounds_per_s']:,.0f}/s")
for r in results:
    print("BENCH " + json.dumps(r))
print("BENCH " + json.dumps({"suite": "history", "name": f"history peak RSS, {rows:,} rows JSON Lines, {cores} threads (MiB)",
                             "value": rss[f"m3 jsonl {cores}"] / 1024, "cmp": "info"}))
PY
