"""The game: seed pairs, rounds, records, verify_round and exact payouts, against the vector-tested core."""

from __future__ import annotations

import copy
import json
import pickle
import re
from decimal import Decimal
from fractions import Fraction
from math import comb
from typing import Any, Callable

import pytest

import fairmines
from conftest import CASES, WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]
HEX64 = re.compile(r"[0-9a-f]{64}")


def raised(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return info.value


def expect(cls: type[fairmines.FairminesError], code: int, argument: str | None, fn: Callable[..., Any], *args: Any) -> str:
    err = raised(fn, *args)
    assert type(err) is cls, repr(err)
    assert isinstance(err, fairmines.FairminesError) and err.code == code and err.argument == argument
    if argument is not None:
        assert str(err).startswith(f"{argument}: "), str(err)
    return str(err)


def fair(mines: int, k: int, rtp: Fraction) -> Fraction:
    """C(25, k) / C(25 - mines, k) x rtp, computed here with Python's own integers."""
    return Fraction(comb(25, k), comb(25 - mines, k)) * rtp


def safe_tiles(grid: list[int]) -> list[int]:
    return [t for t in range(1, 26) if t not in grid]


# --- seed pairs -----------------------------------------------------------------------------------


def test_a_new_seed_pair_is_fresh_and_never_shows_its_seed() -> None:
    pairs = [fairmines.SeedPair("player") for _ in range(10)]
    states = [json.loads(p.to_state_json()) for p in pairs]
    assert len({s["server_seed"] for s in states}) == 10
    for pair, state in zip(pairs, states):
        assert HEX64.fullmatch(state["server_seed"])
        assert state["commitment"] == fairmines.commitment(state["server_seed"]) == pair.public.commitment
        assert state["client_seed"] == "player" and state["nonce"] == 0
        shown = [repr(pair), str(pair), f"{pair!r}", repr([pair])]
        for text in shown:
            assert state["server_seed"] not in text and state["server_seed"][:16] not in text
        assert repr(pair) == (
            f"SeedPair(commitment='{pair.public.commitment}', client_seed='player', nonce=0, server_seed=<hidden>)"
        )
        for leak in (pickle.dumps, copy.copy, copy.deepcopy):
            with pytest.raises(TypeError, match="secret"):
                leak(pair)


def test_from_parts_public_and_nonces() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    public = pair.public
    assert (public.commitment, public.client_seed, public.nonce) == (WORKED["commitment"], C, 1)
    round_ = pair.start_round(3, "0.99")
    assert round_.nonce == 1 and pair.public.nonce == 2
    assert pair.start_round(3, "0.99").nonce == 2
    # A ServerSeed object works too, and the nonce defaults to 0.
    seed = fairmines.generate_server_seed()
    from_object = fairmines.SeedPair.from_parts(seed, "c")
    assert from_object.public.commitment == seed.commitment and from_object.public.nonce == 0
    assert json.loads(from_object.to_state_json())["server_seed"] == seed.reveal()


def test_public_seed_pair_is_frozen_json_and_hashable() -> None:
    public = fairmines.SeedPair.from_parts(S, "é:ü 🎲", 7).public
    assert json.loads(public.to_json()) == {"commitment": WORKED["commitment"], "client_seed": "é:ü 🎲", "nonce": 7}
    again = fairmines.PublicSeedPair.from_json(public.to_json())
    assert again == public and hash(again) == hash(public)
    assert fairmines.PublicSeedPair(WORKED["commitment"].upper(), "é:ü 🎲", 7) == public
    assert public != fairmines.PublicSeedPair(WORKED["commitment"], "é:ü 🎲", 8)
    assert pickle.loads(pickle.dumps(public)) == public
    with pytest.raises(AttributeError):
        public.nonce = 3  # type: ignore[misc]
    assert repr(public) == f"PublicSeedPair(commitment='{WORKED['commitment']}', client_seed='é:ü 🎲', nonce=7)"


def test_rotate_reveals_the_old_seed_and_starts_over() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 5)
    # The round must end before the seed is revealed: here it hits its one mine.
    round_ = pair.start_round(1, 1)
    assert not round_.reveal(fairmines.mine_positions(S, C, 5, 1)[0]).safe
    revealed = pair.rotate()
    assert (revealed.server_seed, revealed.commitment, revealed.client_seed, revealed.rounds) == (
        S,
        WORKED["commitment"],
        C,
        6,
    )
    assert S not in repr(revealed) and repr(revealed).startswith("RevealedSeedPair(commitment=")
    public = pair.public
    assert public.nonce == 0 and public.client_seed == C and public.commitment != WORKED["commitment"]
    new_seed = json.loads(pair.to_state_json())["server_seed"]
    assert HEX64.fullmatch(new_seed) and new_seed != S

    second = pair.rotate("new client")
    assert second.server_seed == new_seed and second.rounds == 0 and second.client_seed == C
    assert pair.public.client_seed == "new client"
    third = pair.set_client_seed("third")
    assert third.client_seed == "new client" and pair.public.client_seed == "third" and pair.public.nonce == 0
    assert pair.rotate(None).client_seed == "third"

    # JSON round trip and value semantics.
    again = fairmines.RevealedSeedPair.from_json(revealed.to_json())
    assert again == revealed and hash(again) == hash(revealed)
    assert json.loads(revealed.to_json()) == {
        "server_seed": S,
        "commitment": WORKED["commitment"],
        "client_seed": C,
        "rounds": 6,
    }
    assert fairmines.RevealedSeedPair(S, WORKED["commitment"], C, 6) == revealed
    assert pickle.loads(pickle.dumps(revealed)) == revealed


def test_state_json_round_trip() -> None:
    pair = fairmines.SeedPair.from_parts(S, "client", 41)
    state = pair.to_state_json()
    assert json.loads(state) == {
        "server_seed": S,
        "commitment": WORKED["commitment"],
        "client_seed": "client",
        "nonce": 41,
        "open_rounds": [],
    }
    restored = fairmines.SeedPair.from_state_json(state)
    assert restored.public == pair.public and restored.open_rounds() == []
    a, b = pair.start_round(5, "0.97"), restored.start_round(5, "0.97")
    assert a.nonce == b.nonce == 41


def state_of(**changes: Any) -> str:
    fields = {"server_seed": S, "commitment": WORKED["commitment"], "client_seed": "c", "nonce": 3, "open_rounds": []}
    return json.dumps({**fields, **changes})


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ("not json", "state: "),
        ("{}", "state: missing field"),
        (state_of(commitment="0" * 64), "state: the commitment"),
        (state_of(server_seed=S.upper()), "state: "),
        (state_of(server_seed="abc"), "state: "),
        (state_of(nonce=-1), "state: "),
        (
            json.dumps({k: v for k, v in json.loads(state_of()).items() if k != "open_rounds"}),
            "state: missing field `open_rounds`",
        ),
        (state_of(open_rounds=[3]), "state: open_rounds: nonce 3 is repeated or not below the next nonce 3"),
        (state_of(open_rounds=[1, 1]), "state: open_rounds: nonce 1 is repeated"),
        (state_of(open_rounds=[-1]), "state: "),
        (state_of(open_round=[]), "state: unknown field `open_round`"),
    ],
)
def test_bad_state_is_an_invalid_state_error(state: str, message: str) -> None:
    text = expect(fairmines.InvalidStateError, 15, "state", fairmines.SeedPair.from_state_json, state)
    assert text.startswith(message), text


def test_seed_pair_argument_errors() -> None:
    expect(fairmines.InvalidHexError, 4, "server_seed", fairmines.SeedPair.from_parts, "abc", C)
    expect(fairmines.InvalidHexError, 4, "server_seed", fairmines.SeedPair.from_parts, S.upper(), C)
    expect(fairmines.InvalidNonceError, 2, "nonce", fairmines.SeedPair.from_parts, S, C, -1)
    expect(fairmines.InvalidNonceError, 2, "nonce", fairmines.SeedPair.from_parts, S, C, 2**64)
    expect(fairmines.InvalidUtf8Error, 5, "client_seed", fairmines.SeedPair, "\ud800")
    expect(fairmines.InvalidUtf8Error, 5, "client_seed", fairmines.SeedPair.from_parts(S, C).rotate, "\ud800")
    expect(fairmines.InvalidUtf8Error, 5, "client_seed", fairmines.SeedPair.from_parts(S, C).set_client_seed, "\udfff")
    for argument, call in [
        ("client_seed", lambda: fairmines.SeedPair(b"c")),  # type: ignore[arg-type]
        ("server_seed", lambda: fairmines.SeedPair.from_parts(5, C)),  # type: ignore[arg-type]
        ("nonce", lambda: fairmines.SeedPair.from_parts(S, C, 1.0)),  # type: ignore[arg-type]
        ("state", lambda: fairmines.SeedPair.from_state_json(b"{}")),  # type: ignore[arg-type]
        ("client_seed", lambda: fairmines.SeedPair.from_parts(S, C).rotate(3)),  # type: ignore[arg-type]
    ]:
        err = raised(call)
        assert type(err) is TypeError and str(err).startswith(f"{argument}: must be "), str(err)


def test_the_last_nonce_cannot_start_a_round() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 2**64 - 2)
    assert pair.start_round(3, 1).nonce == 2**64 - 2
    text = expect(fairmines.InvalidNonceError, 2, "nonce", pair.start_round, 3, 1)
    assert "rotate" in text
    assert pair.public.nonce == 2**64 - 1  # unchanged by the refusal


def test_start_round_argument_errors() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 0)
    for mines in (0, 25, -1, 2**70):
        expect(fairmines.InvalidMinesError, 1, "mines", pair.start_round, mines, "0.99")
    for rtp in ("0", "1.01", "3/2", "abc", "", "1/0", "-0.5", Fraction(0), Decimal("1.5"), 2, Decimal("NaN"), Decimal("-Infinity")):
        expect(fairmines.InvalidRtpError, 12, "rtp", pair.start_round, 3, rtp)
    assert pair.public.nonce == 0, "a refused start must not use a nonce"
    err = raised(pair.start_round, 3, 0.99)
    assert type(err) is TypeError and "float" in str(err) and "0.99" in str(err) and str(err).startswith("rtp: ")
    for bad in (True, None, [1], b"0.99"):
        err = raised(pair.start_round, 3, bad)
        assert type(err) is TypeError and str(err).startswith("rtp: must be str, fractions.Fraction"), str(err)
    err = raised(pair.start_round, 3.0, "0.99")
    assert type(err) is TypeError and str(err).startswith("mines: must be int")


@pytest.mark.parametrize(
    "rtp", ["0.99", "99/100", " 0.99 ", ".99", "198/200", Fraction(99, 100), Decimal("0.99"), Decimal("0.990000")]
)
def test_every_form_of_an_rtp_is_exact(rtp: Any) -> None:
    round_ = fairmines.SeedPair.from_parts(S, C, 1).start_round(3, rtp)
    assert round_.rtp == Fraction(99, 100) and type(round_.rtp) is Fraction


# --- rounds ---------------------------------------------------------------------------------------


PLAYABLE = [c for c in CASES if HEX64.fullmatch(c["server_seed"]) and c["nonce"] < 2**64 - 1]


def test_enough_vectors_are_playable() -> None:
    assert len(PLAYABLE) > 1000
    assert any(c["rejected"] for c in PLAYABLE), "no playable vector with a rejected draw"


@pytest.mark.parametrize("case", PLAYABLE, ids=[c["id"] for c in PLAYABLE])
def test_a_round_plays_on_the_grid_of_its_vector(case: dict[str, Any]) -> None:
    """Start a round at the vector's nonce, reveal every safe tile but one, then the first mine."""
    server, client, nonce, mines, grid = case["server_seed"], case["client_seed"], case["nonce"], case["mines"], case["positions"]
    pair = fairmines.SeedPair.from_parts(server, client, nonce)
    round_ = pair.start_round(mines, "0.99")
    assert round_.mine_positions is None and round_.record() is None and not round_.is_finished
    safe = safe_tiles(grid)
    # Pick the safe tiles in a scrambled order, all but the last, then a mine.
    order = safe[::-1][: len(safe) - 1] if nonce % 2 else safe[: len(safe) - 1]
    for i, tile in enumerate(order, start=1):
        reveal = round_.reveal(tile)
        assert reveal.safe and reveal.tile == tile and reveal.safe_picks == i
        assert reveal.multiplier == fair(mines, i, Fraction(99, 100)) == round_.multiplier
        assert round_.mine_positions is None
    reveal = round_.reveal(grid[nonce % mines])
    assert not reveal.safe and reveal.multiplier is None and reveal.safe_picks == len(order)
    assert round_.is_finished and round_.outcome == "lost" and round_.multiplier is None
    assert list(round_.mine_positions or ()) == grid == fairmines.mine_positions(server, client, nonce, mines)
    record = round_.record()
    assert record is not None and record.picks == (*order, grid[nonce % mines])
    assert fairmines.verify_round(record, server).mine_positions == tuple(grid)


def test_revealing_every_safe_tile_cashes_out() -> None:
    grid = fairmines.mine_positions(S, C, 1, 24)
    round_ = fairmines.SeedPair.from_parts(S, C, 1).start_round(24, "0.99")
    (only,) = safe_tiles(grid)
    reveal = round_.reveal(only)
    assert reveal.safe and reveal.multiplier == Fraction(99, 4) == fair(24, 1, Fraction(99, 100))
    assert round_.is_finished and round_.outcome == "cashed_out" and round_.multiplier == Fraction(99, 4)
    assert round_.mine_positions == tuple(grid)
    expect(fairmines.RoundFinishedError, 10, None, round_.cash_out)


def test_the_worked_example_as_a_game() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    round_ = pair.start_round(3, "0.99")
    assert (round_.commitment, round_.client_seed, round_.nonce, round_.mines) == (WORKED["commitment"], C, 1, 3)
    assert round_.picks == () and round_.safe_picks == 0 and round_.multiplier is None and round_.outcome is None
    assert round_.rtp == Fraction(99, 100)
    expect(fairmines.NothingToCashOutError, 11, None, round_.cash_out)
    first = round_.reveal(1)
    assert first.safe and first.safe_picks == 1 and first.multiplier == Fraction(9, 8)  # 25/22 x 99/100
    assert repr(first) == "Reveal(tile=1, safe=True, safe_picks=1, multiplier=Fraction(9, 8))"
    expect(fairmines.TileAlreadyRevealedError, 9, "tile", round_.reveal, 1)
    for tile in (0, 26, -1, 2**63, 2**70, -(2**70)):
        text = expect(fairmines.InvalidTileError, 3, "tile", round_.reveal, tile)
        assert text == f"tile: must be in 1..=25, got {tile}"
    for bad in (1.0, "1", True, None):
        err = raised(round_.reveal, bad)
        assert type(err) is TypeError and str(err).startswith("tile: must be int"), str(err)
    assert list(round_.picks) == [1], "refused reveals must not change the round"
    assert round_.reveal(2).multiplier == fair(3, 2, Fraction(99, 100))
    paid = round_.cash_out()
    assert paid == fair(3, 2, Fraction(99, 100)) and type(paid) is Fraction
    assert round_.outcome == "cashed_out" and round_.multiplier == paid and round_.safe_picks == 2
    assert round_.mine_positions == (7, 10, 19)
    expect(fairmines.RoundFinishedError, 10, None, round_.cash_out)
    expect(fairmines.RoundFinishedError, 10, None, round_.reveal, 3)
    # A finished round refuses even a tile out of range with RoundFinishedError, as the core does.
    expect(fairmines.RoundFinishedError, 10, None, round_.reveal, 2**70)
    assert repr(round_) == (
        f"Round(commitment='{WORKED['commitment']}', nonce=1, mines=3, picks=(1, 2), outcome='cashed_out')"
    )

    record = round_.record()
    assert record is not None
    assert (record.commitment, record.client_seed, record.nonce, record.mines) == (WORKED["commitment"], C, 1, 3)
    assert (record.rtp, record.picks, record.outcome, record.multiplier) == (Fraction(99, 100), (1, 2), "cashed_out", paid)
    revealed = pair.rotate()
    verdict = fairmines.verify_round(record, revealed.server_seed)
    assert verdict and verdict.ok and verdict.commitment_ok and verdict.differences == ()
    assert verdict.mine_positions == (7, 10, 19)
    assert verdict.expected_outcome == "cashed_out" and verdict.expected_multiplier == paid
    assert repr(verdict) == "<RoundVerification ok; mines at [7, 10, 19]>"


def test_the_grid_is_hidden_while_in_play() -> None:
    round_ = fairmines.SeedPair.from_parts(S, C, 1).start_round(3, 1)
    round_.reveal(1)
    assert round_.mine_positions is None and round_.record() is None
    assert repr(round_) == f"Round(commitment='{WORKED['commitment']}', nonce=1, mines=3, picks=(1,), outcome=None)"
    with pytest.raises(TypeError):
        pickle.dumps(round_)
    with pytest.raises(TypeError):
        fairmines.Round()


# --- the server seed is revealed only with no round in play --------------------------------------


def test_a_round_in_play_keeps_its_seed_secret() -> None:
    """Issue 21: a round stayed playable after `rotate` revealed its server seed."""
    pair = fairmines.SeedPair("player")
    round_ = pair.start_round(5, "99/100")
    public, state = pair.public, pair.to_state_json()
    for call, args in ((pair.rotate, ()), (pair.rotate, ("another",)), (pair.set_client_seed, ("another",))):
        text = expect(fairmines.RoundsInPlayError, 16, None, call, *args)
        assert text == (
            "the seed pair has 1 round(s) in play (nonce 0): finish or void them before its server seed is revealed"
        )
    # Nothing was revealed (so the grid cannot be computed by the player), and nothing changed.
    assert pair.public == public and pair.to_state_json() == state and pair.open_rounds() == [0]
    assert not round_.is_finished and round_.outcome is None and round_.mine_positions is None

    # The operator voids the open round; then the pair rotates.
    assert pair.void_open_rounds() == [0]
    assert pair.open_rounds() == [] and pair.void_open_rounds() == []
    revealed = pair.rotate()
    assert revealed.commitment == public.commitment and revealed.rounds == 1
    grid = fairmines.mine_positions(revealed.server_seed, "player", 0, 5)
    # Knowing the grid is now useless: the voided round takes no move.
    for tile in (safe_tiles(grid)[0], grid[0], 0, 2**70):
        expect(fairmines.RoundVoidedError, 17, None, round_.reveal, tile)
    expect(fairmines.RoundVoidedError, 17, None, round_.cash_out)
    assert round_.is_finished and round_.outcome == "voided" and round_.multiplier is None
    assert round_.picks == () and round_.safe_picks == 0 and list(round_.mine_positions or ()) == grid
    assert repr(round_).endswith("picks=(), outcome='voided')")
    record = round_.record()
    assert record is not None and record.outcome == "voided" and record.multiplier is None and record.picks == ()
    assert json.loads(record.to_json())["outcome"] == "voided" and json.loads(record.to_json())["multiplier"] is None
    verdict = fairmines.verify_round(record, revealed.server_seed)
    assert verdict.ok and verdict.differences == ()
    assert verdict.expected_outcome == "voided" and verdict.expected_multiplier is None


def test_voiding_ends_only_the_rounds_in_play() -> None:
    grid = fairmines.mine_positions(S, C, 1, 3)
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    lost, cashed, played, fresh = (pair.start_round(3, "0.99") for _ in range(4))
    assert lost.nonce == 1 and fresh.nonce == 4
    assert pair.open_rounds() == [1, 2, 3, 4]
    lost.reveal(grid[0])
    assert cashed.reveal(safe_tiles(fairmines.mine_positions(S, C, 2, 3))[0]).safe
    cashed.cash_out()
    safe = safe_tiles(fairmines.mine_positions(S, C, 3, 3))
    assert played.reveal(safe[0]).safe and played.reveal(safe[1]).safe
    assert pair.open_rounds() == [3, 4]
    text = expect(fairmines.RoundsInPlayError, 16, None, pair.rotate)
    assert "2 round(s) in play (nonce 3, 4)" in text

    assert pair.void_open_rounds() == [3, 4]
    # Finished rounds keep their outcome and their error; the voided ones say voided.
    assert (lost.outcome, cashed.outcome, played.outcome, fresh.outcome) == ("lost", "cashed_out", "voided", "voided")
    expect(fairmines.RoundFinishedError, 10, None, lost.reveal, 5)
    expect(fairmines.RoundFinishedError, 10, None, cashed.cash_out)
    expect(fairmines.RoundVoidedError, 17, None, played.reveal, safe[2])
    expect(fairmines.RoundVoidedError, 17, None, played.cash_out)
    # A voided round with safe picks: its picks and safe_picks stay, it pays nothing.
    assert played.picks == (safe[0], safe[1]) and played.safe_picks == 2 and played.multiplier is None
    record = played.record()
    assert record is not None and (record.picks, record.outcome, record.multiplier) == ((safe[0], safe[1]), "voided", None)
    revealed = pair.rotate()
    assert revealed.rounds == 5 and revealed.server_seed == S
    for round_ in (lost, cashed, played, fresh):
        finished = round_.record()
        assert finished is not None and fairmines.verify_round(finished, S).ok, finished
    # The new pair's rounds are its own: a round of it is in play, the old ones are not.
    assert pair.open_rounds() == [] and pair.start_round(3, 1).nonce == 0 and pair.open_rounds() == [0]


def test_the_state_keeps_the_rounds_in_play() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 7)
    open_round = pair.start_round(3, "0.99")
    finished = pair.start_round(24, "0.99")
    finished.reveal(fairmines.mine_positions(S, C, 8, 24)[0])
    state = pair.to_state_json()
    assert json.loads(state)["open_rounds"] == [7] and json.loads(state)["nonce"] == 9

    # After a restart: the restored pair still refuses to reveal the seed under round 7.
    restored = fairmines.SeedPair.from_state_json(state)
    assert restored.open_rounds() == [7] and restored.public == pair.public
    expect(fairmines.RoundsInPlayError, 16, None, restored.rotate)
    expect(fairmines.RoundsInPlayError, 16, None, restored.set_client_seed, "x")
    assert restored.to_state_json() == state
    assert fairmines.SeedPair.from_state_json(restored.to_state_json()).open_rounds() == [7]
    assert restored.void_open_rounds() == [7]
    assert json.loads(restored.to_state_json())["open_rounds"] == []
    assert restored.rotate().server_seed == S
    # The restored pair is a new value: it does not reach the rounds of the pair it was saved from.
    assert not open_round.is_finished and pair.open_rounds() == [7]


# --- records and verify_round ---------------------------------------------------------------------


def finished_record(picks: list[int], nonce: int = 1, cash_out: bool = True) -> fairmines.RoundRecord:
    round_ = fairmines.SeedPair.from_parts(S, C, nonce).start_round(3, "0.99")
    for tile in picks:
        round_.reveal(tile)
    if cash_out and not round_.is_finished:
        round_.cash_out()
    record = round_.record()
    assert record is not None
    return record


def test_record_json_round_trip_and_value_semantics() -> None:
    won, lost = finished_record([1, 2, 3]), finished_record([1, 7])
    for record in (won, lost):
        text = record.to_json()
        again = fairmines.RoundRecord.from_json(text)
        assert again == record and hash(again) == hash(record) and again.to_json() == text
        assert pickle.loads(pickle.dumps(record)) == record and copy.deepcopy(record) == record
    assert json.loads(won.to_json()) == {
        "commitment": WORKED["commitment"],
        "client_seed": C,
        "nonce": 1,
        "mines": 3,
        "rtp": "99/100",
        "picks": [1, 2, 3],
        "outcome": "cashed_out",
        "multiplier": str(fair(3, 3, Fraction(99, 100))),
    }
    assert json.loads(lost.to_json())["multiplier"] is None and lost.outcome == "lost"
    assert won != lost
    # A voided record (built as a player would from what was published) reads and writes "voided".
    voided = fairmines.RoundRecord.from_json(won.to_json().replace('"cashed_out"', '"voided"').replace(
        f'"{fair(3, 3, Fraction(99, 100))}"', "null"))
    assert (voided.outcome, voided.multiplier, voided.picks) == ("voided", None, (1, 2, 3))
    assert voided == fairmines.RoundRecord(WORKED["commitment"], C, 1, 3, "0.99", [1, 2, 3], "voided")
    assert json.loads(voided.to_json())["outcome"] == "voided" and pickle.loads(pickle.dumps(voided)) == voided
    assert repr(voided).endswith("outcome='voided', multiplier=None)")
    with pytest.raises(AttributeError):
        won.nonce = 2  # type: ignore[misc]


def test_a_record_built_by_hand_equals_the_played_one() -> None:
    played = finished_record([1, 2, 3])
    by_hand = fairmines.RoundRecord(
        commitment=WORKED["commitment"].upper(),
        client_seed=C,
        nonce=1,
        mines=3,
        rtp=Decimal("0.99"),
        picks=[1, 2, 3],
        outcome="cashed_out",
        multiplier=str(fair(3, 3, Fraction(99, 100))),
    )
    assert by_hand == played
    assert fairmines.verify_round(by_hand, S).ok
    lost = fairmines.RoundRecord(WORKED["commitment"], C, 1, 3, "99/100", (1, 7), "lost")
    assert lost == finished_record([1, 7]) and lost.multiplier is None
    assert repr(lost) == (
        f"RoundRecord(commitment='{WORKED['commitment']}', client_seed='{C}', nonce=1, mines=3, "
        "rtp=Fraction(99, 100), picks=(1, 7), outcome='lost', multiplier=None)"
    )


GOOD: dict[str, Any] = {
    "commitment": WORKED["commitment"],
    "client_seed": C,
    "nonce": 1,
    "mines": 3,
    "rtp": "0.99",
    "picks": [1, 2],
    "outcome": "cashed_out",
    "multiplier": "9/7",
}


@pytest.mark.parametrize(
    ("field", "value", "cls", "argument"),
    [
        ("commitment", "abc", fairmines.InvalidHexError, "commitment"),
        ("client_seed", "\ud800", fairmines.InvalidUtf8Error, "client_seed"),
        ("nonce", -1, fairmines.InvalidNonceError, "nonce"),
        ("nonce", 2**64, fairmines.InvalidNonceError, "nonce"),
        ("mines", 0, fairmines.InvalidMinesError, "mines"),
        ("mines", 2**100, fairmines.InvalidMinesError, "mines"),
        ("rtp", "1.5", fairmines.InvalidRtpError, "rtp"),
        ("rtp", Fraction(-1, 2), fairmines.InvalidRtpError, "rtp"),
        ("picks", [0], fairmines.InvalidTileError, "picks"),
        ("picks", [1, 26], fairmines.InvalidTileError, "picks"),
        ("picks", [2**80], fairmines.InvalidTileError, "picks"),
        ("picks", list(range(1, 26)) + [1], fairmines.InvalidTileError, "picks"),
        ("outcome", "won", fairmines.InvalidStateError, "outcome"),
        ("multiplier", "x", fairmines.InvalidNumberError, "multiplier"),
        ("multiplier", "1/0", fairmines.InvalidNumberError, "multiplier"),
        ("multiplier", Fraction(-3, 2), fairmines.InvalidNumberError, "multiplier"),
        ("multiplier", Decimal("Infinity"), fairmines.InvalidNumberError, "multiplier"),
    ],
)
def test_record_constructor_errors(field: str, value: Any, cls: type[fairmines.FairminesError], argument: str) -> None:
    err = raised(fairmines.RoundRecord, **{**GOOD, field: value})
    assert type(err) is cls, repr(err)
    assert err.argument == argument and str(err).startswith(f"{argument}: "), str(err)


@pytest.mark.parametrize(
    ("field", "value", "label"),
    [
        ("commitment", 5, "commitment"),
        ("nonce", 1.0, "nonce"),
        ("mines", "3", "mines"),
        ("rtp", 0.99, "rtp"),
        ("picks", "12", "picks"),
        ("picks", [1, 2.0], "picks[1]"),
        ("picks", [True], "picks[0]"),
        ("outcome", None, "outcome"),
        ("multiplier", 1.5, "multiplier"),
    ],
)
def test_record_constructor_type_errors(field: str, value: Any, label: str) -> None:
    err = raised(fairmines.RoundRecord, **{**GOOD, field: value})
    assert type(err) is TypeError and str(err).startswith(f"{label}: must be "), str(err)


def test_record_from_json_errors() -> None:
    for text in ["", "[]", "{}", GOOD_JSON.replace('"cashed_out"', '"won"'), GOOD_JSON.replace('"9/7"', '"x"')]:
        expect(fairmines.InvalidStateError, 15, "record", fairmines.RoundRecord.from_json, text)
    public = '{"commitment": "00", "client_seed": "c", "nonce": 0}'
    expect(fairmines.InvalidStateError, 15, "public", fairmines.PublicSeedPair.from_json, public)
    expect(fairmines.InvalidStateError, 15, "revealed", fairmines.RevealedSeedPair.from_json, '{"server_seed": "s"}')
    # An unknown field (a typo) is refused, naming it, rather than ignored.
    revealed = fairmines.RevealedSeedPair(S, WORKED["commitment"], C, 2).to_json()
    parsers: list[tuple[Callable[[str], Any], str, str]] = [
        (fairmines.RoundRecord.from_json, "record", GOOD_JSON),
        (fairmines.PublicSeedPair.from_json, "public", fairmines.SeedPair.from_parts(S, C).public.to_json()),
        (fairmines.RevealedSeedPair.from_json, "revealed", revealed),
    ]
    for from_json, argument, text in parsers:
        assert from_json(text).to_json() == text
        typo = text[:-1] + ',"multiplyer":"9/7"}'
        message = expect(fairmines.InvalidStateError, 15, argument, from_json, typo)
        assert "unknown field `multiplyer`" in message, message
    err = raised(fairmines.RoundRecord.from_json, b"{}")
    assert type(err) is TypeError and str(err).startswith("json: must be str")


GOOD_JSON = fairmines.RoundRecord(**GOOD).to_json()


def changed(record: fairmines.RoundRecord, **changes: Any) -> fairmines.RoundRecord:
    fields = {name: getattr(record, name) for name in GOOD}
    return fairmines.RoundRecord(**{**fields, **changes})


def test_verify_round_lists_every_difference() -> None:
    record = fairmines.RoundRecord(**GOOD)
    assert fairmines.verify_round(record, S).ok and changed(record) == record

    def differences(**changes: Any) -> tuple[str, ...]:
        verdict = fairmines.verify_round(changed(record, **changes), S)
        assert not verdict and not verdict.ok
        return verdict.differences

    (commitment,) = differences(commitment="0" * 64)
    assert commitment.startswith("commitment: ")
    assert not fairmines.verify_round(changed(record, commitment="0" * 64), S).commitment_ok
    assert differences(multiplier="9/8") == ("multiplier: the record says 9/8, the picks give 9/7",)
    assert differences(multiplier=None) == ("multiplier: the record says none, the picks give 9/7",)
    assert differences(rtp="0.98")[0].startswith("multiplier: ")
    assert differences(mines=4)[0].startswith("multiplier: ")
    assert differences(picks=[1, 2, 3])[0].startswith("multiplier: ")
    assert differences(picks=[1, 1])[0].startswith("picks: pick 2 (tile 1) repeats")
    assert set(d.split(":")[0] for d in differences(picks=[1, 7], outcome="cashed_out")) == {"outcome", "multiplier"}
    assert differences(outcome="lost")[0].startswith("outcome: the record says lost, the picks give cashed_out")
    assert differences(picks=[7, 1], outcome="lost", multiplier=None)[0].startswith("picks: pick 2 (tile 1) comes after")
    assert differences(picks=[])[0].startswith("picks: a cash-out needs")
    # Voided: picks all safe with a safe tile left, and no multiplier.
    assert fairmines.verify_round(changed(record, outcome="voided", multiplier=None), S).expected_outcome == "voided"
    assert fairmines.verify_round(changed(record, outcome="voided", multiplier=None, picks=[]), S).ok
    assert differences(outcome="voided") == ("multiplier: the record says 9/7, the picks give none",)
    lost_voided = differences(picks=[1, 7], outcome="voided", multiplier=None)
    assert lost_voided == ("outcome: the record says voided, the picks give lost",)
    every_safe_tile = safe_tiles(fairmines.mine_positions(S, C, 1, 3))
    assert differences(picks=every_safe_tile, outcome="voided", multiplier=None)[0].startswith(
        "outcome: the record says voided, the picks give cashed_out"
    )
    # Another nonce or client seed whose grid has a mine under tile 1 or 2: the picks tell another story.
    nonce = next(n for n in range(2, 200) if {1, 2} & set(fairmines.mine_positions(S, C, n, 3)))
    assert {"outcome", "multiplier"} <= {d.split(":")[0] for d in differences(nonce=nonce)}
    client = next(c for c in map(str, range(200)) if {1, 2} & set(fairmines.mine_positions(S, c, 1, 3)))
    assert {"outcome", "multiplier"} <= {d.split(":")[0] for d in differences(client_seed=client)}
    # Wrong server seed: the commitment check fails.
    verdict = fairmines.verify_round(record, "0" * 64)
    assert not verdict.commitment_ok and verdict.differences[0].startswith("commitment: ")
    assert "FAILED" in repr(verdict) and "commitment: " in repr(verdict)


def test_verify_round_errors() -> None:
    record = fairmines.RoundRecord.from_json(GOOD_JSON.replace('"mines":3', '"mines":30'))
    expect(fairmines.InvalidMinesError, 1, "mines", fairmines.verify_round, record, S)
    record = fairmines.RoundRecord.from_json(GOOD_JSON.replace('"picks":[1,2]', '"picks":[1,0]'))
    expect(fairmines.InvalidTileError, 3, "picks", fairmines.verify_round, record, S)
    expect(fairmines.InvalidUtf8Error, 5, "server_seed", fairmines.verify_round, fairmines.RoundRecord(**GOOD), "\ud800")
    err = raised(fairmines.verify_round, GOOD_JSON, S)
    assert type(err) is TypeError and str(err) == "record: must be RoundRecord, not str"
    err = raised(fairmines.verify_round, fairmines.RoundRecord(**GOOD), None)
    assert type(err) is TypeError and str(err).startswith("server_seed: must be str")


# --- payouts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("rtp", ["0.99", "97/100", "1", Fraction(987, 1000), Decimal("0.5"), 1])
def test_the_payout_table_is_the_binomial_formula(rtp: Any) -> None:
    factor = Fraction(str(rtp)) if not isinstance(rtp, Fraction) else rtp
    table = fairmines.payout_table(rtp)
    expected = [(m, k) for m in range(1, 25) for k in range(1, 26 - m)]
    assert [(e.mines, e.safe_picks) for e in table] == expected
    assert len(table) == 300
    for entry in table:
        exact = fair(entry.mines, entry.safe_picks, factor)
        assert entry.multiplier == exact and type(entry.multiplier) is Fraction
        assert fairmines.multiplier(entry.mines, entry.safe_picks, rtp) == exact
        # The expected return of "pick k tiles then cash out" is exactly the RTP.
        survive = Fraction(comb(25 - entry.mines, entry.safe_picks), comb(25, entry.safe_picks))
        assert survive * entry.multiplier == factor
    assert table[0] == fairmines.payout_table(rtp)[0] and hash(table[0]) == hash(fairmines.payout_table(rtp)[0])
    assert repr(table[-1]) == f"TableEntry(mines=24, safe_picks=1, multiplier=Fraction({(25 * factor).numerator}, {(25 * factor).denominator}))"


def test_known_multipliers_and_max_safe_picks() -> None:
    assert fairmines.multiplier(3, 1, "0.99") == Fraction(9, 8)
    assert fairmines.multiplier(3, 22, 1) == 2300
    assert fairmines.multiplier(1, 24, "1") == 25
    for mines in range(1, 25):
        assert fairmines.max_safe_picks(mines) == 25 - mines
    for mines in (0, 25, -3, 2**64):
        expect(fairmines.InvalidMinesError, 1, "mines", fairmines.max_safe_picks, mines)
        expect(fairmines.InvalidMinesError, 1, "mines", fairmines.multiplier, mines, 1, 1)


@pytest.mark.parametrize("k", [0, 23, -1, 255, 256, 2**70, -(2**70)])
def test_multiplier_picks_out_of_range(k: int) -> None:
    text = expect(fairmines.InvalidPicksError, 13, "safe_picks", fairmines.multiplier, 3, k, "0.99")
    assert text == f"safe_picks: must be in 1..=22 with 3 mines, got {k}"


def test_rtp_errors_everywhere() -> None:
    for fn in (
        lambda rtp: fairmines.payout_table(rtp),
        lambda rtp: fairmines.multiplier(3, 1, rtp),
        lambda rtp: fairmines.SeedPair.from_parts(S, C).start_round(3, rtp),
    ):
        for bad in ("0", "1.0000001", "-1", "x", Fraction(1, 2**130), Fraction(2**130, 2**131 + 1)):
            expect(fairmines.InvalidRtpError, 12, "rtp", fn, bad)
        err = raised(fn, 0.5)
        assert type(err) is TypeError and "binary fraction" in str(err)
    # Huge but exact and in range after reduction is fine.
    assert fairmines.multiplier(3, 1, Fraction(2**130, 2**131)) == Fraction(25, 44)
