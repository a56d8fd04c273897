"""``verify_history`` and ``audit``: the Python face of the history crate's runs (``_native._verify_history``,
``_native._audit``, which do the work in Rust).

What is here only converts: a DataFrame (anything with ``__arrow_c_stream__``) becomes its Arrow C stream,
read column-wise by Rust; a ``progress`` given as a tqdm bar or as a callable of one or three arguments
becomes the ``(rows, bytes)`` callable Rust calls. Every rule and message about the rows is the crate's.
Import these from ``fairmines``.
"""

from __future__ import annotations

import importlib
import inspect
import io
import os
from collections.abc import Callable, Iterable, Mapping, Sized
from typing import TYPE_CHECKING, Any, Literal, Protocol, SupportsIndex, TypeAlias, Union, cast

from . import _native
from ._native import RevealedSeedPair
from ._reports import AuditReport, HistoryReport

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["audit", "verify_history"]


class ArrowStream(Protocol):
    """A table that exports the Arrow C stream interface: a pandas or polars DataFrame, a pyarrow Table."""

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object: ...


class BinaryFile(Protocol):
    """A file object opened in binary mode (``open(path, "rb")``, ``gzip.open(path)``, ``io.BytesIO``)."""

    def read(self, size: int = ..., /) -> bytes: ...


class ProgressBar(Protocol):
    """A progress bar: anything with ``update(n)``, such as ``tqdm.tqdm``."""

    def update(self, n: int = 1, /) -> object: ...


History: TypeAlias = Union[str, "os.PathLike[str]", BinaryFile, ArrowStream, Iterable[Mapping[Any, Any]]]
"""What ``verify_history`` and ``audit`` read: a path, a binary file, a DataFrame, or rows (mappings)."""

Progress: TypeAlias = Union[
    Callable[[int, int], object], Callable[[int, int, Union[int, None]], object], Callable[[int], object], ProgressBar
]
"""A progress callback ``(rows, bytes)``, ``(rows, bytes, total)`` or ``(increment)``, or a bar with ``update``."""

Format: TypeAlias = Union[Literal["auto", "jsonl", "csv"], str]


def _frame_rows(frame: pd.DataFrame) -> list[dict[Any, Any]]:
    """A pandas frame as rows (dicts), its missing values (NaN, None, pd.NA, NaT) as None."""
    objects = frame.astype(object)
    rows: list[dict[Any, Any]] = objects.where(objects.notna(), None).to_dict("records")
    return rows


def _is_file(history: object) -> bool:
    return isinstance(history, (str, bytes, os.PathLike)) or hasattr(history, "read")


def _parquet(path: str | os.PathLike[str]) -> object | None:
    """A Parquet file's batches as an Arrow C stream, read a row group at a time (None: not Parquet)."""
    try:
        with open(path, "rb") as file:
            if file.read(4) != b"PAR1":
                return None
    except OSError:
        return None  # Rust opens it again and says why it cannot
    try:
        pa = importlib.import_module("pyarrow")
        pq = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ImportError(f"history: {os.fspath(path)!r} is a Parquet file; reading it needs pyarrow") from None
    parquet = pq.ParquetFile(path)
    reader = pa.RecordBatchReader.from_batches(parquet.schema_arrow, parquet.iter_batches())
    return cast(object, reader.__arrow_c_stream__())


def _source(history: object) -> object:
    """A DataFrame as its Arrow C stream (a PyCapsule, read column-wise by Rust), a Parquet path as its
    batches' stream; anything else as it is."""
    if isinstance(history, (str, os.PathLike)):
        parquet = _parquet(history)
        if parquet is not None:
            return parquet
    export = getattr(history, "__arrow_c_stream__", None)
    if export is None or _is_file(history):
        return history
    try:
        return export()
    except (ImportError, TypeError, ValueError, NotImplementedError):
        # pandas lends its frames to pyarrow, which refuses an object column of mixed types (and may not be
        # installed): such a frame goes row by row, each value checked with the type it has.
        if not hasattr(history, "to_dict"):
            raise
        return _frame_rows(history)  # type: ignore[arg-type]


def _size(history: object) -> int | None:
    """The bytes a path or a plain binary file holds from where it is read (None when unknown)."""
    try:
        if isinstance(history, (str, os.PathLike)):
            return os.stat(history).st_size
        if isinstance(history, io.BytesIO):
            return history.getbuffer().nbytes - history.tell()
        if isinstance(history, (io.BufferedReader, io.FileIO)):
            return os.fstat(history.fileno()).st_size - history.tell()
    except (OSError, ValueError):
        pass
    return None


def _positional(function: Callable[..., object]) -> int:
    """How many positional arguments ``function`` takes (3 for ``*args``; 2 when it cannot be told)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return 2
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return 3
    return sum(p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in parameters)


def _progress(progress: Progress | None, history: object, rows: int | None = None) -> Callable[[int, int], object] | None:
    """``progress`` as the ``(rows, bytes)`` callable Rust calls after every chunk."""
    if progress is None:
        return None
    by_bytes = _is_file(history)  # the unit of a bar and of increments: bytes of a file, else rows
    total = _size(history)
    if rows is None and not by_bytes and isinstance(history, Sized):
        rows = len(history)
    function: Callable[..., object]
    if callable(progress):
        function = cast("Callable[..., object]", progress)  # called as its arguments say, below
    elif hasattr(progress, "update"):
        if getattr(progress, "total", None) is None:
            progress.total = total if by_bytes else rows  # type: ignore[attr-defined]
            getattr(progress, "refresh", lambda: None)()
        function = cast("Callable[..., object]", progress.update)
    else:
        kind = type(progress).__name__
        raise TypeError(f"progress: must be a callable or a progress bar with update() (tqdm), not {kind}")
    arguments = _positional(function)
    if arguments >= 3:
        return lambda rows, read: function(rows, read, total)
    if arguments == 1:
        done = 0

        def advance(rows: int, read: int) -> None:
            nonlocal done
            now = read if by_bytes else rows
            function(now - done)
            done = now

        return advance
    return function


def verify_history(
    history: History,
    /,
    *,
    format: Format | None = None,
    threads: SupportsIndex | None = None,
    progress: Progress | None = None,
    columns: Mapping[str, str] | None = None,
    delimiter: str | None = None,
    max_failures: int | None = 10_000,
    revealed: Iterable[RevealedSeedPair] | None = None,
    multiplier_form: Literal["exact", "displayed"] | None = None,
) -> HistoryReport:
    """Verifies a whole bet history: every row's commitment and mine positions recomputed from its seeds,
    nonce gaps and duplicates per seed pair, malformed rows reported and skipped.

    ``history`` is one of:

    - a path (``str`` or ``os.PathLike``) of JSON Lines or CSV, gzip-compressed or not (``.gz``), read by
      Rust in constant memory; or of Parquet (recognised by its first bytes, read with pyarrow a row group
      at a time, as a DataFrame is);
    - a binary file object (``open(p, "rb")``, ``gzip.open(p)``, ``io.BytesIO``);
    - a DataFrame: pandas, polars, a pyarrow Table, anything with ``__arrow_c_stream__`` (the Arrow
      PyCapsule interface), read column by column in Rust with no per-row object (a pandas frame whose
      object columns pyarrow cannot convert goes row by row instead);
    - an iterable of rows: mappings (dicts) with the fields of the format (a generator streams).

    ``columns`` maps the input's names to the fields (``{"serverSeed": "server_seed"}``), for CSV headers,
    JSON keys, dict keys and DataFrame columns alike. ``delimiter`` is the CSV delimiter (``";"``, ``"\\t"``).
    ``format`` is ``"jsonl"``, ``"csv"`` or ``"auto"`` (paths and files only; by default from the file's
    extension, else its first byte). ``threads``: worker threads (default: one per core).

    A row may also carry its play, as the core's round record names it: ``rtp``, ``picks`` (in order),
    ``outcome`` and ``multiplier``; when it does they are checked against the replay (failures of kind
    ``"play"``). ``max_failures`` caps the failures kept in the report (``summary.failures_omitted`` counts
    the others; the other counts stay exact); None keeps every one. A history without rows is not ok.
    ``revealed``: the seed pairs the operator revealed (``RevealedSeedPair``, as ``rotate`` returns them):
    rounds missing before a pair's first row or after its last are reported as gaps, rows at or past its
    ``rounds`` as ``"nonce_past_end"``. ``multiplier_form`` says how the ``multiplier`` of a row without a
    ``multiplier_form`` column is written: ``"exact"`` (the default) or ``"displayed"``, as the operator's site
    shows it (the exact multiplier rounded down to the decimals written: 99/80 as ``1.23``; any other value
    fails as ``"play"``).

    ``progress`` is called after every chunk of 2,048 rows: ``progress(rows, bytes)``; with three parameters
    ``progress(rows, bytes, total)``, ``total`` the file's size in bytes (None when unknown or not a file);
    with one, ``progress(increment)`` (pass ``bar.update``). A progress bar itself (``tqdm.tqdm()``: anything
    with ``update``) counts bytes for a file and rows otherwise, and gets its ``total`` set when it has none.
    An exception in it (or Ctrl-C) stops the run and is raised. Runs with the GIL released.
    """
    report = _native._verify_history(
        _source(history),
        format=format,
        threads=threads,
        progress=_progress(progress, history),
        columns=columns,
        delimiter=delimiter,
        max_failures=max_failures,
        revealed=revealed,
        multiplier_form=multiplier_form,
    )
    return HistoryReport._of(report)


def audit(
    history: History | None = None,
    /,
    *,
    server_seed: str | None = None,
    client_seed: str | None = None,
    nonces: range | None = None,
    mines: SupportsIndex | float | Iterable[SupportsIndex | float] | None = None,
    format: Format | None = None,
    threads: SupportsIndex | None = None,
    progress: Progress | None = None,
    columns: Mapping[str, str] | None = None,
    delimiter: str | None = None,
) -> AuditReport:
    """Audits the fairness of mine placement: per mine count, how often each tile held a mine, with a
    chi-square test against the uniform distribution (and its Holm-adjusted p-value); and the distribution
    of each round's first draw.

    Either over a history (``audit(history)``: anything ``verify_history`` reads, with the same
    ``columns``, ``delimiter``, ``format`` and ``threads``; the declared positions are counted, the first
    draws recomputed), or over a seed pair (``audit(server_seed=..., client_seed=..., nonces=range(...),
    mines=3 or [1, 3, 24])``: the core's batch computes every round, on every core). ``progress`` as for
    ``verify_history`` (a seed-pair audit counts rows: nonces done). Runs with the GIL released.
    """
    rows = len(nonces) if isinstance(nonces, range) else None
    counts = _native._audit(
        None if history is None else _source(history),
        server_seed=server_seed,
        client_seed=client_seed,
        nonces=nonces,
        mines=mines,
        format=format,
        threads=threads,
        progress=_progress(progress, history, rows),
        columns=columns,
        delimiter=delimiter,
    )
    return AuditReport._of(counts)


for _function in (verify_history, audit):
    _function.__module__ = "fairmines"
del _function
