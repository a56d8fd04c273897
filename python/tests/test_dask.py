"""verify_history and audit on a local Dask cluster of 2 worker processes ("Beyond one machine"):
a partitioned history with a fault of every kind gives the summary of the single-process run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import fairmines
from history_data import FAULTY_SUMMARY, faulty_lines, faulty_rows

pd = pytest.importorskip("pandas")
dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
fdask = pytest.importorskip("fairmines.dask")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    ) as cluster, distributed.Client(cluster) as client:
        yield client


@pytest.fixture(scope="module")
def faulty_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dask") / "faulty.jsonl"
    path.write_text("".join(faulty_lines()), encoding="utf-8")
    return path


def test_json_lines_in_blocks_give_the_single_run_summary(client: Any, faulty_path: Path) -> None:
    single = fairmines.verify_history(faulty_path)
    assert single.summary.to_dict() == FAULTY_SUMMARY
    # 4 KiB blocks: about 25 partitions, cutting through seed pairs, the gap and the duplicate.
    distributed_report = fdask.verify_text(str(faulty_path), blocksize=4096, threads=1)
    assert len(client.scheduler_info()["workers"]) == 2
    assert distributed_report.summary == single.summary
    assert sorted(f.kind for f in distributed_report.failures) == sorted(f.kind for f in single.failures)
    assert fdask.audit_text(str(faulty_path), blocksize=4096, threads=1) == fairmines.audit(faulty_path)


def test_dataframe_partitions_give_the_single_run_summary(client: Any) -> None:
    rows = faulty_rows()
    single = fairmines.verify_history(rows)
    frame = pd.DataFrame(rows, dtype=object)
    # Dask turns object columns into strings by default: the nonces would all be malformed.
    with dask.config.set({"dataframe.convert-string": False}):
        ddf = dd.from_pandas(frame, npartitions=7, sort=False)
    assert set(map(str, ddf.dtypes)) == {"object"}
    report = ddf.map_partitions(fdask.verify_partition, meta=pd.Series(dtype=object)).compute()
    assert len(report) == 7
    merged = fdask.merge_reports(list(report), fairmines.HistoryReport())
    assert merged.summary == single.summary
    assert fdask.verify_dataframe(ddf, threads=1).summary == single.summary
    assert fdask.audit_dataframe(ddf, threads=1) == fairmines.audit(rows)
