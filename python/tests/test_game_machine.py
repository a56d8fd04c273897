"""The game as a Hypothesis state machine, through the Python package.

Random sequences of start / reveal / cash_out / void / rotate / save-and-restore, with arbitrary
integers (most of them invalid) and RTPs of every accepted type, against a model kept by the test.
Invariants: nothing but the package's own exceptions is ever raised, and each refusal is the class the
model expects; the pair's rounds in play are the model's, and `rotate` succeeds exactly when there is
none (else `RoundsInPlayError`, changing nothing); no move is accepted on a round whose server seed has
been revealed (except on a round of a pair value replaced by a restore, which the docs tell operators
not to keep using); the grid fixed at the start never changes (it is `mine_positions` of the round's
nonce, the vector-tested function); every finished or voided round's record verifies; and a record with
a field changed verifies exactly when an independent replay in this file says it still describes a
genuine round (changes to the commitment, the outcome or the multiplier never do; nor, once cashed out,
to the RTP or the mine count).
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from math import comb
from typing import Any, Optional

import hypothesis.strategies as st
from hypothesis import HealthCheck, event, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import fairmines
import spec_reference as ref

ANY_INT = st.one_of(st.integers(-3, 28), st.integers(), st.sampled_from([2**63, 2**64, -(2**64), 2**200]))
GOOD_RTPS: list[Any] = ["0.99", "99/100", "1", Fraction(97, 100), Decimal("0.5"), 1, "1/3"]
BAD_RTPS: list[Any] = ["0", "1.5", "abc", "", Fraction(0), Decimal("1.01"), 2, 0, Fraction(-1, 2), Decimal("NaN")]
RTPS = st.one_of(st.sampled_from(GOOD_RTPS + BAD_RTPS), st.fractions(min_value=-1, max_value=2, max_denominator=10**6))
OUTCOMES = ("lost", "cashed_out", "voided")


def rtp_value(rtp: Any) -> Optional[Fraction]:
    """The factor of an accepted RTP, None for one the package must refuse (computed here, not by it)."""
    if isinstance(rtp, str):
        value = {"0.99": Fraction(99, 100), "99/100": Fraction(99, 100), "1": Fraction(1), "1/3": Fraction(1, 3)}.get(rtp)
    elif isinstance(rtp, Decimal):
        value = Fraction(rtp) if rtp.is_finite() else None
    else:
        value = Fraction(rtp)
    return value if value is not None and 0 < value <= 1 else None


def fair(mines: int, k: int, rtp: Fraction) -> Fraction:
    return Fraction(comb(25, k), comb(25 - mines, k)) * rtp


def genuine(record: fairmines.RoundRecord, server_seed: str) -> bool:
    """Is `record` what `server_seed` and its own picks give? Replayed without verify_round."""
    if not 1 <= record.mines <= 24 or ref.commitment(server_seed) != record.commitment:
        return False
    picks = list(record.picks)
    if len(set(picks)) != len(picks):
        return False
    grid = fairmines.mine_positions(server_seed, record.client_seed, record.nonce, record.mines)
    hits = [i for i, tile in enumerate(picks) if tile in grid]
    if hits:
        return hits[0] == len(picks) - 1 and record.outcome == "lost" and record.multiplier is None
    if record.outcome == "voided":
        # Ended by the operator while in play: a safe tile was still closed, and nothing is paid.
        return len(picks) < 25 - record.mines and record.multiplier is None
    return bool(picks) and record.outcome == "cashed_out" and record.multiplier == fair(record.mines, len(picks), record.rtp)


def mutations(record: fairmines.RoundRecord) -> list[tuple[str, fairmines.RoundRecord]]:
    fields: dict[str, Any] = {
        name: getattr(record, name)
        for name in ("commitment", "client_seed", "nonce", "mines", "rtp", "picks", "outcome", "multiplier")
    }
    picks = list(record.picks)
    unused = next(t for t in range(1, 26) if t not in picks)
    flipped = ("1" if fields["commitment"][0] == "0" else "0") + fields["commitment"][1:]
    changes: list[tuple[str, dict[str, Any]]] = [
        ("commitment", {"commitment": flipped}),
        ("client_seed", {"client_seed": record.client_seed + "x"}),
        ("nonce", {"nonce": (record.nonce + 1) % 2**64}),
        ("mines", {"mines": 23 if record.mines == 24 else record.mines + 1}),
        ("rtp", {"rtp": Fraction(51, 100) if record.rtp == Fraction(1, 2) else Fraction(1, 2)}),
        ("picks+", {"picks": [*picks, unused]}),
        ("picks-", {"picks": picks[:-1]}),
        ("picks[0]", {"picks": [unused, *picks[1:]]}),
        *((f"outcome {other}", {"outcome": other}) for other in OUTCOMES if other != record.outcome),
        ("multiplier", {"multiplier": record.multiplier * Fraction(101, 100) if record.multiplier else Fraction(2)}),
    ]
    return [(what, fairmines.RoundRecord(**{**fields, **change})) for what, change in changes]


class Game(RuleBasedStateMachine):
    """The package's SeedPair and Round against a model of them."""

    pair: fairmines.SeedPair
    server: str
    client: str
    nonce: int

    def __init__(self) -> None:
        super().__init__()
        # Nonces of the rounds the current pair value holds in play (restored ones included).
        self.open: set[int] = set()
        self.revealed: set[str] = set()  # server seeds revealed by rotations
        self.round: Optional[fairmines.Round] = None
        # The round counts among the current pair's rounds (it was started by this pair value).
        self.attached = False
        # The round was in play when its pair value was replaced by a restore: that value's voiding and
        # refusals no longer reach it (the docs: keep one live copy of a seed pair).
        self.orphaned = False
        self.grid: list[int] = []
        self.mines = 0
        self.rtp = Fraction(1)
        self.picks: list[int] = []
        self.outcome: Optional[str] = None
        self.round_server = ""
        self.checked = False

    def expect_error(self, cls: type[fairmines.FairminesError], call: Any, *args: Any) -> None:
        try:
            call(*args)
        except fairmines.FairminesError as err:
            assert type(err) is cls, f"{type(err).__name__} ({err}) where {cls.__name__} was expected"
            assert err.code == cls.code
        else:
            raise AssertionError(f"no {cls.__name__}")

    def learn_server_seed(self) -> None:
        # The test is the operator here: it may read its own stored state.
        self.server = json.loads(self.pair.to_state_json())["server_seed"]

    @initialize(seed=st.binary(min_size=32, max_size=32), client=st.text(max_size=20), nonce=st.integers(0, 2**64 - 1))
    def create(self, seed: bytes, client: str, nonce: int) -> None:
        self.pair = fairmines.SeedPair.from_parts(seed.hex(), client, nonce)
        self.server, self.client, self.nonce = seed.hex(), client, nonce

    @rule(mines=st.one_of(st.integers(1, 24), ANY_INT), rtp=st.one_of(st.sampled_from(GOOD_RTPS), RTPS))
    def start(self, mines: int, rtp: Any) -> None:
        factor = rtp_value(rtp)
        if not 1 <= mines <= 24:
            self.expect_error(fairmines.InvalidMinesError, self.pair.start_round, mines, rtp)
        elif factor is None:
            self.expect_error(fairmines.InvalidRtpError, self.pair.start_round, mines, rtp)
        elif self.nonce == 2**64 - 1:
            self.expect_error(fairmines.InvalidNonceError, self.pair.start_round, mines, rtp)
        else:
            self.round = self.pair.start_round(mines, rtp)
            assert self.round.nonce == self.nonce and self.round.rtp == factor and self.round.mines == mines
            self.grid = fairmines.mine_positions(self.server, self.client, self.nonce, mines)
            self.mines, self.rtp, self.picks, self.outcome = mines, factor, [], None
            self.round_server, self.checked = self.server, False
            self.attached, self.orphaned = True, False
            self.open.add(self.nonce)
            self.nonce += 1
            event("round started")
        assert self.pair.public.nonce == self.nonce

    @precondition(lambda self: self.round is not None)
    @rule(tile=st.one_of(st.integers(1, 25), ANY_INT))
    def reveal(self, tile: int) -> None:
        assert self.round is not None
        if self.outcome == "voided":
            self.expect_error(fairmines.RoundVoidedError, self.round.reveal, tile)
        elif self.outcome is not None:
            self.expect_error(fairmines.RoundFinishedError, self.round.reveal, tile)
        elif not 1 <= tile <= 25:
            self.expect_error(fairmines.InvalidTileError, self.round.reveal, tile)
        elif tile in self.picks:
            self.expect_error(fairmines.TileAlreadyRevealedError, self.round.reveal, tile)
        else:
            result = self.round.reveal(tile)
            self.move_accepted()
            self.picks.append(tile)
            assert result.tile == tile and result.safe == (tile not in self.grid)
            if result.safe:
                assert result.safe_picks == len(self.picks)
                assert result.multiplier == fair(self.mines, len(self.picks), self.rtp)
                if len(self.picks) == 25 - self.mines:
                    self.finish("cashed_out")
            else:
                assert result.multiplier is None and result.safe_picks == len(self.picks) - 1
                self.finish("lost")

    @precondition(lambda self: self.round is not None)
    @rule()
    def cash_out(self) -> None:
        assert self.round is not None
        if self.outcome == "voided":
            self.expect_error(fairmines.RoundVoidedError, self.round.cash_out)
        elif self.outcome is not None:
            self.expect_error(fairmines.RoundFinishedError, self.round.cash_out)
        elif not self.picks:
            self.expect_error(fairmines.NothingToCashOutError, self.round.cash_out)
        else:
            assert self.round.cash_out() == fair(self.mines, len(self.picks), self.rtp)
            self.move_accepted()
            self.finish("cashed_out")

    def move_accepted(self) -> None:
        # The issue-21 property: the seed under a round in play is never revealed by its pair.
        assert self.orphaned or self.round_server not in self.revealed

    def finish(self, outcome: str) -> None:
        assert self.round is not None
        self.outcome = outcome
        if self.attached:
            self.open.discard(self.round.nonce)

    @rule()
    def void(self) -> None:
        assert self.pair.void_open_rounds() == sorted(self.open)
        if self.attached and self.outcome is None:
            self.outcome = "voided"
            event("round voided")
        self.open.clear()
        assert self.pair.void_open_rounds() == []

    @rule(client=st.one_of(st.none(), st.text(max_size=12), st.just("bad\ud800")), as_client_seed=st.booleans())
    def rotate(self, client: Optional[str], as_client_seed: bool) -> None:
        def call() -> fairmines.RevealedSeedPair:
            if as_client_seed and client is not None:
                return self.pair.set_client_seed(client)
            return self.pair.rotate(client)

        if client is not None and "\ud800" in client:
            self.expect_error(fairmines.InvalidUtf8Error, call)
            return
        if self.open:
            public, state = self.pair.public, self.pair.to_state_json()
            self.expect_error(fairmines.RoundsInPlayError, call)
            assert self.pair.public == public and self.pair.to_state_json() == state
            event("rotation refused")
            return
        revealed = call()
        self.revealed.add(revealed.server_seed)
        self.attached = False
        assert (revealed.server_seed, revealed.client_seed, revealed.rounds) == (self.server, self.client, self.nonce)
        assert revealed.commitment == ref.commitment(self.server)
        old = self.server
        self.learn_server_seed()
        assert self.server != old
        self.client = self.client if client is None else client
        self.nonce = 0
        assert self.pair.public == fairmines.PublicSeedPair(ref.commitment(self.server), self.client, 0)

    @rule()
    def save_and_restore(self) -> None:
        public, state = self.pair.public, self.pair.to_state_json()
        assert json.loads(state)["open_rounds"] == sorted(self.open)
        self.pair = fairmines.SeedPair.from_state_json(state)
        assert self.pair.public == public
        # The restored value keeps the open nonces but not the round objects of the old value.
        if self.round is not None and self.outcome is None and self.attached:
            self.orphaned = True
        self.attached = False

    @invariant()
    def the_rounds_in_play_are_the_models(self) -> None:
        assert self.pair.open_rounds() == sorted(self.open)

    @invariant()
    def the_round_matches_the_model(self) -> None:
        if self.round is None:
            return
        r = self.round
        assert r.picks == tuple(self.picks) and r.outcome == self.outcome and r.is_finished == (self.outcome is not None)
        safe = len(self.picks) - (self.outcome == "lost")
        assert r.safe_picks == safe
        expected = None if self.outcome in ("lost", "voided") or safe == 0 else fair(self.mines, safe, self.rtp)
        assert r.multiplier == expected
        if self.outcome is None:
            assert r.mine_positions is None and r.record() is None
        else:
            # The grid of the start, never changed.
            assert list(r.mine_positions or ()) == self.grid

    @invariant()
    def finished_records_verify_and_changed_ones_do_not(self) -> None:
        if self.round is None or self.outcome is None or self.checked:
            return
        self.checked = True
        event(f"finished round checked: {self.outcome}")
        record = self.round.record()
        assert record is not None and record.picks == tuple(self.picks) and record.outcome == self.outcome
        assert fairmines.RoundRecord.from_json(record.to_json()) == record
        verdict = fairmines.verify_round(record, self.round_server)
        assert verdict.ok and verdict.differences == () and list(verdict.mine_positions) == self.grid
        assert genuine(record, self.round_server)
        for what, changed in mutations(record):
            holds = fairmines.verify_round(changed, self.round_server).ok
            assert holds == genuine(changed, self.round_server), (what, changed)
            always_caught = {"commitment", "multiplier"} | {f"outcome {other}" for other in OUTCOMES}
            if record.outcome == "cashed_out":
                always_caught |= {"mines", "rtp"}  # the multiplier paid depends on both
            if what in always_caught:
                assert not holds, (what, changed)


Game.TestCase.settings = settings(
    max_examples=int(__import__("os").environ.get("FAIRMINES_MACHINE_EXAMPLES", "150")),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_game_machine = Game.TestCase
