"""What an analyst would otherwise write to verify a JSON Lines history: `json` + `hashlib`, one row at a time.

    python3 python/bench/history_loop.py HISTORY.jsonl [ROWS]

Checks the first ROWS rows (default all) as `fairmines verify-history` does (the commitment, SHA3-256 of the
server seed, memoised per seed; the positions from the seeds) and prints `rows seconds mismatches`. Used by
scripts/bench-history.sh for the history rows of docs/benchmarks.md.
"""

import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import python_positions  # noqa: E402  (ALGORITHM.md on hashlib, shared with bench.py)


def main() -> None:
    path = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else None
    commitments: dict = {}
    rows = mismatches = 0
    start = time.perf_counter()
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if limit is not None and rows >= limit:
                break
            row = json.loads(line)
            seed = row["server_seed"]
            commitment = commitments.get(seed)
            if commitment is None:
                commitment = commitments[seed] = hashlib.sha3_256(seed.encode()).hexdigest()
            positions = python_positions(seed, row["client_seed"], row["nonce"], row["mines"])
            if commitment != row["commitment"].lower() or positions != sorted(row["positions"]):
                mismatches += 1
            rows += 1
    print(rows, time.perf_counter() - start, mismatches)


if __name__ == "__main__":
    main()
