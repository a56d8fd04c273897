"""Rounds per second: fairmines (Rust) against the pure-Python hashlib implementation of SPEC.md.

Run by scripts/bench-python.sh. Every variant computes the same rounds (one seed pair, consecutive
nonces from 0) in the same run, and the results are compared before anything is timed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import numpy as np  # noqa: E402

import fairmines  # noqa: E402
import spec_reference as ref  # noqa: E402

SERVER = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
CLIENT = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"


def rate(run: Callable[[int], object], rounds: int, repeat: int = 3) -> float:
    """Best of `repeat` runs, in rounds per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run(rounds)
        best = min(best, time.perf_counter() - start)
    return rounds / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mines", type=int, nargs="+", default=[3, 24])
    parser.add_argument("--python-rounds", type=int, default=20_000)
    parser.add_argument("--call-rounds", type=int, default=300_000)
    parser.add_argument("--batch-rounds", type=int, default=3_000_000)
    args = parser.parse_args()

    print(f"fairmines {fairmines.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    for mines in args.mines:
        # Same rounds, same answers: checked before timing.
        sample = range(2000)
        expected = [ref.play(SERVER, CLIENT, n, mines).positions for n in sample]
        assert [fairmines.mine_positions(SERVER, CLIENT, n, mines) for n in sample] == expected
        assert fairmines.mine_positions_batch(SERVER, CLIENT, sample, mines).tolist() == expected

        python = rate(lambda k: [ref.play(SERVER, CLIENT, n, mines).positions for n in range(k)], args.python_rounds)
        per_call = rate(lambda k: [fairmines.mine_positions(SERVER, CLIENT, n, mines) for n in range(k)], args.call_rounds)
        batch = rate(lambda k: fairmines.mine_positions_batch(SERVER, CLIENT, range(k), mines), args.batch_rounds)
        array = np.arange(args.batch_rounds, dtype=np.uint64)
        batch_array = rate(lambda k: fairmines.mine_positions_batch(SERVER, CLIENT, array[:k], mines), args.batch_rounds)

        print(f"\nmines = {mines}")
        print(f"  pure Python (hashlib)          {python:>12,.0f} rounds/s   1x")
        print(f"  mine_positions, one per call   {per_call:>12,.0f} rounds/s   {per_call / python:,.0f}x")
        print(f"  mine_positions_batch, range    {batch:>12,.0f} rounds/s   {batch / python:,.0f}x")
        print(f"  mine_positions_batch, ndarray  {batch_array:>12,.0f} rounds/s   {batch_array / python:,.0f}x")


if __name__ == "__main__":
    main()
