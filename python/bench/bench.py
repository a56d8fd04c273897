"""Rounds per second: fairmines (Rust) against a pure-Python hashlib implementation of ALGORITHM.md.

Run by scripts/bench-python.sh. Every variant computes the same rounds (one seed pair, consecutive
nonces from 0) in the same run, and the results are compared before anything is timed.
Targets: mine_positions >= 5x and mine_positions_batch >= 15x the pure-Python rounds/s.
Prints a table and one `BENCH {json}` line per ratio (collected by scripts/bench.sh).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from typing import Callable, List

import numpy as np

import fairmines

SERVER = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
CLIENT = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
PER_CALL_TARGET = 5.0
BATCH_TARGET = 15.0


def python_positions(server_seed: str, client_seed: str, nonce: int, mines: int) -> List[int]:
    """ALGORITHM.md in plain Python: the hashing is hashlib's (C), the sampling is Python."""
    signature = hashlib.sha3_256(f"{server_seed}:{client_seed}:{nonce}".encode()).hexdigest()
    # 48 words, as the operator's verifier pre-draws; enough unless 24 rejections happen.
    stream = hashlib.shake_256(signature.encode()).digest(192)
    available = list(range(25))
    drawn = []
    word = 0
    for _ in range(mines):
        p = len(available)
        limit = (1 << 32) // p * p
        while True:
            w = int.from_bytes(stream[4 * word : 4 * word + 4], "big")
            word += 1
            if w < limit:
                break
        drawn.append(available.pop(w % p))
    return sorted(t + 1 for t in drawn)


def paired(reference: Callable[[int], object], reference_rounds: int, run: Callable[[int], object], rounds: int,
           samples: int) -> tuple[float, float, float]:
    """Times `reference` and `run` back to back in each of `samples` samples (the order swapped every
    sample) and returns the median of the per-sample ratios of their rates, and each side's median
    rate in rounds per second. The two halves of a sample are milliseconds apart, so the machine's
    drift (20-30% over seconds here) cancels in their ratio; best-of runs of each side at different
    moments did not."""
    ratios, reference_rates, rates = [], [], []
    for sample in range(samples):
        timed = {}
        for side in ((0, 1) if sample % 2 == 0 else (1, 0)):
            function, count = ((reference, reference_rounds), (run, rounds))[side]
            start = time.perf_counter()
            function(count)
            timed[side] = count / (time.perf_counter() - start)
        reference_rates.append(timed[0])
        rates.append(timed[1])
        ratios.append(timed[1] / timed[0])
    return statistics.median(ratios), statistics.median(reference_rates), statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mines", type=int, nargs="+", default=[3, 24])
    parser.add_argument("--python-rounds", type=int, default=2_000, help="pure-Python rounds per sample")
    parser.add_argument("--call-rounds", type=int, default=10_000, help="mine_positions calls per sample")
    parser.add_argument("--batch-rounds", type=int, default=100_000, help="rounds per batch, one batch a sample")
    parser.add_argument("--samples", type=int, default=21)
    args = parser.parse_args()

    cores = os.cpu_count()
    print(f"fairmines {fairmines.__version__}, Python {sys.version.split()[0]}, {cores} CPUs")
    results = []
    for mines in args.mines:
        # Same rounds, same answers: checked before timing.
        sample = range(2000)
        expected = [python_positions(SERVER, CLIENT, n, mines) for n in sample]
        assert [fairmines.mine_positions(SERVER, CLIENT, n, mines) for n in sample] == expected
        assert fairmines.mine_positions_batch(SERVER, CLIENT, sample, mines).tolist() == expected

        python = lambda k: [python_positions(SERVER, CLIENT, n, mines) for n in range(k)]
        array = np.arange(args.batch_rounds, dtype=np.uint64)
        variants = [
            ("mine_positions, one per call", PER_CALL_TARGET, "mine_positions", args.call_rounds,
             lambda k: [fairmines.mine_positions(SERVER, CLIENT, n, mines) for n in range(k)]),
            ("mine_positions_batch, range", BATCH_TARGET, "mine_positions_batch (range)", args.batch_rounds,
             lambda k: fairmines.mine_positions_batch(SERVER, CLIENT, range(k), mines)),
            ("mine_positions_batch, ndarray", BATCH_TARGET, "mine_positions_batch (uint64 array)", args.batch_rounds,
             lambda k: fairmines.mine_positions_batch(SERVER, CLIENT, array[:k], mines)),
        ]
        measured = [(label, target, name, *paired(python, args.python_rounds, run, rounds, args.samples))
                    for label, target, name, rounds, run in variants]
        print(f"\nmines = {mines} (medians over {args.samples} samples, each side timed back to back)")
        for label, target, name, ratio, python_rate, value in measured:
            met = ratio >= target
            print(f"  {label:<30} {value:>12,.0f} rounds/s   pure Python {python_rate:>9,.0f}   {ratio:,.1f}x"
                  f"  (target {target:g}x: {'met' if met else 'NOT MET'})")
            results.append({
                "suite": "python",
                "name": f"Python {name}, {mines} mines, vs pure-Python hashlib",
                "value": round(ratio, 2),
                "target": target,
                "cmp": ">=",
                "met": met,
                "rounds_per_s": round(value),
                "reference_rounds_per_s": round(python_rate),
            })
    print()
    for result in results:
        print("BENCH " + json.dumps(result))


if __name__ == "__main__":
    main()
