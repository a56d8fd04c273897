"""DataFrames given to verify_history and audit directly: pandas, polars, pyarrow and any object
with ``__arrow_c_stream__``, read column-wise in Rust without per-row dicts; what ``pd.read_csv`` makes of
a history; column mappings; and a 1,000,000-row history from ``fairmines simulate-history`` as a pandas and
a polars frame, timed against the same rows as a JSON Lines file."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import fairmines
from conftest import REPO_ROOT
from history_data import faulty_rows, find, genuine_rows, other_positions

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")


class Stream:
    """Only the Arrow PyCapsule interface (as any library may offer it), over a pyarrow table."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self.table.__arrow_c_stream__(requested_schema)


@pytest.fixture
def no_row_dicts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A frame read column-wise never becomes dicts: the ways to make them raise."""

    def refuse(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a DataFrame was turned into rows")

    for name in ("to_dict", "iterrows", "itertuples"):
        monkeypatch.setattr(pd.DataFrame, name, refuse)
    for name in ("to_dicts", "iter_rows", "rows"):
        monkeypatch.setattr(pl.DataFrame, name, refuse)


def typed_rows() -> list[dict[str, Any]]:
    """Genuine rows with the faults a typed frame can hold: wrong positions and commitment, a gap, a
    duplicate, a missing nonce; positions as text."""
    rows = genuine_rows()
    rows[find(rows, 0, 10)]["positions"] = other_positions(rows[find(rows, 0, 10)])
    rows[find(rows, 0, 20)]["commitment"] = "00" * 32
    del rows[find(rows, 0, 30)]
    dup = find(rows, 1, 40)
    rows.insert(dup + 1, dict(rows[dup], round_id="dup"))
    rows[find(rows, 2, 50)]["nonce"] = None
    for row in rows:
        row["positions"] = ",".join(map(str, row["positions"]))
    return rows


def frames(rows: list[dict[str, Any]]) -> dict[str, Any]:
    frame = pd.DataFrame(rows)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return {"pandas": frame, "polars": pl.from_arrow(table), "pyarrow": table, "stream": Stream(table)}


@pytest.mark.usefixtures("no_row_dicts")
def test_frames_are_read_column_wise_like_rows() -> None:
    rows = typed_rows()
    expected = fairmines.verify_history(rows)
    assert (expected.summary.mismatched, expected.summary.malformed, expected.summary.nonce_gaps) == (3, 1, 2)
    assert str(pd.DataFrame(rows)["nonce"].dtype) == "float64"  # the missing nonce: NaN in a float column
    for name, frame in frames(rows).items():
        report = fairmines.verify_history(frame, threads=2)
        assert report == expected, name
        assert fairmines.audit(frame) == fairmines.audit(rows), name
    malformed = next(f for f in expected.failures if f.kind == "malformed")
    assert (malformed.message, malformed.round_id) == ("nonce: missing", "p2n50")
    assert malformed.line is not None and rows[malformed.line - 1]["round_id"] == "p2n50"


def test_list_columns_categoricals_and_mixed_object_columns() -> None:
    rows = genuine_rows(pairs=2, rounds=50)
    lists = pd.DataFrame(rows)  # positions: Python lists, which pyarrow makes a list<int64> column
    assert fairmines.verify_history(lists).summary.ok == 100
    categorical = lists.astype({"server_seed": "category", "client_seed": "category"})
    assert fairmines.verify_history(categorical).summary.ok == 100
    polars = pl.DataFrame(rows)  # positions: list[i64]
    assert fairmines.verify_history(polars).summary.ok == 100
    # An object column of mixed types, which pyarrow refuses: the frame goes row by row, each value judged
    # with its own type, as dicts are (the faulty rows hold a mines "3" among integers).
    faulty = faulty_rows()
    mixed = pd.DataFrame(faulty, dtype=object)
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError)):
        pa.Table.from_pandas(mixed)
    assert fairmines.verify_history(mixed).summary == fairmines.verify_history(faulty).summary


def test_what_read_csv_makes_of_a_history(tmp_path: Path) -> None:
    """pd.read_csv reads client seeds of digits as integers, and an integer column with a gap as floats."""
    server = "server-seed"
    lines = ["round_id,server_seed,commitment,client_seed,nonce,mines,positions"]
    for n in range(40):
        positions = ",".join(map(str, fairmines.mine_positions(server, "987654321", n, 5)))
        nonce = "" if n == 7 else str(n)
        lines.append(f'{n},{server},{fairmines.commitment(server)},987654321,{nonce},5,"{positions}"')
    path = tmp_path / "numeric.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    frame = pd.read_csv(path)
    assert str(frame["client_seed"].dtype) == "int64" and str(frame["nonce"].dtype) == "float64"
    report = fairmines.verify_history(frame)
    assert (report.summary.ok, report.summary.malformed) == (39, 1)
    assert report.failures[0].message == "nonce: missing" and report.failures[0].round_id == "7"
    assert fairmines.verify_history(path).summary == report.summary
    assert fairmines.verify_history(pl.read_csv(path)).summary == report.summary


def test_columns_map_other_names_for_frames_files_and_dicts(tmp_path: Path) -> None:
    rows = genuine_rows(pairs=1, rounds=30)
    names = {"server_seed": "serverSeed", "client_seed": "clientSeed", "nonce": "Nonce"}
    renamed = [{names.get(k, k): v for k, v in row.items()} for row in rows]
    mapping = {v: k for k, v in names.items()}
    frame = pd.DataFrame(renamed)
    assert fairmines.verify_history(frame, columns=mapping).summary.ok == 30
    assert fairmines.verify_history(pl.DataFrame(renamed), columns=mapping).summary.ok == 30
    assert fairmines.verify_history(renamed, columns=mapping).summary.ok == 30
    assert fairmines.audit(renamed, columns=mapping) == fairmines.audit(rows)
    with pytest.raises(ValueError, match=r"^history: header: the table must name the columns server_seed, .*missing: server_seed, client_seed"):
        fairmines.verify_history(frame)
    with pytest.raises(ValueError, match=r'^columns: "x" is mapped to "seed", which is not a field of the format'):
        fairmines.verify_history(frame, columns={"x": "seed"})
    with pytest.raises(ValueError, match=r'^columns: "a" and "b" are both mapped to nonce'):
        fairmines.verify_history(rows, columns={"a": "nonce", "b": "nonce"})
    with pytest.raises(TypeError, match="^columns: must be a dict of str"):
        fairmines.verify_history(rows, columns={"a": 1})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="^format: only for a path or a file"):
        fairmines.verify_history(frame, format="csv")


def test_progress_of_a_frame_counts_rows() -> None:
    frame = pd.DataFrame(genuine_rows(pairs=2, rounds=3000))

    class Bar:
        total: int | None = None
        n = 0

        def update(self, n: int = 1) -> None:
            self.n += n

    bar = Bar()
    fairmines.verify_history(frame, progress=bar)
    assert (bar.total, bar.n) == (6000, 6000)
    seen: list[tuple[int, int, int | None]] = []
    fairmines.verify_history(frame, progress=lambda rows, read, total: seen.append((rows, read, total)))
    assert seen[-1] == (6000, 0, None) and len(seen) >= 3


# --- 1,000,000 rows ---------------------------------------------------------------------------------


def cli() -> Path:
    """The `fairmines` command: FAIRMINES_CLI (scripts/test-python.sh builds it), else built here."""
    given = os.environ.get("FAIRMINES_CLI")
    if given:
        return Path(given)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "fairmines-cli"], cwd=REPO_ROOT, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO_ROOT / "target"))
    return target / "release" / "fairmines"


ROWS = 1_000_000


@pytest.fixture(scope="module")
def million(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("million")
    csv, jsonl = folder / "h.csv", folder / "h.jsonl"
    subprocess.run([str(cli()), "simulate-history", "--rows", str(ROWS), "--output", str(csv)], check=True)
    polars = pl.read_csv(csv)
    polars.write_ndjson(jsonl)  # the same rows as JSON Lines
    return {"csv": csv, "jsonl": jsonl, "pandas": pd.read_csv(csv), "polars": polars}


def timed(history: Any) -> tuple[float, fairmines.HistoryReport]:
    start = time.perf_counter()
    report = fairmines.verify_history(history)
    return time.perf_counter() - start, report


@pytest.mark.usefixtures("no_row_dicts")
def test_a_million_rows_as_pandas_and_polars_frames_against_json_lines(
    million: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    seconds: dict[str, float] = {}
    for name in ("jsonl", "pandas", "polars"):
        seconds[name], report = timed(million[name])
        assert report.ok and report.summary.rows_read == report.summary.ok == ROWS, name
        assert report.summary.seed_pairs == ROWS // 500
    megabytes = million["jsonl"].stat().st_size / 1e6
    with capsys.disabled():
        print(
            f"\n  verify_history, {ROWS:,} rows from simulate-history on {os.cpu_count()} CPUs: "
            f"JSON Lines file ({megabytes:.0f} MB) {seconds['jsonl']:.2f} s, "
            f"pandas DataFrame {seconds['pandas']:.2f} s ({seconds['jsonl'] / seconds['pandas']:.2f}x), "
            f"polars DataFrame {seconds['polars']:.2f} s ({seconds['jsonl'] / seconds['polars']:.2f}x)"
        )


def test_a_million_rows_audit_the_same_from_every_form(million: dict[str, Any]) -> None:
    from_file = fairmines.audit(million["csv"])
    assert from_file.rows_read == ROWS and from_file.malformed == 0
    assert fairmines.audit(million["polars"]) == from_file
    assert fairmines.audit(million["jsonl"]) == from_file


def test_a_mistyped_column_is_one_error_naming_it_and_its_type() -> None:
    frame = pd.DataFrame(genuine_rows(1, 50))
    frame["nonce"] = frame["nonce"].astype(str)
    frame["commitment"] = 7
    for name, given in frames(frame.to_dict("records")).items():
        with pytest.raises(ValueError) as raised:
            fairmines.verify_history(given)
        message = str(raised.value)
        commitment, nonce = message.split("; ")
        assert commitment == 'history: commitment: the column "commitment" is of type Int64, the field takes text', name
        assert nonce.startswith('nonce: the column "nonce" is of type ') and "Utf8" in nonce, name
        assert nonce.endswith(", the field takes integers (or floats that are whole numbers)"), name


def test_a_parquet_path_is_read_as_its_table(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    rows = typed_rows()
    path = tmp_path / "history.parquet"
    pq.write_table(pa.Table.from_pandas(pd.DataFrame(rows), preserve_index=False), path, row_group_size=100)
    expected = fairmines.verify_history(rows)
    assert fairmines.verify_history(path) == expected
    assert fairmines.verify_history(str(path)) == expected
    assert fairmines.audit(path) == fairmines.audit(rows)
