"""verify_history and audit: every fault kind counted through the Python API, dict rows,
files and file objects, progress, the GIL released, pandas, merge and pickling, and the audit's counts
replayed against mine_positions / draw_order."""

from __future__ import annotations

import copy
import csv
import dataclasses
import gzip
import io
import json
import pickle
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fairmines
from conftest import REPO_ROOT
from history_data import FAULTY_SUMMARY, faulty_lines, faulty_rows, genuine_rows, other_positions

SAMPLES = REPO_ROOT / "examples" / "history"


@pytest.fixture(scope="module")
def faulty_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("history") / "faulty.jsonl"
    path.write_text("".join(faulty_lines()), encoding="utf-8")
    return path


def test_the_sample_histories_check_out_in_both_formats() -> None:
    jsonl = fairmines.verify_history(SAMPLES / "history.jsonl")
    csv = fairmines.verify_history(str(SAMPLES / "history.csv"))
    assert jsonl.ok and bool(jsonl) and jsonl.failures == ()
    assert jsonl.summary.rows_read == jsonl.summary.ok == 60
    assert csv.summary == jsonl.summary


def test_every_fault_kind_is_reported_and_counted(faulty_path: Path) -> None:
    report = fairmines.verify_history(faulty_path)
    assert not report.ok and not report
    assert report.summary.to_dict() == FAULTY_SUMMARY
    s = report.summary
    assert s.ok + s.mismatched + s.malformed == s.rows_read
    kinds = Counter(f.kind for f in report.failures)
    assert kinds == {"positions": 1, "commitment": 1, "duplicate_nonce": 1, "malformed": 4, "nonce_gap": 2}
    by_kind = {f.kind: f for f in report.failures}
    rows = faulty_rows()
    tampered = next(r for r in rows if r["round_id"] == "p0n10")
    positions = by_kind["positions"]
    assert positions.round_id == "p0n10" and positions.field == "positions"
    assert positions.expected == ",".join(map(str, fairmines.mine_positions("server-seed-0", "client-seed-0", 10, 11)))
    assert positions.declared == ",".join(map(str, tampered["positions"]))
    assert positions.line is not None and json.loads(faulty_lines()[positions.line - 1])["round_id"] == "p0n10"
    commitment = by_kind["commitment"]
    assert (commitment.expected, commitment.declared) == (fairmines.commitment("server-seed-0"), "00" * 32)
    assert by_kind["duplicate_nonce"].round_id == "dup" and by_kind["duplicate_nonce"].nonce == 40
    gaps = sorted((f.nonce, f.last_nonce, f.line) for f in report.failures if f.kind == "nonce_gap")
    # A gap is on the line of the row right after it (p0n31, p1n61); the row of nonce 50 (mines "3") has its
    # seeds and nonce, so it is no gap.
    line_of = {}
    for i, line in enumerate(faulty_lines()):
        if line.endswith("}\n"):  # not the broken line nor the cut last one
            line_of[json.loads(line)["round_id"]] = i + 1
    assert gaps == [(30, 30, line_of["p0n31"]), (60, 60, line_of["p1n61"])]
    malformed = [f for f in report.failures if f.kind == "malformed"]
    assert [f.field for f in malformed] == [None, "mines", "client_seed", None]
    assert malformed[1].message.startswith("mines: must be an integer")
    assert malformed[2].message == "client_seed: missing"
    assert "truncated" in malformed[3].message and malformed[3].line == len(faulty_lines())


def test_dict_rows_are_checked_like_lines() -> None:
    rows = faulty_rows()
    report = fairmines.verify_history(rows)
    expected = dict(
        FAULTY_SUMMARY, rows_read=len(rows), ok=len(rows) - 5, malformed=2, unterminated_last_line=False, failures_listed=7
    )
    assert report.summary.to_dict() == expected
    # Row i is line i + 1; a generator streams the same rows.
    first = next(f for f in report.failures if f.kind == "positions")
    assert first.line is not None and rows[first.line - 1]["round_id"] == "p0n10"
    assert fairmines.verify_history(r for r in rows) == report
    # The genuine rows with numpy integers and tuples, as they come out of numpy/pandas.
    genuine = [dict(r, nonce=np.uint64(r["nonce"]), mines=np.int64(r["mines"]), positions=tuple(r["positions"])) for r in genuine_rows()]
    assert fairmines.verify_history(genuine).summary.ok == len(genuine)


def test_numpy_integers_inside_positions_are_tile_numbers() -> None:
    """numpy integers as the items of `positions` are integers (they were malformed: `got {}`)."""
    rows = genuine_rows(pairs=1, rounds=30)
    for convert in (
        lambda p: [np.int64(t) for t in p],
        lambda p: tuple(np.uint8(t) for t in p),
        lambda p: np.array(p, dtype=np.int32),
        lambda p: [np.float64(t) for t in p],  # whole floats count as integers (the core's Number rule)
    ):
        converted = [dict(r, positions=convert(r["positions"])) for r in rows]
        report = fairmines.verify_history(converted)
        assert report.ok and report.summary.ok == len(rows), report.failures[:1]
    bad = [dict(rows[0], positions=[np.float32(7.5), 1])]
    assert fairmines.verify_history(bad).failures[0].message.startswith("positions: tile 7.5 at index 0 is not between 1 and 25")


def test_what_pandas_makes_of_a_csv_is_read_as_written() -> None:
    """Numeric client seeds become ints and integer columns with a gap become floats in pd.read_csv: a seed
    that is an integer is read as its digits, and a whole float counts as an integer."""
    server = "server-seed-0"
    rows = [
        {"round_id": float(n), "server_seed": server, "commitment": fairmines.commitment(server), "client_seed": 12345,
         "nonce": float(n), "mines": 3.0, "positions": ",".join(map(str, fairmines.mine_positions(server, "12345", n, 3)))}
        for n in range(20)
    ]  # fmt: skip
    report = fairmines.verify_history(rows)
    assert report.ok and report.summary.ok == 20
    rows[3]["nonce"] = float("nan")  # a missing value
    assert fairmines.verify_history(rows).failures[0].message == "nonce: missing"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("mines", "3", "mines: must be an integer, got a string"),
        ("nonce", 5.5, "nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got 5.5"),
        ("nonce", True, "nonce: must be an integer, got a boolean"),
        ("nonce", -1, "nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -1"),
        ("nonce", float("nan"), "nonce: missing"),
        ("client_seed", None, "client_seed: missing"),
        ("client_seed", 7.5, "client_seed: must be a string, got 7.5 (a number is read as its digits only when"),
        ("server_seed", b"bytes", "server_seed: must be a string, got an object"),
        ("positions", [1, "x", 3], "positions: item 1 must be an integer tile number"),
        ("positions", {"a": 1}, "positions: must be a string like"),
        ("mines", 2**70, "mines: must be a whole number from 1 to 24, got"),
    ],
)
def test_dict_rows_with_wrong_types_are_malformed(field: str, value: Any, message: str) -> None:
    rows = genuine_rows(pairs=1, rounds=3)
    rows[1][field] = value
    report = fairmines.verify_history(rows)
    assert (report.summary.rows_read, report.summary.malformed, report.summary.ok) == (3, 1, 2)
    failure = next(f for f in report.failures if f.kind == "malformed")
    assert failure.line == 2 and failure.round_id == "p0n1"
    assert failure.message.startswith(message), failure.message


def test_rows_that_are_not_dicts_are_malformed() -> None:
    rows: list[Any] = [*genuine_rows(pairs=1, rounds=2), ["not", "a", "dict"], "text", None]
    report = fairmines.verify_history(rows)
    assert (report.summary.ok, report.summary.malformed) == (2, 3)
    assert [f.message for f in report.failures] == [
        "row: must be a JSON object, got an array",
        "row: must be a JSON object, got a string",
        "row: must be a JSON object, got null",
    ]


def test_files_and_file_objects(faulty_path: Path, tmp_path: Path) -> None:
    expected = fairmines.verify_history(faulty_path)
    data = faulty_path.read_bytes()
    with faulty_path.open("rb") as f:
        assert fairmines.verify_history(f) == expected
    assert fairmines.verify_history(io.BytesIO(data), format="jsonl") == expected
    packed = tmp_path / "h.jsonl.gz"
    packed.write_bytes(gzip.compress(data))
    with gzip.open(packed) as g:
        assert fairmines.verify_history(g).summary == expected.summary
    # No extension: the format comes from the first byte.
    plain = tmp_path / "history"
    plain.write_bytes((SAMPLES / "history.csv").read_bytes())
    assert fairmines.verify_history(plain).summary.ok == 60
    assert fairmines.verify_history(plain, format="csv").summary.ok == 60


def test_bad_arguments_raise_with_the_argument_named(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="^history: must be a path"):
        fairmines.verify_history(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="io.BytesIO"):
        fairmines.verify_history(b"{}")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a single dict"):
        fairmines.verify_history({"nonce": 1})  # type: ignore[dict-item]
    with pytest.raises(FileNotFoundError, match="history: ") as missing:
        fairmines.verify_history(tmp_path / "missing.jsonl")
    assert missing.value.filename == str(tmp_path / "missing.jsonl")
    with pytest.raises(ValueError, match="^format: must be auto, jsonl or csv"):
        fairmines.verify_history(SAMPLES / "history.csv", format="xml")
    with pytest.raises(ValueError, match="^format: only for a path or a file"):
        fairmines.verify_history([], format="csv")
    with pytest.raises(ValueError, match="^threads: "):
        fairmines.verify_history([], threads=-1)
    with pytest.raises(TypeError, match="^threads: must be int"):
        fairmines.verify_history([], threads=True)
    with pytest.raises(TypeError, match="^progress: must be a callable"):
        fairmines.verify_history([], progress=3)  # type: ignore[arg-type]
    with (SAMPLES / "history.csv").open(encoding="utf-8") as text:
        with pytest.raises(TypeError, match="binary mode"):
            fairmines.verify_history(text)  # type: ignore[arg-type]
    header = tmp_path / "bad.csv"
    header.write_text("round_id,nonce\nr1,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="^history: header: "):
        fairmines.verify_history(header)


def test_an_exception_in_the_iterable_stops_the_run() -> None:
    def rows() -> Any:
        yield from genuine_rows(pairs=1, rounds=10)
        raise KeyError("the export broke")

    with pytest.raises(KeyError, match="the export broke"):
        fairmines.verify_history(rows())


def write_big(path: Path, rounds: int) -> None:
    """One seed pair, `rounds` genuine 3-mine rounds (positions from mine_positions_batch)."""
    server, client = "big-server", "big-client"
    commitment = fairmines.commitment(server)
    boards = fairmines.mine_positions_batch(server, client, range(rounds), 3)
    head = f'{{"server_seed":"{server}","commitment":"{commitment}","client_seed":"{client}","mines":3,'
    with path.open("w", encoding="utf-8") as f:
        for nonce, (a, b, c) in enumerate(boards.tolist()):
            f.write(f'{head}"nonce":{nonce},"positions":"{a},{b},{c}"}}\n')


@pytest.fixture(scope="module")
def big_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    write_big(path, 60_000)
    return path


def test_progress_is_called_and_can_stop_the_run(big_path: Path) -> None:
    calls: list[tuple[int, int]] = []
    report = fairmines.verify_history(big_path, progress=lambda rows, read: calls.append((rows, read)))
    assert report.ok and report.summary.rows_read == 60_000
    assert len(calls) >= 60_000 // 2048
    assert [r for r, _ in calls] == sorted(r for r, _ in calls) and calls[-1][0] == 60_000
    assert calls[-1][1] == big_path.stat().st_size

    seen: list[int] = []

    def stop(rows: int, _read: int) -> None:
        seen.append(rows)
        if rows >= 4096:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        fairmines.verify_history(big_path, progress=stop)
    assert seen[-1] == 4096
    dict_calls: list[int] = []
    fairmines.verify_history(genuine_rows(pairs=2, rounds=3000), progress=lambda rows, _: dict_calls.append(rows))
    assert dict_calls[-1] == 6000


def test_the_gil_is_released_during_a_verify(big_path: Path) -> None:
    """Another Python thread runs while verify_history works: with the GIL held (and no progress
    callback, so no Python code in between) this thread could not count at all until it returned."""
    results: list[fairmines.HistoryReport] = []
    worker = threading.Thread(target=lambda: results.append(fairmines.verify_history(big_path, threads=1)))
    counted = 0
    worker.start()
    while worker.is_alive():
        counted += 1
    worker.join()
    assert results[0].summary.rows_read == 60_000
    assert counted > 10_000, counted


def test_to_pandas(faulty_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    report = fairmines.verify_history(faulty_path)
    frame = report.to_pandas()
    assert list(frame.columns) == [
        "line", "round_id", "kind", "field", "expected", "declared",
        "nonce", "last_nonce", "pair_commitment", "client_seed", "message",
    ]  # fmt: skip
    assert len(frame) == len(report.failures)
    assert frame["kind"].value_counts().to_dict() == Counter(f.kind for f in report.failures) | {"play": 0, "nonce_past_end": 0}
    assert str(frame["line"].dtype) == "Int64" and str(frame["nonce"].dtype) == "UInt64"
    positions = next(i for i, f in enumerate(report.failures) if f.kind == "positions")
    assert frame.iloc[positions]["round_id"] == report.failures[positions].round_id == "p0n10"
    assert frame.iloc[positions]["line"] == report.failures[positions].line
    assert frame["line"].isna().sum() == 0  # every failure has its line, the gaps too
    assert [f.to_dict()["message"] for f in report.failures] == list(frame["message"])
    empty = fairmines.verify_history(SAMPLES / "history.jsonl").to_pandas()
    assert isinstance(empty, pd.DataFrame) and len(empty) == 0 and len(empty.columns) == 11
    big = fairmines.verify_history([dict(genuine_rows(1, 1)[0], nonce=2**64 - 1, positions=[1])]).to_pandas()
    assert int(big["nonce"][0]) == 2**64 - 1


def test_to_pandas_without_pandas(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"to_pandas needs pandas, .*\(pip install pandas\)"):
        fairmines.verify_history([]).to_pandas()


def test_reports_of_parts_merge_to_the_whole(faulty_path: Path) -> None:
    lines = faulty_lines()
    whole = fairmines.verify_history(faulty_path)
    # Cut through seed pairs, between the duplicate's two rows, and next to the removed row.
    dup = next(i for i, line in enumerate(lines) if '"dup"' in line)
    gap = next(i for i, line in enumerate(lines) if '"p0n31"' in line)
    for cuts in ([dup], [gap, dup], [7, gap, 150, dup, 300], list(range(25, len(lines), 25))):
        bounds = [0, *cuts, len(lines)]
        parts = [fairmines.verify_history(io.BytesIO("".join(lines[a:b]).encode())) for a, b in zip(bounds, bounds[1:])]
        merged = fairmines.HistoryReport()
        for part in parts:
            merged = merged.merge(part)
        assert merged.summary == whole.summary, cuts
        assert sorted(f.kind for f in merged.failures) == sorted(f.kind for f in whole.failures)
    # The empty report (what merging starts from) has no rounds: not ok.
    assert not fairmines.HistoryReport().ok and fairmines.HistoryReport().summary.rows_read == 0


def test_reports_pickle_and_round_trip_through_json(faulty_path: Path) -> None:
    report = fairmines.verify_history(faulty_path)
    assert pickle.loads(pickle.dumps(report)) == report
    assert fairmines.HistoryReport.from_json(report.to_json()) == report
    assert "server-seed" not in report.to_json()
    with pytest.raises(fairmines.InvalidStateError, match="^json: ") as bad:
        fairmines.HistoryReport.from_json("{")
    assert bad.value.argument == "json"
    assert repr(report) == (
        "<HistoryReport FAILED: 361 rows read: 354 ok, 3 failed (commitment 1, positions 1, duplicate nonce 1), "
        "4 malformed; 2 nonce gaps (2 missing); 9 failures found, all listed>"
    )
    assert repr(report.failures[0]).startswith("<Failure malformed line 6: row: incomplete JSON")
    assert repr(report.failures[1]).startswith("<Failure positions line 12 round 'p0n10': positions: the seeds give")


def test_report_objects_are_frozen_values(faulty_path: Path) -> None:
    report, audit = fairmines.verify_history(faulty_path), fairmines.audit(faulty_path)
    failure, summary, mine = report.failures[0], report.summary, audit.by_mines[0]
    for value in (report, audit, failure, summary, mine, mine.chi_square):
        with pytest.raises(AttributeError):
            value.ok = True  # type: ignore[misc, union-attr]
    # The parts are values (equal, hashable); the reports compare but do not hash, as before.
    assert failure == copy.copy(failure) and hash(failure) == hash(copy.copy(failure)) and summary == report.summary
    assert pickle.loads(pickle.dumps(failure)) == failure and pickle.loads(pickle.dumps(mine)) == mine
    for unhashable in (report, audit):
        with pytest.raises(TypeError):
            hash(unhashable)
    with pytest.raises(TypeError, match="^other: must be HistoryReport, not AuditReport"):
        report.merge(audit)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^other: must be AuditReport, not int"):
        audit.merge(3)  # type: ignore[arg-type]
    assert report.failures is report.failures and failure.to_dict()["kind"] == failure.kind
    # A Failure is built from the dict Rust hands over (no __init__): the same fields, the same object.
    assert list(vars(failure)) == [field.name for field in dataclasses.fields(fairmines.Failure)]
    assert fairmines.Failure(**vars(failure)) == failure


# --- audit -------------------------------------------------------------------------------------


def test_seed_pair_audit_counts_are_the_rounds() -> None:
    nonces = range(1000, 6000)
    report = fairmines.audit(server_seed="audit-s", client_seed="audit-c", nonces=nonces, mines=[5, 1])
    assert [m.mines for m in report.by_mines] == [1, 5]
    for m in report.by_mines:
        boards = fairmines.mine_positions_batch("audit-s", "audit-c", nonces, m.mines)
        assert m.rounds == len(nonces)
        assert m.tile_counts == tuple(int(c) for c in np.bincount(boards.ravel(), minlength=26)[1:])
        assert m.chi_square is not None and m.chi_square.degrees_of_freedom == 24
    singles = fairmines.mine_positions_batch("audit-s", "audit-c", nonces, 1)
    assert report.first_draw_counts == report.by_mines[0].tile_counts
    assert sum(report.first_draw_counts) == len(singles)
    assert report.rows_read == 2 * len(nonces)
    # Both mine counts come from the same nonces: no sum of their statistics, Holm's p-values instead.
    assert report.shared_rounds and report.combined is None
    assert [p.name for p in report.p_values] == ["1 mines", "5 mines", "first draw", "holm", "overall"]
    assert report.overall_p_value == min(1.0, 3 * min(m.chi_square.p_value for m in report.by_mines if m.chi_square))
    assert "valid under any dependence" in report.p_values[-1].what


def test_history_audit_counts_declared_positions_and_first_draws(faulty_path: Path) -> None:
    report = fairmines.audit(faulty_path)
    good = [json.loads(line) for line in faulty_lines()[:-1] if line.startswith("{") and line.endswith("}\n")]
    readable = [r for r in good if isinstance(r.get("mines"), int) and "client_seed" in r]
    assert (report.rows_read, report.malformed, report.skipped) == (361, 4, 0)
    tiles: dict[int, Counter[int]] = {}
    first: Counter[int] = Counter()
    for r in readable:
        tiles.setdefault(r["mines"], Counter()).update(r["positions"])
        first[fairmines.draw_order(r["server_seed"], r["client_seed"], r["nonce"], r["mines"])[0] + 1] += 1
    assert {m.mines: m.tile_counts for m in report.by_mines} == {
        m: tuple(c[t] for t in range(1, 26)) for m, c in tiles.items()
    }
    assert report.first_draw_counts == tuple(first[t] for t in range(1, 26))
    assert fairmines.audit(faulty_rows()[:-1]).by_mines == report.by_mines  # the last line is cut short


def test_audit_p_values_see_bias_and_not_the_genuine_algorithm() -> None:
    genuine = fairmines.audit(server_seed="p-s", client_seed="p-c", nonces=range(20_000), mines=[1, 3, 12])
    assert genuine.combined is None and genuine.overall_p_value is not None and genuine.overall_p_value > 1e-4
    # Plain modulo over a tiny range: tile = word mod 25 with words in 0..40 favours tiles 1..15.
    biased = [
        {"server_seed": "b", "commitment": fairmines.commitment("b"), "client_seed": "c", "nonce": n, "mines": 1, "positions": [n * 7919 % 40 % 25 + 1]}
        for n in range(4000)
    ]
    report = fairmines.audit(biased)
    mine = report.by_mines[0]
    assert mine.chi_square is not None and mine.chi_square.p_value < 1e-12


def test_the_verdict_is_the_cores_in_words_and_levels() -> None:
    """Python shows the core's verdict (the CLI's words); it does not judge a p-value on its own."""
    genuine = fairmines.audit(server_seed="p-s", client_seed="p-c", nonces=range(5000), mines=[3])
    verdict = genuine.verdict
    assert isinstance(verdict, fairmines.Verdict) and verdict.level == "consistent"
    assert verdict.words == "consistent with fair draws" and verdict.rounds == 5000
    assert verdict.p_value == genuine.overall_p_value
    assert verdict.thresholds == {"unusual": 0.01, "strong_evidence": 1e-06, "min_rounds": 125}
    assert isinstance(verdict.largest_deviation, fairmines.TileDeviation) and 1 <= verdict.largest_deviation.tile <= 25
    assert str(verdict) in genuine.how_to_read() and verdict.words in repr(genuine)
    assert verdict.words in genuine._repr_html_()
    # Tile 13 never a mine in 3,000 one-mine rounds: strong evidence, and the effect size says which tile.
    biased = [
        {"server_seed": "b", "commitment": fairmines.commitment("b"), "client_seed": "c", "nonce": n, "mines": 1, "positions": [n % 24 + 1 + (n % 24 >= 12)]}
        for n in range(3000)
    ]
    strong = fairmines.audit(biased).verdict
    assert (strong.level, strong.words) == ("strong_evidence", "strong evidence of bias")
    assert strong.largest_deviation is not None and strong.largest_deviation.tile == 13 and strong.largest_deviation.percent == -100.0
    # Four rounds: too few to say anything, whatever the p-values.
    few = fairmines.audit(biased[:4]).verdict
    assert few.level == "too_few_rounds" and few.words == "too few rounds to say anything" and few.rounds == 4
    assert fairmines.AuditReport().verdict.level == "too_few_rounds"


def test_audit_reports_merge_pickle_and_draw() -> None:
    rows = genuine_rows()
    whole = fairmines.audit(rows)
    parts = [fairmines.audit(rows[:100]), fairmines.audit(rows[100:250]), fairmines.audit(rows[250:])]
    merged = fairmines.AuditReport()
    for part in parts:
        merged = merged.merge(part)
    assert merged == whole
    assert pickle.loads(pickle.dumps(whole)) == whole
    assert fairmines.AuditReport.from_json(whole.to_json()) == whole
    svg = whole.heatmap_svg("a <b> & c")
    assert svg.startswith("<svg") and "a &lt;b&gt; &amp; c" in svg and svg.count("<rect") == 26
    assert "tiles  1-5" in whole.heatmap_text()
    assert repr(whole).startswith("<AuditReport 360 rounds over 24 mine count(s)")
    # A history's rows are rounds of their own: the combined test of its mine counts is valid, and there.
    assert not whole.shared_rounds and whole.combined is not None and whole.combined.degrees_of_freedom == 24 * 24
    assert [p.name for p in whole.p_values][24:] == ["combined", "first draw", "holm", "overall"]


def test_audit_arguments() -> None:
    with pytest.raises(TypeError, match="not both"):
        fairmines.audit(genuine_rows(1, 1), server_seed="s")
    with pytest.raises(TypeError, match="^audit: give a history"):
        fairmines.audit()
    with pytest.raises(TypeError, match="needs nonces"):
        fairmines.audit(server_seed="s", client_seed="c", mines=3)
    with pytest.raises(ValueError, match="^nonces: must be a range with step 1"):
        fairmines.audit(server_seed="s", client_seed="c", nonces=range(0, 10, 2), mines=3)
    with pytest.raises(fairmines.InvalidMinesError, match="^mines: "):
        fairmines.audit(server_seed="s", client_seed="c", nonces=range(10), mines=[3, 25])
    with pytest.raises(fairmines.InvalidNonceError):
        fairmines.audit(server_seed="s", client_seed="c", nonces=range(-1, 10), mines=3)
    with pytest.raises(TypeError, match="every core"):
        fairmines.audit(server_seed="s", client_seed="c", nonces=range(10), mines=3, threads=2)
    calls: list[int] = []
    fairmines.audit(server_seed="s", client_seed="c", nonces=range(70_000), mines=3, progress=lambda r, _: calls.append(r))
    assert calls[-1] == 70_000


# --- compressed paths, JSON arrays, delimiters, column names, progress totals ----------------


def test_gzip_paths_json_arrays_delimiters_and_column_names(faulty_path: Path, tmp_path: Path) -> None:
    expected = fairmines.verify_history(faulty_path)
    packed = tmp_path / "faulty.jsonl.gz"
    packed.write_bytes(gzip.compress(faulty_path.read_bytes()))
    assert fairmines.verify_history(packed) == expected
    with packed.open("rb") as raw:  # a plain binary file of gzip: recognised by its first bytes too
        assert fairmines.verify_history(raw) == expected
    csv_packed = tmp_path / "history.csv.gz"
    csv_packed.write_bytes(gzip.compress((SAMPLES / "history.csv").read_bytes()))
    assert fairmines.verify_history(csv_packed).summary.ok == 60
    # One JSON array is not JSON Lines: said so, whatever the extension.
    array = json.dumps(genuine_rows(pairs=1, rounds=3), indent=2)
    for name in ("rows.json", "rows.jsonl", "rows"):
        (tmp_path / name).write_text(array, encoding="utf-8")
        with pytest.raises(ValueError, match=r"^history: input: the history is one JSON array \(\[\.\.\.\]\), not JSON Lines") as err:
            fairmines.verify_history(tmp_path / name)
        assert "truncated" not in str(err.value)
    # A semicolon-separated export with its own column names.
    lines = (SAMPLES / "history.csv").read_text(encoding="utf-8").splitlines()
    parsed = list(__import__("csv").reader(lines))
    out = io.StringIO()
    writer = __import__("csv").writer(out, delimiter=";")
    writer.writerow(["Server Seed" if c == "server_seed" else c for c in parsed[0]])
    writer.writerows(parsed[1:])
    semicolons = tmp_path / "export.csv"
    semicolons.write_text(out.getvalue(), encoding="utf-8")
    columns = {"Server Seed": "server_seed"}
    assert fairmines.verify_history(semicolons, delimiter=";", columns=columns).summary.ok == 60
    assert fairmines.audit(semicolons, delimiter=";", columns=columns) == fairmines.audit(SAMPLES / "history.csv")
    with pytest.raises(ValueError, match="^history: header: the CSV header must name the columns"):
        fairmines.verify_history(semicolons)
    with pytest.raises(ValueError, match=r'^delimiter: must be one ASCII character other than a quote or a line break \(such as ";" or "\\t"\), got ";;"'):
        fairmines.verify_history(semicolons, delimiter=";;")
    with pytest.raises(TypeError, match="^delimiter: must be str, not int"):
        fairmines.verify_history(semicolons, delimiter=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="^audit: format, threads, columns and delimiter are for histories"):
        fairmines.audit(server_seed="s", client_seed="c", nonces=range(3), mines=3, delimiter=";")


def test_progress_has_the_files_total_and_drives_a_tqdm_bar(big_path: Path, tmp_path: Path) -> None:
    size = big_path.stat().st_size
    seen: list[tuple[int, int, int | None]] = []
    fairmines.verify_history(big_path, progress=lambda rows, read, total: seen.append((rows, read, total)))
    assert seen[-1] == (60_000, size, size)
    with big_path.open("rb") as f:
        f.readline()  # a file object is read from where it stands: the total is what is left
        left = size - f.tell()
        fairmines.verify_history(f, progress=lambda rows, read, total: seen.append((rows, read, total)))
        assert seen[-1] == (59_999, left, left)
    tqdm = pytest.importorskip("tqdm")
    with tqdm.tqdm(file=io.StringIO(), unit="B", unit_scale=True) as bar:
        fairmines.verify_history(big_path, progress=bar)
        assert (bar.total, bar.n) == (size, size)
    with tqdm.tqdm(total=size, file=io.StringIO()) as bar:
        fairmines.verify_history(big_path, progress=bar.update)  # increments
        assert bar.n == size
    packed = tmp_path / "big.jsonl.gz"
    packed.write_bytes(gzip.compress(big_path.read_bytes(), compresslevel=1))
    totals: list[tuple[int, int | None]] = []
    fairmines.verify_history(packed, progress=lambda rows, read, total: totals.append((read, total)))
    assert totals[-1] == (packed.stat().st_size, packed.stat().st_size)  # the bytes read are compressed ones
    rows: list[int] = []
    fairmines.verify_history(genuine_rows(pairs=2, rounds=3000), progress=lambda n: rows.append(n))
    assert sum(rows) == 6000


# --- the audit as a table, per-mine heatmaps, Holm, notebooks ---------------------------------


def holm(p: list[float]) -> list[float]:
    """Holm's step-down adjustment, written out."""
    order = sorted(range(len(p)), key=p.__getitem__)
    adjusted, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def test_audit_as_a_tidy_frame_with_z_scores_and_holm_p_values() -> None:
    report = fairmines.audit(server_seed="t-s", client_seed="t-c", nonces=range(5000), mines=[1, 3, 12])
    frame = report.to_pandas()
    assert list(frame.columns) == ["mines", "tile", "count", "expected", "z"] and len(frame) == 75
    assert [str(t) for t in frame.dtypes] == ["int64", "int64", "int64", "float64", "float64"]
    for m in report.by_mines:
        part = frame[frame["mines"] == m.mines]
        assert tuple(part["count"]) == m.tile_counts and list(part["tile"]) == list(range(1, 26))
        p = m.mines / 25
        assert m.expected == pytest.approx(m.rounds * p) and set(part["expected"]) == {m.expected}
        z = [(c - m.expected) / (m.rounds * p * (1 - p)) ** 0.5 for c in m.tile_counts]
        assert list(part["z"]) == pytest.approx(z) and m.z_scores == pytest.approx(z)
    p_values = [m.chi_square.p_value for m in report.by_mines if m.chi_square]
    assert [m.holm_p_value for m in report.by_mines] == pytest.approx(holm(p_values))
    assert report.holm_p_value == min(m.holm_p_value for m in report.by_mines if m.holm_p_value is not None)
    assert all(m.holm_p_value is not None and m.chi_square and m.holm_p_value >= m.chi_square.p_value for m in report.by_mines)
    grid = frame.pivot(index="tile", columns="mines", values="z")
    assert grid.shape == (25, 3)
    empty = fairmines.AuditReport()
    assert len(empty.to_pandas()) == 0 and empty.holm_p_value is None and empty.how_to_read() == "No rounds: nothing was tested."


def test_per_mine_heatmaps_and_notebook_display(faulty_path: Path) -> None:
    report = fairmines.audit(server_seed="t-s", client_seed="t-c", nonces=range(5000), mines=[1, 3, 12])
    three = report.heatmap_svg("three", mines=3)
    assert "5000 rounds with 3 mines: chi-square" in three and "first draw" not in three
    assert report.heatmap_text(mines=3) != report.heatmap_text() and "tiles  1-5" in report.heatmap_text(mines=12)
    assert report.heatmap_text(mines=5) == "no rounds to show\n"
    with pytest.raises(fairmines.InvalidMinesError, match="^mines: must be a whole number from 1 to 24, got 25"):
        report.heatmap_svg(mines=25)
    assert report._repr_svg_() == report.heatmap_svg()
    shown = report._repr_html_()
    assert shown.startswith("<p><b>&lt;AuditReport 15000 rounds") and shown.count("<tr>") == 1 + 3 + 2
    assert "Holm p-value" in shown and report.how_to_read() in shown.replace("&#x27;", "'") and "<svg" in shown
    assert "<td>combined</td>" not in shown and "<td>all tests</td>" in shown  # a seed pair: no combined test
    assert "3 mine count(s) tested" in report.how_to_read()
    assert f"the smallest is {report.holm_p_value:.4f}" in report.how_to_read()
    history = fairmines.verify_history(faulty_path)._repr_html_()
    assert "FAILED" in history and "<td>positions: the seeds give" in history and history.count("<table>") == 2
    many = fairmines.verify_history([{"nonce": n} for n in range(25)])._repr_html_()
    assert "The first 20 of the 25 listed failures are shown" in many


def _played(row: dict[str, Any], lost: bool) -> dict[str, Any]:
    """The row with a play: two safe picks, then a mine when ``lost``, at RTP 99/100."""
    mines = set(row["positions"])
    picks = [t for t in range(1, 26) if t not in mines][:2] + ([min(mines)] if lost else [])
    multiplier = None if lost else str(fairmines.multiplier(row["mines"], 2, "99/100"))
    outcome = "lost" if lost else "cashed_out"
    return {**row, "rtp": "99/100", "picks": picks, "outcome": outcome, "multiplier": multiplier}


def test_a_rows_picks_outcome_and_multiplier_are_checked_when_given() -> None:
    rows = [_played(row, lost=i % 2 == 1) for i, row in enumerate(genuine_rows(1, 6)) if row["mines"] <= 20]
    assert fairmines.verify_history(rows).ok
    forged = [dict(row) for row in rows]
    forged[1].update(outcome="cashed_out", multiplier="1000")
    report = fairmines.verify_history(forged)
    assert (report.summary.play_mismatches, report.summary.mismatched) == (1, 1)
    assert [(f.kind, f.line, f.field, f.message) for f in report.failures] == [
        ("play", 2, "outcome", "outcome: the record says cashed_out, the picks give lost"),
        ("play", 2, "multiplier", "multiplier: the record says 1000, the picks give none"),
    ]


def test_a_malformed_row_with_a_readable_nonce_is_not_also_a_gap() -> None:
    rows = genuine_rows(1, 5)
    rows[2]["mines"] = 25
    report = fairmines.verify_history(rows)
    assert (report.summary.malformed, report.summary.nonce_gaps) == (1, 0)
    assert report.failures[0].nonce == 2


def test_an_empty_history_is_not_ok() -> None:
    report = fairmines.verify_history([])
    assert report.summary.rows_read == 0
    assert not report.ok and not report


def test_max_failures_caps_the_failures_kept() -> None:
    rows = genuine_rows(1, 30)
    for row in rows:
        row["commitment"] = "00" * 32
    report = fairmines.verify_history(rows, max_failures=5)
    assert len(report.failures) == 5
    assert (report.summary.commitment_mismatches, report.summary.failures_omitted) == (30, 25)
    assert (report.summary.failures_listed, report.summary.failures_found) == (5, 30)
    assert len(fairmines.verify_history(rows, max_failures=None).failures) == 30
    with pytest.raises(TypeError, match="max_failures"):
        fairmines.verify_history(rows, max_failures="5")  # type: ignore[arg-type]
    with pytest.raises(fairmines.InvalidNumberError, match="^max_failures: must be an integer of at least 0, got -1$"):
        fairmines.verify_history(rows, max_failures=-1)


def test_revealed_pairs_report_rounds_missing_at_either_end() -> None:
    server, client = "ab" * 32, "client"
    revealed = fairmines.SeedPair.from_parts(server, client, 8).rotate()
    assert revealed.rounds == 8
    rows = [
        {
            "server_seed": server,
            "commitment": fairmines.commitment(server),
            "client_seed": client,
            "nonce": nonce,
            "mines": 3,
            "positions": fairmines.mine_positions(server, client, nonce, 3),
        }
        for nonce in range(2, 6)
    ]
    assert fairmines.verify_history(rows).ok
    report = fairmines.verify_history(rows, revealed=[revealed])
    assert not report.ok
    gaps = sorted((f.nonce, f.last_nonce) for f in report.failures if f.kind == "nonce_gap")
    assert gaps == [(0, 1), (6, 7)]
    with pytest.raises(TypeError, match="revealed"):
        fairmines.verify_history(rows, revealed=["x"])  # type: ignore[list-item]


PAYOUT_EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "history" / "payout.jsonl"


def test_the_payout_audit_is_the_cores() -> None:
    report = fairmines.audit(PAYOUT_EXAMPLE)
    payout = report.payout
    assert isinstance(payout, fairmines.PayoutAudit)
    rows = [json.loads(line) for line in PAYOUT_EXAMPLE.read_text().splitlines()]
    overall = payout.overall
    assert (overall.key, overall.rounds, overall.staked_rounds) == ("all", 12, 12)
    assert overall.stake_total == sum(r["stake"] for r in rows) and overall.payout_total == sum(r["payout"] for r in rows)
    assert overall.realised_return == pytest.approx(overall.payout_total / overall.stake_total)
    assert overall.ci_low is not None and overall.ci_high is not None and overall.realised_return is not None
    assert overall.ci_low < overall.realised_return < overall.ci_high
    assert overall.declared_rtp == 0.99 and overall.declared_rtps == ("99/100",) and overall.declared_inside is True
    assert [g.key for g in payout.by_mines] == ["3"] and [g.key for g in payout.by_player] == ["ann", "bob"]
    assert [g.key for g in payout.by_currency] == ["EUR"] and payout.groups_omitted == 0
    first = payout.hit_rates[0]
    assert (first.mines, first.pick, first.reveals, first.expected_exact, first.expected) == (3, 1, 12, "22/25", 22 / 25)
    frame = payout.to_pandas()
    assert list(frame["by"]) == ["all", "mines", "currency", "player", "player", "seed_pair"]
    assert list(frame.columns[:3]) == ["by", "key", "rounds"] and frame["declared_rtps"][0] == "99/100"
    hits = payout.hit_rates_to_pandas()
    assert list(hits.columns) == ["mines", "pick", "reveals", "safe", "rate", "expected", "expected_exact", "z"]
    assert len(hits) == len(payout.hit_rates) and hits["expected_exact"][0] == "22/25"
    # No play: no payout audit.
    assert fairmines.audit(genuine_rows()).payout is None


def test_a_payout_that_is_not_what_the_round_owes_fails_as_play() -> None:
    rows = [json.loads(line) for line in PAYOUT_EXAMPLE.read_text().splitlines()]
    lost = next(i for i, r in enumerate(rows) if r["outcome"] == "lost")
    rows[lost]["payout"] = 500
    report = fairmines.verify_history(rows)
    assert report.summary.play_mismatches == 1
    failure = report.failures[0]
    assert (failure.kind, failure.field, failure.expected, failure.declared) == ("play", "payout", "0", "500")
    assert failure.message == "payout: a lost round pays 0, the record says 500"


def _tampered_and_malformed(rows: list[dict[str, Any]]) -> None:
    """Row 1 declares other positions, row 3 has 25 mines (malformed)."""
    rows[1]["positions"] = other_positions(rows[1])
    rows[3]["mines"] = 25


@pytest.mark.parametrize("ending", ["\n", "\r\n"])
def test_line_numbers_are_the_files_physical_lines(tmp_path: Path, ending: str) -> None:
    rows = genuine_rows(1, 6)
    _tampered_and_malformed(rows)
    # CSV as Python's csv module writes it (\r\n by default, as Excel): the header is line 1, row 1 on line 3.
    fields = ["round_id", "server_seed", "commitment", "client_seed", "nonce", "mines", "positions"]
    path = tmp_path / "history.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator=ending)
        writer.writeheader()
        for row in rows:
            writer.writerow(dict(row, positions=",".join(map(str, row["positions"]))))
    found = [(f.kind, f.line, f.round_id) for f in fairmines.verify_history(path).failures]
    assert found == [("positions", 3, "p0n1"), ("malformed", 5, "p0n3")]
    # A quoted round id across two lines moves every later row one line down.
    rows[0]["round_id"] = "p0n0" + ending + "continued"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator=ending)
        writer.writeheader()
        for row in rows:
            writer.writerow(dict(row, positions=",".join(map(str, row["positions"]))))
    assert [(f.kind, f.line) for f in fairmines.verify_history(path).failures] == [("positions", 4), ("malformed", 6)]
    # JSON Lines: row 1 on line 2, with a blank line before row 3 (line 5).
    lines = [json.dumps(r) for r in rows]
    lines.insert(3, "")
    path = tmp_path / "history.jsonl"
    path.write_bytes((ending.join(lines) + ending).encode())
    assert [(f.kind, f.line) for f in fairmines.verify_history(path).failures] == [("positions", 2), ("malformed", 5)]


def test_an_all_failing_history_counts_rows_and_failures_without_contradiction(tmp_path: Path) -> None:
    # 20,000 rows whose commitment is wrong (one failure a row), read back from a CSV file.
    server, client = "server-seed", "client"
    path = tmp_path / "failing.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["server_seed", "commitment", "client_seed", "nonce", "mines", "positions"])
        for nonce in range(20_000):
            positions = fairmines.mine_positions(server, client, nonce, 1)
            writer.writerow([server, "00" * 32, client, nonce, 1, positions[0]])
    report = fairmines.verify_history(path, max_failures=10)
    s = report.summary
    assert (s.rows_read, s.ok, s.mismatched, s.commitment_mismatches, s.malformed) == (20_000, 0, 20_000, 20_000, 0)
    assert (len(report.failures), s.failures_listed, s.failures_omitted, s.failures_found) == (10, 10, 19_990, 20_000)
    assert repr(report) == (
        "<HistoryReport FAILED: 20,000 rows read: 0 ok, 20,000 failed (commitment 20,000), 0 malformed; "
        "0 nonce gaps; 20,000 failures found: the first 10 listed, 19,990 more counted but not listed>"
    )
    assert len(report.to_pandas()) == 10
    assert "The first 10 of the 10 listed" not in report._repr_html_()


def _cashed_out(multiplier: str, form: str | None) -> dict[str, Any]:
    """A round with 5 mines cashed out after one safe pick at RTP 0.99: exactly 99/80, displayed as 1.23."""
    server, client = "server-seed", "client"
    positions = fairmines.mine_positions(server, client, 7, 5)
    pick = next(t for t in range(1, 26) if t not in positions)
    row = {"server_seed": server, "commitment": fairmines.commitment(server), "client_seed": client, "nonce": 7,
           "mines": 5, "positions": positions, "rtp": "0.99", "picks": [pick], "outcome": "cashed_out",
           "multiplier": multiplier}
    return row if form is None else dict(row, multiplier_form=form)


def test_displayed_multipliers_by_column_or_keyword(tmp_path: Path) -> None:
    # The exact multiplier rounded down to the decimals written passes: by the column or by the keyword.
    assert fairmines.verify_history([_cashed_out("1.23", "displayed")]).ok
    assert fairmines.verify_history([_cashed_out("1.23", None)], multiplier_form="displayed").ok
    path = tmp_path / "displayed.jsonl"
    path.write_text(json.dumps(_cashed_out("1.23", None)) + "\n")
    assert fairmines.verify_history(path, multiplier_form="displayed").ok
    # Off by 0.01 it fails as play; an exact-form row with the rounded value fails too.
    for row, form in [
        (_cashed_out("1.24", "displayed"), None),
        (_cashed_out("1.22", None), "displayed"),
        (_cashed_out("1.23", None), None),
        (_cashed_out("1.23", "exact"), "displayed"),
    ]:
        report = fairmines.verify_history([row], multiplier_form=form)  # type: ignore[arg-type]
        assert [(f.kind, f.field) for f in report.failures] == [("play", "multiplier")], (row, form)
    failure = fairmines.verify_history([_cashed_out("1.24", "displayed")]).failures[0]
    assert (failure.expected, failure.declared) == ("1.23", "1.24")
    assert failure.message == (
        "multiplier: the record displays 1.24, the picks give 99/80, displayed as 1.23 (rounded down to 2 decimals)"
    )
    with pytest.raises(ValueError, match="^multiplier_form: must be exact or displayed"):
        fairmines.verify_history([], multiplier_form="rounded")  # type: ignore[arg-type]
