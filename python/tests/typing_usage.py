"""Typical use of the package, checked by `mypy --strict` (scripts/test-python.sh) and run by pytest.

`assert_type` pins what the stubs promise; each `type: ignore[...]` marks a call the stubs must
reject (mypy's strict mode reports an ignore that is no longer needed, so a stub too loose fails).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, Optional

import numpy as np
import numpy.typing as npt
import pandas as pd
import polars as pl

import fairmines

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # pragma: no cover - the test venv runs 3.11+

    def assert_type(value: Any, _type: Any) -> Any:
        return value


SERVER = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
CLIENT = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"


def check_round(server_seed: str, client_seed: str, nonce: int, mines: int, shown: list[int]) -> bool:
    verdict = fairmines.verify(server_seed, client_seed, nonce, mines, positions=shown)
    assert_type(verdict, fairmines.Verification)
    assert_type(verdict.positions_ok, "bool | None")
    assert_type(verdict.commitment_ok, "bool | None")
    assert_type(verdict.positions, "tuple[int, ...]")
    assert_type(verdict.declared_positions, "tuple[int, ...] | None")
    assert_type(verdict.declared_commitment, "str | None")
    assert_type(verdict.words_used, int)
    assert_type(verdict.verdict, "Literal['ok', 'mismatch', 'unchecked']")
    return bool(verdict) and verdict.ok


def play(pair: fairmines.SeedPair, tiles: list[int]) -> Optional[fairmines.RoundRecord]:
    round_ = pair.start_round(3, "0.99")
    assert_type(round_, fairmines.Round)
    for tile in tiles:
        reveal = round_.reveal(tile)
        assert_type(reveal, fairmines.Reveal)
        assert_type(reveal.safe, bool)
        assert_type(reveal.multiplier, "Fraction | None")
        assert_type(reveal.finished, bool)
        if not reveal.safe:
            break
    if not round_.is_finished:
        assert_type(round_.cash_out(), Fraction)
    assert_type(round_.mine_positions, "tuple[int, ...] | None")
    assert_type(round_.outcome, "Literal['lost', 'cashed_out', 'voided'] | None")
    assert_type(round_.rtp, Fraction)
    return round_.record()


def game() -> None:
    pair = fairmines.SeedPair.from_parts(SERVER, CLIENT, 1)
    assert_type(pair.public_part, fairmines.PublicSeedPair)
    record = play(pair, [1, 2])
    assert record is not None
    assert_type(record.picks, "tuple[int, ...]")
    assert_type(record.multiplier, "Fraction | None")
    assert_type(pair.open_rounds(), "list[int]")
    in_play = pair.start_round(3, "0.99")
    try:
        pair.rotate()  # refused: a round is in play
    except fairmines.RoundsInPlayError as err:
        assert_type(err.code, int)
    else:
        raise AssertionError("no RoundsInPlayError")
    assert_type(pair.void_open_rounds(), "list[int]")
    try:
        in_play.reveal(1)
    except fairmines.RoundVoidedError:
        assert in_play.outcome == "voided"
    else:
        raise AssertionError("no RoundVoidedError")
    revealed = pair.rotate()
    assert_type(revealed, fairmines.RevealedSeedPair)
    verdict = fairmines.verify_round(record, revealed.server_seed)
    assert_type(verdict, fairmines.RoundVerification)
    assert_type(verdict.differences, "tuple[str, ...]")
    assert verdict.ok and bool(verdict)
    same = fairmines.RoundRecord.from_json(record.to_json())
    assert same == record
    assert_type(fairmines.multiplier(3, 1, Decimal("0.99")), Fraction)
    table = fairmines.payout_table(Fraction(99, 100))
    assert_type(table, "list[fairmines.TableEntry]")
    assert_type(fairmines.max_safe_picks(3), int)
    again = fairmines.SeedPair.from_state_json(pair.to_state_json())
    assert again.public_part == pair.public_part
    # After a restart: the state stored after the last move, the round in play resumed by its nonce.
    started = again.start_round(3, "0.99")
    resumed_pair = fairmines.SeedPair.from_state_json(again.to_state_json())
    resumed = resumed_pair.round(started.nonce)
    assert_type(resumed, fairmines.Round)
    try:
        resumed_pair.round(started.nonce)  # refused: handed out already, and `resumed` lives
    except fairmines.RoundNotInPlayError as err:
        assert_type(err.code, int)
        assert err.argument == "nonce"
    else:
        raise AssertionError("no RoundNotInPlayError")
    try:
        fairmines.SeedPair(CLIENT).start_round(3, "0.99").cash_out()
    except fairmines.NothingToCashOutError as err:
        assert_type(err.code, int)

    # What the stubs must reject (the calls raise TypeError at run time as well).
    for bad in (
        lambda: pair.start_round(3, 0.99),  # type: ignore[arg-type]
        lambda: pair.round("0"),  # type: ignore[arg-type]
        lambda: fairmines.verify_round(record.to_json(), SERVER),  # type: ignore[arg-type]
        lambda: fairmines.RoundRecord(SERVER, CLIENT, 1, 3, "1", [1], "won"),  # type: ignore[arg-type]
    ):
        try:
            bad()
        except (TypeError, fairmines.InvalidStateError):
            pass
        else:
            raise AssertionError("no error")


class Bar:
    """A progress bar as tqdm's: update(n)."""

    def __init__(self) -> None:
        self.n = 0

    def update(self, n: int = 1) -> None:
        self.n += n


def histories() -> None:
    """Histories as analysts hold them: pandas' records (Mapping[Any, Any] rows), DataFrames, polars."""
    server = "s"
    rows = [
        {"server_seed": server, "commitment": fairmines.commitment(server), "client_seed": "c", "nonce": n,
         "mines": 3, "positions": fairmines.mine_positions(server, "c", n, 3)}
        for n in range(10)
    ]  # fmt: skip
    frame = pd.DataFrame(rows)
    records = frame.to_dict("records")  # list[dict[Hashable, Any]] under pandas-stubs
    assert_type(fairmines.verify_history(records), fairmines.HistoryReport)
    assert_type(fairmines.verify_history(frame), fairmines.HistoryReport)
    assert fairmines.verify_history(pl.from_pandas(frame.rename(columns={"nonce": "n"})), columns={"n": "nonce"}).ok
    audit = fairmines.audit(frame, threads=1)
    assert_type(audit, fairmines.AuditReport)
    assert_type(audit.to_pandas(), pd.DataFrame)
    assert_type(audit.holm_p_value, "float | None")
    assert_type(audit.overall_p_value, "float | None")
    assert_type(audit.p_values[0].what, str)
    assert_type(audit.by_mines[0].z_scores, "tuple[float, ...]")
    assert_type(audit.heatmap_svg(mines=3), str)
    seen: list[int] = []

    def two(rows: int, read: int) -> None:
        seen.append(rows)

    def three(rows: int, read: int, total: int | None) -> None:
        seen.append(rows)

    bar = Bar()
    for progress in (two, three, bar, bar.update):
        fairmines.verify_history(records, progress=progress)
    assert bar.n == 20 and seen == [10, 10]

    # What the stubs must reject.
    rejected: list[Callable[[], object]] = [
        lambda: fairmines.verify_history(42),  # type: ignore[arg-type]
        lambda: fairmines.verify_history(records, columns={"a": 1}),  # type: ignore[dict-item]
        lambda: fairmines.verify_history(records, progress=3),  # type: ignore[arg-type]
    ]
    for bad in rejected:
        try:
            bad()
        except TypeError:
            pass
        else:
            raise AssertionError("no TypeError")


def main() -> None:
    assert_type(fairmines.commitment(SERVER), str)
    assert_type(fairmines.round_signature(SERVER, CLIENT, 1), str)
    positions = fairmines.mine_positions(SERVER, CLIENT, 1, 3)
    assert_type(positions, "list[int]")
    assert_type(fairmines.draw_order(SERVER, CLIENT, np.uint64(1), 3), "list[int]")
    assert_type(fairmines.mine_positions(SERVER, CLIENT, 1.0, 3.0), "list[int]")  # floats that are integers
    assert check_round(SERVER, CLIENT, 1, 3, positions)

    seed = fairmines.generate_server_seed()
    assert_type(seed, fairmines.ServerSeed)
    assert_type(seed.reveal(), str)
    assert_type(seed.hex, str)
    assert_type(seed.commitment, str)

    board = fairmines.mine_positions_batch(SERVER, CLIENT, range(100), 3)
    assert_type(board, "npt.NDArray[np.uint8]")
    fairmines.mine_positions_batch(SERVER, CLIENT, [1, 2, 3], 3)
    fairmines.mine_positions_batch(SERVER, CLIENT, np.arange(10, dtype=np.uint64), 3)

    try:
        fairmines.mine_positions(SERVER, CLIENT, -1, 3)
    except fairmines.FairminesError as err:
        assert_type(err.code, int)
        assert_type(err.argument, "str | None")
        assert isinstance(err, ValueError)

    # What the stubs must reject (the calls raise TypeError at run time as well).
    for bad in (
        lambda: fairmines.commitment(b"seed"),  # type: ignore[arg-type]
        lambda: fairmines.mine_positions(SERVER, CLIENT, "1", 3),  # type: ignore[arg-type]
        lambda: fairmines.verify(SERVER, CLIENT, 1, 3, commitment=5),  # type: ignore[arg-type]
        lambda: fairmines.verify(SERVER, CLIENT, 1, 3, commitmnet=SERVER),  # type: ignore[call-arg]
    ):
        try:
            bad()
        except TypeError:
            pass
        else:
            raise AssertionError("no TypeError")
    game()
    histories()


if __name__ == "__main__":
    main()
