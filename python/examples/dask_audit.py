"""Verify and audit a bet history on a Dask cluster, and check it against a single-process run.

    pip install fairmines "dask[dataframe,distributed]" pandas
    python examples/dask_audit.py [HISTORY.jsonl] [--scheduler tcp://host:8786]

Without a history, one is generated (3 seed pairs of 2,000 rounds, computed with fairmines itself) with
a wrong board, a forged commitment, a missing round, a replayed nonce and a broken line injected.
Without --scheduler, a local cluster of 2 worker processes is started.

Each partition (a block of whole lines) is verified on a worker, in Rust with the GIL released; the
per-partition reports are merged (`HistoryReport.merge`), which also finds the nonce gaps and duplicates
that straddle two partitions. Only the summary is compared: failures keep their partition's line numbers.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
from distributed import Client, LocalCluster

import fairmines
import fairmines.dask as fdask


def generate(path: Path, pairs: int = 3, rounds: int = 2000) -> None:
    lines = []
    for p in range(pairs):
        server, client = f"example-server-{p}", f"example-client-{p}"
        commitment = fairmines.commitment(server)
        for nonce in range(rounds):
            mines = 1 + nonce % 24
            row = {"round_id": f"{p}-{nonce}", "server_seed": server, "commitment": commitment,
                   "client_seed": client, "nonce": nonce, "mines": mines,
                   "positions": fairmines.mine_positions(server, client, nonce, mines)}  # fmt: skip
            if (p, nonce) == (0, 100):
                spare = next(t for t in range(1, 26) if t not in row["positions"])
                row["positions"] = sorted([spare, *row["positions"][1:]])  # a valid board, not this one
            if (p, nonce) == (1, 200):
                row["commitment"] = "0" * 64
            if (p, nonce) == (2, 300):
                continue  # a missing round: a nonce gap
            lines.append(json.dumps(row))
            if (p, nonce) == (2, 400):
                lines.append(json.dumps(row))  # a replayed nonce
    lines.insert(1234, '{"round_id": "cut", "server_seed": "ab')  # a broken line
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("history", nargs="?", type=Path)
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--blocksize", default="64KiB", help="bytes per partition (default 64KiB)")
    parser.add_argument("--plot", type=Path, help="write the audit's heatmap (SVG) here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        path = args.history
        if path is None:
            path = Path(scratch) / "history.jsonl"
            generate(path)
        cluster = None if args.scheduler else LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
        with Client(args.scheduler or cluster) as client:
            print(f"{len(client.scheduler_info()['workers'])} workers; history {path}")

            # 1. Raw JSON Lines, in blocks of whole lines: every fault counted exactly as in one run.
            #    threads=1: each worker has one thread; the cluster provides the parallelism.
            report = fdask.verify_text(str(path), blocksize=args.blocksize, threads=1)
            print(report)
            single = fairmines.verify_history(path)
            assert report.summary == single.summary, (report.summary, single.summary)
            print("the distributed summary is the single-process summary:", single.summary)
            if not report.ok:
                print(report.to_pandas()[["line", "round_id", "kind", "message"]].to_string(max_colwidth=70))

            # 2. The audit, the same way: counts per tile and mine count add up across partitions.
            audit = fdask.audit_text(str(path), blocksize=args.blocksize, threads=1)
            assert audit == fairmines.audit(path)
            print(audit)
            print(audit.heatmap_text())
            if args.plot:
                args.plot.write_text(audit.heatmap_svg(f"fairmines audit: {path.name}"), encoding="utf-8")

            # 3. A dask.dataframe of rows (e.g. from Parquet): map_partitions gives one report per
            #    partition. Keep the values' own types: object columns, without Dask's string conversion.
            import dask

            rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.endswith("}")]
            with dask.config.set({"dataframe.convert-string": False}):
                ddf = dd.from_pandas(pd.DataFrame(rows, dtype=object), npartitions=8, sort=False)
            parts = ddf.map_partitions(fdask.verify_partition, meta=pd.Series(dtype=object)).compute()
            merged = fdask.merge_reports(list(parts), fairmines.HistoryReport())
            assert merged.summary == fairmines.verify_history(rows).summary
            print(f"{len(parts)} dataframe partitions merged:", merged)
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
