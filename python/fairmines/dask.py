"""``verify_history`` and ``audit`` over partitioned histories with Dask (``pip install "fairmines[dask]"``).

Each partition is checked on its own (in Rust, GIL released) and gives a report; the reports of all
partitions combine with ``merge`` into the report of the whole: counts add up, and each seed pair's nonces
are merged, so nonce gaps and duplicates across partition boundaries are found as in one run. Only the
summary is guaranteed equal to a single run's: failures keep the line numbers of their partition (row
``i`` of a partition is line ``i + 1``), and a duplicate seen only when merging is reported without a line.

Two ways in:

- ``verify_text(path, blocksize=...)`` / ``audit_text``: the history's raw JSON Lines read with
  ``dask.bag.read_text`` (a partition is a byte range of whole lines, verified as a file). Every fault
  a single run finds is found the same way, including lines that are not JSON and a truncated last line.
- ``verify_dataframe(ddf)`` / ``audit_dataframe``: a ``dask.dataframe`` with the format's columns;
  ``ddf.map_partitions(verify_partition)`` gives one report per partition. Each partition goes to
  ``verify_history`` as a pandas frame (read column-wise; one whose object columns pyarrow cannot convert
  goes row by row), so a value is checked with the type it has in the frame: keep the columns as proper
  integer and string columns (or ``object``). Integers in a seed column are read as their digits and whole
  floats count as integers, but ``pandas.read_json`` also turns ``"3"`` into 3; read JSON Lines with
  ``verify_text`` instead. Dask itself turns ``object`` columns into strings unless
  ``dask.config.set({"dataframe.convert-string": False})`` is in effect where the frame is built (a nonce
  ``"5"`` is then malformed: a string).

Set ``threads`` to the cores each worker may use (by default every core of the machine, per partition).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, Union

from ._history import _frame_rows, audit, verify_history
from ._reports import AuditReport, HistoryReport

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "audit_dataframe",
    "audit_partition",
    "audit_text",
    "merge_reports",
    "rows",
    "verify_dataframe",
    "verify_partition",
    "verify_text",
]

R = TypeVar("R", HistoryReport, AuditReport)
_Report = Union[HistoryReport, AuditReport]


def merge_reports(reports: Iterable[R], empty: R) -> R:
    """Merges the reports of the parts of one history, pairwise (a balanced tree), in order."""
    level = list(reports)
    if not level:
        return empty
    while len(level) > 1:
        merged = [a.merge(b) for a, b in zip(level[::2], level[1::2])]
        if len(level) % 2:
            merged.append(level[-1])
        level = merged
    return level[0]


def rows(partition: pd.DataFrame) -> list[dict[Any, Any]]:
    """A pandas partition as rows (dicts), with its missing values (NaN, None, pd.NA, NaT) as None."""
    return _frame_rows(partition)


def _series(report: _Report) -> pd.Series:
    import pandas as pd

    return pd.Series([report], dtype=object)


def verify_partition(partition: pd.DataFrame, *, threads: int | None = None) -> pd.Series:
    """``verify_history`` over one partition: a one-element object Series holding its ``HistoryReport``
    (for ``ddf.map_partitions(verify_partition, meta=pandas.Series(dtype=object))``)."""
    return _series(verify_history(partition, threads=threads))


def audit_partition(partition: pd.DataFrame, *, threads: int | None = None) -> pd.Series:
    """``audit`` over one partition: a one-element object Series holding its ``AuditReport``."""
    return _series(audit(partition, threads=threads))


def _map_partitions(ddf: Any, function: Any, threads: int | None) -> list[Any]:
    import pandas as pd

    mapped = ddf.map_partitions(partial(function, threads=threads), meta=pd.Series(dtype=object))
    return list(mapped.compute())


def verify_dataframe(ddf: Any, *, threads: int | None = None) -> HistoryReport:
    """The ``HistoryReport`` of a whole ``dask.dataframe`` of rows: one report per partition, merged."""
    reports: list[HistoryReport] = _map_partitions(ddf, verify_partition, threads)
    return merge_reports(reports, HistoryReport())


def audit_dataframe(ddf: Any, *, threads: int | None = None) -> AuditReport:
    """The ``AuditReport`` of a whole ``dask.dataframe`` of rows: one report per partition, merged."""
    reports: list[AuditReport] = _map_partitions(ddf, audit_partition, threads)
    return merge_reports(reports, AuditReport())


def _text(lines: Sequence[str]) -> Any:
    import io

    return io.BytesIO("".join(lines).encode("utf-8"))


def _verify_lines(lines: Sequence[str], threads: int | None) -> list[HistoryReport]:
    return [verify_history(_text(lines), format="jsonl", threads=threads)]


def _audit_lines(lines: Sequence[str], threads: int | None) -> list[AuditReport]:
    return [audit(_text(lines), format="jsonl", threads=threads)]


def _lines(source: Any, blocksize: int | str | None) -> Any:
    import dask.bag

    if isinstance(source, dask.bag.Bag):
        return source
    return dask.bag.read_text(source, blocksize=blocksize)  # type: ignore[no-untyped-call]


def verify_text(source: Any, *, blocksize: int | str | None = "64MiB", threads: int | None = None) -> HistoryReport:
    """The ``HistoryReport`` of JSON Lines files (a path, a glob or a list, as for
    ``dask.bag.read_text``, or a bag of lines with their newlines): one report per block, merged."""
    bag = _lines(source, blocksize).map_partitions(_verify_lines, threads)
    reports: list[HistoryReport] = bag.compute()
    return merge_reports(reports, HistoryReport())


def audit_text(source: Any, *, blocksize: int | str | None = "64MiB", threads: int | None = None) -> AuditReport:
    """The ``AuditReport`` of JSON Lines files (as for ``verify_text``): one report per block, merged."""
    bag = _lines(source, blocksize).map_partitions(_audit_lines, threads)
    reports: list[AuditReport] = bag.compute()
    return merge_reports(reports, AuditReport())
