"""The reports of ``verify_history`` and ``audit``: how Python shows what the history crate found.

The crate's report and counts stay in Rust (``_native._Report``, ``_native._AuditCounts``: merging, JSON,
equality, the tests and the heatmap are the crate's); these classes show them. The failures are handed
over once, on first use (dicts, which become the instances' ``__dict__``: a ``Failure`` costs no
``__init__``), the summary and the audit's tests as JSON. Import them from ``fairmines``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING, Any, final

from . import _native

if TYPE_CHECKING:
    import pandas as pd

    from ._native import _FailureKind

__all__ = [
    "AuditReport", "ChiSquare", "Failure", "HistoryReport", "HistorySummary", "HitRate", "MineAudit", "PValue",
    "PayoutAudit", "PayoutGroup", "TileDeviation", "Verdict",
]  # fmt: skip

# The columns of the failures table (``HistoryReport.to_pandas``, ``Failure.to_dict``), in order.
_COLUMNS = (
    "line", "round_id", "kind", "field", "expected", "declared",
    "nonce", "last_nonce", "pair_commitment", "client_seed", "message",
)  # fmt: skip


def _expect(other: object, cls: type) -> None:
    if not isinstance(other, cls):
        raise TypeError(f"other: must be {cls.__name__}, not {type(other).__name__}")


def _need_pandas(what: str, instead: str) -> None:
    try:
        import pandas  # noqa: F401
    except ImportError as err:
        message = f"{what} needs pandas, which could not be imported (pip install pandas); {instead}"
        raise ImportError(message) from err


def _table(header: tuple[str, ...], rows: Sequence[tuple[object, ...]]) -> str:
    """An HTML table, every cell escaped."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _p(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


@final
@dataclass(frozen=True)
class Failure:
    """One finding of ``verify_history``: a failing row, or a gap between rows.

    ``kind`` is ``"malformed"``, ``"commitment"``, ``"positions"``, ``"duplicate_nonce"``, ``"nonce_gap"``,
    ``"play"`` or ``"nonce_past_end"``. A row failing two checks gives two failures with the same ``line``.
    """

    kind: _FailureKind
    """``"malformed"``, ``"commitment"``, ``"positions"``, ``"duplicate_nonce"``, ``"nonce_gap"``, ``"play"``
    (the row's ``picks``, ``outcome`` or ``multiplier`` are not what the picks give; ``field`` says which) or
    ``"nonce_past_end"`` (at or past its revealed seed pair's round count)."""
    line: int | None
    """The row's first line (1-based; the CSV header is line 1; for dicts, row ``i`` is line ``i + 1``),
    or None for gaps and for duplicates found by ``merge``."""
    round_id: str | None
    """The row's round id, where it has one."""
    pair_commitment: str | None
    """The seed pair's commitment (SHA3-256 of its server seed, computed), where the row could be read."""
    client_seed: str | None
    """The seed pair's client seed, where the row could be read."""
    nonce: int | None
    """The row's nonce; for a gap or a merged duplicate range, its first nonce."""
    last_nonce: int | None
    """For a gap or a merged duplicate range, its last nonce."""
    field: str | None
    """The field at fault (``positions``, ``commitment``, ``nonce``, ``mines``, …), if one is."""
    expected: str | None
    """What the seeds give (``"7,10,19"``, a commitment's hex), for mismatches."""
    declared: str | None
    """What the history declares, for mismatches."""
    message: str
    """The finding in words, starting with the field at fault."""

    def to_dict(self) -> dict[str, str | int | None]:
        """The failure as a dict (the columns of ``HistoryReport.to_pandas()``)."""
        return {name: getattr(self, name) for name in _COLUMNS}

    def __repr__(self) -> str:
        line = "" if self.line is None else f" line {self.line}"
        round_id = "" if self.round_id is None else f" round {self.round_id!r}"
        return f"<Failure {self.kind}{line}{round_id}: {self.message}>"


def _failure(fields: dict[str, Any]) -> Failure:
    failure = object.__new__(Failure)
    object.__setattr__(failure, "__dict__", fields)
    return failure


@final
@dataclass(frozen=True)
class HistorySummary:
    """The counts of ``verify_history``. ``ok + mismatched + malformed == rows_read``, always."""

    rows_read: int
    """Rows read (blank lines are not rows)."""
    ok: int
    """Rows that are well formed, check out, and whose nonce is new for their seed pair."""
    mismatched: int
    """Well-formed rows failing a check (commitment, positions, play, or a nonce seen before), each counted once."""
    malformed: int
    """Rows that could not be read (reported and skipped)."""
    commitment_mismatches: int
    """Rows whose declared commitment is wrong."""
    position_mismatches: int
    """Rows whose declared positions are wrong."""
    duplicate_nonces: int
    """Rows whose nonce their seed pair already had."""
    play_mismatches: int
    """Rows whose picks, outcome or multiplier are not what the picks give (rows that have them)."""
    nonces_past_end: int
    """Rows whose nonce is at or past their revealed seed pair's round count (``revealed``)."""
    nonce_gaps: int
    """Stretches of missing nonces."""
    missing_nonces: int
    """Nonces missing in all the gaps."""
    seed_pairs: int
    """Distinct seed pairs seen."""
    blank_lines: int
    """Blank lines skipped (JSON Lines; they are not rows)."""
    pairs_closed_early: int
    """Seed pairs closed early because too many were open at once (see the crate's README)."""
    unterminated_last_line: bool
    """The input's last line has no newline (not a failure by itself)."""
    failures_listed: int
    """Failures kept in the report (``HistoryReport.failures``): every one found, or the first ``max_failures``."""
    failures_omitted: int
    """Failures found but not kept in the report, past ``max_failures``."""

    @property
    def failures_found(self) -> int:
        """Every failure found, listed or not (a row failing two checks gives two; a gap gives one)."""
        return self.failures_listed + self.failures_omitted

    def to_dict(self) -> dict[str, int | bool]:
        """Every count (and ``unterminated_last_line``) as a dict."""
        return asdict(self)


@final
@dataclass(frozen=True, init=False, repr=False)
class HistoryReport:
    """What ``verify_history`` found: ``summary`` (the counts), ``failures`` (every failing row and every
    nonce gap, in input order, gaps last), ``ok``.

    ``merge(other)`` combines the reports of two parts of one history checked apart (Dask partitions):
    counts add up, and the seed pairs' nonces are merged, so gaps are found again over the whole and a
    nonce both parts have is a duplicate. Reports pickle (as ``to_json()``; they hold no server seed).
    """

    _report: _native._Report
    __hash__ = None  # type: ignore[assignment]

    def __init__(self) -> None:
        """An empty report (no rows): the start of a ``functools.reduce`` over partition reports."""
        object.__setattr__(self, "_report", _native._Report())

    @classmethod
    def _of(cls, report: _native._Report) -> HistoryReport:
        self = object.__new__(cls)
        object.__setattr__(self, "_report", report)
        return self

    @cached_property
    def summary(self) -> HistorySummary:
        """The counts."""
        return HistorySummary(**json.loads(self._report.summary()))

    @property
    def ok(self) -> bool:
        """True when every row is ok and no nonce is missing."""
        return self._report.ok

    def __bool__(self) -> bool:
        return self._report.ok

    @cached_property
    def failures(self) -> tuple[Failure, ...]:
        """Every failure, as a tuple of ``Failure`` (built once, on first use)."""
        return tuple(map(_failure, self._report.failures()))

    def merge(self, other: HistoryReport) -> HistoryReport:
        """The report of this part and ``other`` together (see the class's doc). Line numbers stay those
        of each part; a duplicate found only by merging has no line.
        """
        _expect(other, HistoryReport)
        return HistoryReport._of(self._report.merge(other._report))

    def to_pandas(self) -> pd.DataFrame:
        """The failures as a pandas DataFrame, one row per failure: ``line``, ``round_id``, ``kind``
        (categorical), ``field``, ``expected``, ``declared``, ``nonce``, ``last_nonce`` (nullable
        ``Int64``/``UInt64``), ``pair_commitment``, ``client_seed``, ``message``. Needs pandas.
        """
        _need_pandas("HistoryReport.to_pandas", ".failures has the same data as a tuple")
        import pandas as pd

        rows = list(map(itemgetter(*_COLUMNS), self._report.failures()))  # no need for the Failure objects
        frame = pd.DataFrame(rows, columns=list(_COLUMNS), dtype=object)
        kinds = pd.CategoricalDtype(_native._Report.kinds)
        return frame.astype({"line": "Int64", "nonce": "UInt64", "last_nonce": "UInt64", "kind": kinds})

    def to_json(self) -> str:
        """The report as JSON (summary, failures, and each seed pair's nonces for ``merge``); no server seed."""
        return self._report.to_json()

    @staticmethod
    def from_json(json: str) -> HistoryReport:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not."""
        return HistoryReport._of(_native._Report.from_json(json))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return HistoryReport.from_json, (self.to_json(),)

    def __repr__(self) -> str:
        return f"<HistoryReport {'ok' if self.ok else 'FAILED'}: {self._report.summary_text()}>"

    def _repr_html_(self) -> str:
        """The verdict, the counts and the first 20 failures, for notebooks."""
        counts = [(name, value) for name, value in self.summary.to_dict().items()]
        failures = [tuple(f.to_dict()[c] for c in ("line", "round_id", "kind", "message")) for f in self.failures[:20]]
        more = len(self.failures) - len(failures)
        return (
            f"<p><b>HistoryReport: {'ok' if self.ok else 'FAILED'}</b>: {html.escape(self._report.summary_text())}</p>"
            + _table(("count", "value"), counts)
            + (_table(("line", "round_id", "kind", "message"), failures) if failures else "")
            + (f"<p>The first {len(failures)} of the {len(self.failures)} listed failures are shown: "
               "<code>to_pandas()</code> has the listed ones</p>" if more else "")
        )


@final
@dataclass(frozen=True)
class ChiSquare:
    """A chi-square goodness-of-fit test against the uniform distribution (p-value: statrs' ``sf``)."""

    statistic: float
    """The statistic."""
    degrees_of_freedom: int
    """Its degrees of freedom."""
    p_value: float
    """The probability of a statistic at least this large if the tiles are uniform."""


def _chi_square(test: dict[str, Any] | None) -> ChiSquare | None:
    return None if test is None else ChiSquare(**test)


@final
@dataclass(frozen=True)
class MineAudit:
    """The audit of one mine count: rounds, per-tile mine counts and their uniformity test."""

    mines: int
    """The mine count."""
    rounds: int
    """Rounds with this mine count."""
    tile_counts: tuple[int, ...]
    """25 counts: index ``i`` is the number of rounds with a mine on tile ``i + 1``."""
    chi_square: ChiSquare | None
    """The test of ``tile_counts`` (Pearson's statistic scaled by 24 / (25 - mines), 24 degrees of
    freedom; see the crate's README), or None without rounds."""
    expected: float
    """The mines each tile holds in ``rounds`` rounds if placement is uniform: ``rounds * mines / 25``."""
    z_scores: tuple[float, ...]
    """25 values: how far tile ``i + 1``'s count is from ``expected``, in standard deviations."""
    holm_p_value: float | None
    """``chi_square.p_value`` adjusted for testing every mine count of the report (Holm's method): the
    p-value to hold against a threshold when every mine count is looked at."""

    def __repr__(self) -> str:
        t = self.chi_square
        test = "no test" if t is None else f"chi-square {t.statistic:.3f} (df {t.degrees_of_freedom}), p = {t.p_value:.4f}"
        return f"<MineAudit {self.mines} mines: {self.rounds} rounds, {test}>"


@final
@dataclass(frozen=True)
class PValue:
    """One p-value of an ``AuditReport`` and what it tests (the words the CLI and ``audit --json`` use)."""

    name: str
    """Which test: ``"3 mines"``, ``"combined"``, ``"first draw"``, ``"holm"`` or ``"overall"``."""
    p_value: float
    """The p-value."""
    what: str
    """What a small value says is not uniform, and how the p-value is computed."""


@final
@dataclass(frozen=True)
class TileDeviation:
    """The tile furthest from its expected mine count, pooled over the mine counts: an audit's effect size."""

    tile: int
    """The tile (1 to 25)."""
    percent: float
    """How far its mines are from the expected number, in percent of it (-100: never a mine)."""
    z: float
    """The same in standard deviations."""


@final
@dataclass(frozen=True)
class Verdict:
    """An audit's conclusion, as the core gives it (the same words as ``fairmines audit`` and the page): a
    level from the overall Holm-adjusted p-value, with the effect size.

    ``level`` is ``"too_few_rounds"`` (fewer than ``min_rounds`` rounds), ``"consistent"`` (p at least
    ``thresholds["unusual"]``, 0.01), ``"unusual"`` (below it) or ``"strong_evidence"`` (below
    ``thresholds["strong_evidence"]``, 1e-6)."""

    level: str
    """``"too_few_rounds"``, ``"consistent"``, ``"unusual"`` or ``"strong_evidence"``."""
    words: str
    """The level in words (``"consistent with fair draws"``)."""
    explanation: str
    """Why this level, with the numbers it rests on."""
    rounds: int
    """The rounds tested."""
    p_value: float | None
    """The overall p-value judged (``AuditReport.overall_p_value``)."""
    largest_deviation: TileDeviation | None
    """The tile furthest from its expectation, or None without rounds."""
    thresholds: dict[str, float]
    """``{"unusual": 0.01, "strong_evidence": 1e-06, "min_rounds": 125}``."""

    def __str__(self) -> str:
        return f"{self.words}: {self.explanation}"


def _verdict(verdict: dict[str, Any]) -> Verdict:
    deviation = verdict["largest_deviation"]
    return Verdict(
        verdict["level"], verdict["words"], verdict["explanation"], verdict["rounds"], verdict["p_value"],
        None if deviation is None else TileDeviation(**deviation), dict(verdict["thresholds"]),
    )  # fmt: skip


@final
@dataclass(frozen=True)
class PayoutGroup:
    """What a group of rounds returned (overall, one mine count, currency, player or seed pair), from the core."""

    key: str
    """``"all"``, the mine count (``"3"``), the currency, the player, or ``"commitment:client_seed"``."""
    rounds: int
    """Rounds counted (voided rounds are refunds, not counted)."""
    staked_rounds: int
    """Of them, with a stake and a payout."""
    stake_total: int
    """Σ stake, minor units."""
    payout_total: int
    """Σ payout, minor units."""
    realised_return: float | None
    """Σ payout / Σ stake; without stakes, the mean multiplier at unit stake (a lost round 0)."""
    standard_error: float | None
    """Its standard error, from the rounds' own variance (the ratio estimator's)."""
    ci_low: float | None
    """The 95% confidence interval's lower end."""
    ci_high: float | None
    """Its upper end."""
    declared_rtp: float | None
    """The RTP the rows declare (weighted by stake where there are several)."""
    declared_rtps: tuple[str, ...]
    """The distinct RTPs declared, as fractions (``"99/100"``)."""
    declared_inside: bool | None
    """Whether ``declared_rtp`` lies inside the interval: False says the game did not pay what it declares."""


@final
@dataclass(frozen=True)
class HitRate:
    """The share of the k-th reveals of rounds with ``mines`` mines that were safe, against its exact probability."""

    mines: int
    pick: int
    """k: 1 is the first reveal."""
    reveals: int
    safe: int
    rate: float
    expected: float
    """``(25 - mines - pick + 1) / (25 - pick + 1)`` as a float."""
    expected_exact: str
    """The same as a fraction (``"22/25"``)."""
    z: float


@final
@dataclass(frozen=True)
class PayoutAudit:
    """Does the game pay what it declares? The realised return (Σ payout / Σ stake) with its 95% interval
    against the declared RTP, overall and per mine count, currency, player and seed pair; and the hit rate
    per pick number. From the core (the same numbers as ``fairmines audit --json``'s ``"payout"``)."""

    overall: PayoutGroup
    by_mines: tuple[PayoutGroup, ...]
    by_currency: tuple[PayoutGroup, ...]
    by_player: tuple[PayoutGroup, ...]
    by_seed_pair: tuple[PayoutGroup, ...]
    groups_omitted: int
    """Rounds left out of the per-currency, per-player or per-seed-pair groups (at most 1,000 of each kind)."""
    hit_rates: tuple[HitRate, ...]

    def to_pandas(self) -> pd.DataFrame:
        """The groups as a pandas DataFrame, one row per group: ``by`` (``"all"``, ``"mines"``, ``"currency"``,
        ``"player"``, ``"seed_pair"``), ``key``, then every field of ``PayoutGroup``. Needs pandas."""
        _need_pandas("PayoutAudit.to_pandas", ".overall and .by_mines have the same data")
        import pandas as pd

        kinds = (("all", (self.overall,)), ("mines", self.by_mines), ("currency", self.by_currency),
                 ("player", self.by_player), ("seed_pair", self.by_seed_pair))  # fmt: skip
        rows = [{"by": by, **asdict(group)} for by, groups in kinds for group in groups]
        columns = ["by", *PayoutGroup.__dataclass_fields__]
        frame = pd.DataFrame(rows, columns=columns)
        frame["declared_rtps"] = frame["declared_rtps"].map(lambda rtps: ",".join(rtps))
        return frame

    def hit_rates_to_pandas(self) -> pd.DataFrame:
        """The hit rates as a pandas DataFrame: ``mines``, ``pick``, ``reveals``, ``safe``, ``rate``,
        ``expected``, ``expected_exact``, ``z``. Needs pandas."""
        _need_pandas("PayoutAudit.hit_rates_to_pandas", ".hit_rates has the same data")
        import pandas as pd

        return pd.DataFrame([asdict(h) for h in self.hit_rates], columns=list(HitRate.__dataclass_fields__))


def _group(key: str, group: dict[str, Any]) -> PayoutGroup:
    fields = {name: group[name] for name in PayoutGroup.__dataclass_fields__ if name != "key"}
    fields["declared_rtps"] = tuple(fields["declared_rtps"])
    return PayoutGroup(key=key, **fields)


def _payout(payout: dict[str, Any] | None) -> PayoutAudit | None:
    if payout is None:
        return None

    def named(groups: list[dict[str, Any]]) -> tuple[PayoutGroup, ...]:
        return tuple(_group(g["key"], g) for g in groups)

    return PayoutAudit(
        overall=_group("all", payout["overall"]),
        by_mines=tuple(_group(str(g["mines"]), g) for g in payout["by_mines"]),
        by_currency=named(payout["by_currency"]),
        by_player=named(payout["by_player"]),
        by_seed_pair=named(payout["by_seed_pair"]),
        groups_omitted=payout["groups_omitted"],
        hit_rates=tuple(HitRate(**h) for h in payout["hit_rates"]),
    )


@final
@dataclass(frozen=True, init=False, repr=False)
class AuditReport:
    """What ``audit`` found: per mine count, how often each tile held a mine and a chi-square test against
    the uniform distribution; the first-draw distribution and its test; the heatmap.

    Reading the p-values: an audit tests each mine count apart (up to 24 tests), and by chance alone about
    one p-value in twenty is below 0.05, one in a hundred below 0.01. So do not hold each
    ``chi_square.p_value`` against a threshold: hold ``holm_p_value`` (per mine count, or the report's,
    the smallest of them), which Holm's method adjusts for the number of tests, or ``overall_p_value``
    (every test, the first draw too). Both hold whatever the dependence between the tests. The single
    ``combined`` test adds the mine counts' statistics, which is valid only for independent parts: it is
    there for a history (each row is a round of its own) and None for a seed-pair audit, whose mine counts
    come from the same nonces (``shared_rounds``). ``p_values`` lists every p-value with what it tests;
    ``how_to_read()`` says this with the report's own numbers.

    ``merge(other)`` adds the counts of another part (Dask partitions) and recomputes the tests.
    Reports pickle (as ``to_json()``: the counts). In a notebook a report shows as a table and its heatmap.
    """

    rows_read: int
    """Rows read (history audits) or rounds computed, once per mine count (seed-pair audits)."""
    malformed: int
    """Rows that could not be read (``verify_history`` says why)."""
    skipped: int
    """Rows whose declared positions are not ``mines`` different tiles, left out of the tile counts."""
    by_mines: tuple[MineAudit, ...]
    """One ``MineAudit`` per mine count that has rounds, in order."""
    first_draw_counts: tuple[int, ...]
    """25 counts: index ``i`` is the number of rounds whose first mine was drawn on tile ``i + 1``."""
    first_draw: ChiSquare | None
    """The uniformity test of ``first_draw_counts`` (plain Pearson, 24 degrees of freedom), or None."""
    combined: ChiSquare | None
    """All mine counts in one test: the sum of their statistics, 24 degrees of freedom each. Only where
    the parts are independent (a history); None when the mine counts share their rounds (a seed-pair
    audit, ``shared_rounds``) or there are none."""
    holm_p_value: float | None
    """The smallest Holm-adjusted p-value of the mine counts: one p-value for "some mine count is not
    uniform" that accounts for the number of mine counts tested, valid whatever their dependence; or None."""
    overall_p_value: float | None
    """The smallest Holm-adjusted p-value over every test (each mine count and the first draw): one p-value
    for "something is not uniform", valid whatever their dependence (what ``fairmines audit --fail-below``
    checks); or None."""
    shared_rounds: bool
    """Whether the mine counts were computed from the same rounds (a seed-pair audit): their tests are then
    dependent, and there is no ``combined`` test."""
    p_values: tuple[PValue, ...]
    """Every p-value of the report with what it tests, in order: each mine count, ``combined``, the first
    draw, ``holm``, ``overall``."""
    verdict: Verdict
    """The conclusion, from the core: a level from ``overall_p_value`` (0.01 unusual, 1e-6 strong evidence,
    at least 125 rounds), its words and the largest tile deviation. What every front end shows."""
    payout: PayoutAudit | None
    """The payout audit (returns against the declared RTP, hit rates), or None when no row has a play."""
    _counts: _native._AuditCounts
    __hash__ = None  # type: ignore[assignment]

    def __init__(self) -> None:
        """An empty report (no rounds): the start of a ``functools.reduce`` over partition reports."""
        self.__show(_native._AuditCounts())

    @classmethod
    def _of(cls, counts: _native._AuditCounts) -> AuditReport:
        self = object.__new__(cls)
        self.__show(counts)
        return self

    def __show(self, counts: _native._AuditCounts) -> None:
        report = json.loads(counts.report())
        by_mines = (
            MineAudit(
                m["mines"], m["rounds"], tuple(m["tile_counts"]), _chi_square(m["chi_square"]),
                m["expected"], tuple(m["z_scores"]), m["holm_p_value"],
            )  # fmt: skip
            for m in report["by_mines"]
        )
        vars(self).update(
            rows_read=report["rows_read"],
            malformed=report["malformed"],
            skipped=report["skipped"],
            by_mines=tuple(by_mines),
            first_draw_counts=tuple(report["first_draw_counts"]),
            first_draw=_chi_square(report["first_draw"]),
            combined=_chi_square(report["combined"]),
            holm_p_value=report["holm_p_value"],
            overall_p_value=report["overall_p_value"],
            shared_rounds=report["shared_rounds"],
            p_values=tuple(PValue(**p) for p in report["p_values"]),
            verdict=_verdict(report["verdict"]),
            payout=_payout(report.get("payout")),
            _counts=counts,
        )

    def _of_mines(self, mines: int | None) -> _native._AuditCounts:
        return self._counts if mines is None else self._counts.only(mines)

    def heatmap_text(self, mines: int | None = None) -> str:
        """The 5×5 grid as text: each tile's deviation from uniform in percent, shaded by its z-score; over
        every mine count, or over one (``mines=3``)."""
        return self._of_mines(mines).heatmap_text()

    def heatmap_svg(self, title: str | None = None, mines: int | None = None) -> str:
        """The heatmap as a standalone SVG document (red above uniform, blue below); over every mine count,
        or over one (``mines=3``)."""
        return self._of_mines(mines).heatmap_svg(title)

    def to_pandas(self) -> pd.DataFrame:
        """The tile counts as a tidy pandas DataFrame, one row per mine count and tile: ``mines``, ``tile``
        (1..25), ``count`` (rounds with a mine there), ``expected`` (if uniform) and ``z`` (the deviation in
        standard deviations). ``frame.pivot(index="tile", columns="mines", values="z")`` is a table of
        z-scores. Needs pandas."""
        _need_pandas("AuditReport.to_pandas", ".by_mines has the same data")
        import pandas as pd

        rows = [
            (m.mines, tile, count, m.expected, z)
            for m in self.by_mines
            for tile, (count, z) in enumerate(zip(m.tile_counts, m.z_scores), start=1)
        ]
        frame = pd.DataFrame(rows, columns=["mines", "tile", "count", "expected", "z"])
        return frame.astype({"mines": "int64", "tile": "int64", "count": "int64", "expected": "float64", "z": "float64"})

    def how_to_read(self) -> str:
        """How to read the p-values of this report, in words, with its own numbers."""
        tests = sum(m.chi_square is not None for m in self.by_mines)
        if tests == 0:
            return "No rounds: nothing was tested."
        text = (
            f"{tests} mine count(s) tested, each by a chi-square test of its 25 tile counts. By chance alone "
            "about one p-value in twenty is below 0.05, so look at the Holm-adjusted p-values, which account "
            f"for the number of tests: the smallest is {self.holm_p_value:.4f}"
        )
        text += f"; over every test, the first draw too: {self.overall_p_value:.4f}"
        if self.combined is not None:
            text += f"; all mine counts in one test (combined, valid as each round has one mine count): p = {self.combined.p_value:.4f}"
        elif self.shared_rounds and tests > 1:
            text += "; no combined test, as the mine counts come from the same nonces and are not independent"
        return text + f". Verdict: {self.verdict}"

    def _repr_svg_(self) -> str:
        """The heatmap, for notebooks."""
        return self.heatmap_svg()

    def _repr_html_(self) -> str:
        """The tests per mine count, how to read them, and the heatmap, for notebooks."""
        rows: list[tuple[object, ...]] = []
        for m in self.by_mines:
            t = m.chi_square
            rows.append((m.mines, m.rounds, "" if t is None else f"{t.statistic:.2f}", _p(t and t.p_value), _p(m.holm_p_value)))
        for label, t in (("combined", self.combined), ("first draw", self.first_draw)):
            if t is not None:
                rows.append((label, "", f"{t.statistic:.2f}", _p(t.p_value), ""))
        if self.overall_p_value is not None:  # every test above, Holm-adjusted: the one to hold against a level
            rows.append(("all tests", "", "", "", _p(self.overall_p_value)))
        header = ("mines", "rounds", "chi-square", "p-value", "Holm p-value")
        return (
            f"<p><b>{html.escape(repr(self))}</b></p>"
            + f"<p><b>{html.escape(self.verdict.words)}</b>: {html.escape(self.verdict.explanation)}</p>"
            + _table(header, rows)
            + f"<p>{html.escape(self.how_to_read())}</p>"
            + self.heatmap_svg()
        )

    def merge(self, other: AuditReport) -> AuditReport:
        """The counts of this part and ``other`` added up, with the tests recomputed."""
        _expect(other, AuditReport)
        return AuditReport._of(self._counts.merge(other._counts))

    def to_json(self) -> str:
        """The counts as JSON (from which every test is recomputed)."""
        return self._counts.to_json()

    @staticmethod
    def from_json(json: str) -> AuditReport:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not."""
        return AuditReport._of(_native._AuditCounts.from_json(json))

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return AuditReport.from_json, (self.to_json(),)

    def __repr__(self) -> str:
        rounds = sum(m.rounds for m in self.by_mines)
        combined = "no test" if self.combined is None else f"combined p = {self.combined.p_value:.4f}"
        if self.holm_p_value is not None:
            combined = ("" if self.combined is None else combined + ", ") + f"smallest Holm p = {self.holm_p_value:.4f}"
        return (
            f"<AuditReport {rounds} rounds over {len(self.by_mines)} mine count(s), {self.malformed} malformed, "
            f"{self.skipped} skipped; {combined}; {self.verdict.words}>"
        )


# Shown, and pickled, as ``fairmines.<name>``, where they are imported from.
for _class in (
    Failure, HistorySummary, HistoryReport, ChiSquare, MineAudit, PValue, TileDeviation, Verdict, PayoutGroup, HitRate,
    PayoutAudit, AuditReport,
):  # fmt: skip
    _class.__module__ = "fairmines"
del _class
