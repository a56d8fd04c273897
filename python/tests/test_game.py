"""The game through the package: a short smoke of play (the worked example, and the no-rotation-in-play sequence) and
the conversion of every argument and result. The rules themselves (valid and invalid moves, voiding,
rotation, record verification) are tested once, in the core (crates/fairmines/tests/game.rs and
game_machine.rs); here a refusal is checked for its class, code, argument and message, not for the rule."""

from __future__ import annotations

import copy
import json
import pickle
from decimal import Decimal
from fractions import Fraction
from math import comb
from typing import Any, Callable

import numpy as np
import pytest

import fairmines
from conftest import WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]


def raised(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return info.value


def expect(cls: type[fairmines.FairminesError], argument: str | None, fn: Callable[..., Any], *args: Any) -> str:
    err = raised(fn, *args)
    assert type(err) is cls, repr(err)
    assert isinstance(err, fairmines.FairminesError) and err.code == cls.code and err.argument == argument
    if argument is not None:
        assert str(err).startswith(f"{argument}: "), str(err)
    return str(err)


def fair(mines: int, k: int, rtp: Fraction) -> Fraction:
    """C(25, k) / C(25 - mines, k) x rtp, computed here with Python's own integers."""
    return Fraction(comb(25, k), comb(25 - mines, k)) * rtp


def safe_tiles(grid: list[int]) -> list[int]:
    return [t for t in range(1, 26) if t not in grid]


# --- smoke ----------------------------------------------------------------------------------------


def test_the_worked_example_as_a_game() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    round_ = pair.start_round(3, "0.99")
    assert (round_.commitment, round_.client_seed, round_.nonce, round_.mines) == (WORKED["commitment"], C, 1, 3)
    assert round_.picks == () and round_.safe_picks == 0 and round_.multiplier is None and round_.outcome is None
    assert round_.rtp == Fraction(99, 100) and type(round_.rtp) is Fraction and pair.public_part.nonce == 2
    assert round_.mine_positions is None and round_.record() is None
    # The core's Reveal, field for field.
    first = round_.reveal(1)
    assert (first.tile, first.safe, first.safe_picks, first.multiplier, first.finished) == (1, True, 1, Fraction(9, 8), False)
    assert type(first.multiplier) is Fraction
    assert repr(first) == "Reveal(tile=1, safe=True, safe_picks=1, multiplier=Fraction(9, 8), finished=False)"
    second = round_.reveal(2)
    assert second.safe and second.safe_picks == 2 and second != first and hash(second) != hash(first)
    assert round_.multiplier == fair(3, 2, Fraction(99, 100)) and round_.safe_picks == 2
    assert repr(round_) == f"Round(commitment='{WORKED['commitment']}', nonce=1, mines=3, picks=(1, 2), outcome=None)"
    paid = round_.cash_out()
    assert paid == fair(3, 2, Fraction(99, 100)) == round_.multiplier and type(paid) is Fraction
    assert round_.outcome == "cashed_out" and round_.is_finished and round_.mine_positions == (7, 10, 19)
    record = round_.record()
    assert record is not None
    assert (record.commitment, record.client_seed, record.nonce, record.mines) == (WORKED["commitment"], C, 1, 3)
    assert (record.rtp, record.picks, record.outcome, record.multiplier) == (Fraction(99, 100), (1, 2), "cashed_out", paid)
    revealed = pair.rotate(None)  # None: the client seed stays
    assert (revealed.server_seed, revealed.commitment, revealed.client_seed, revealed.rounds) == (S, WORKED["commitment"], C, 2)
    assert pair.public_part.client_seed == C and pair.public_part.nonce == 0
    verdict = fairmines.verify_round(record, revealed.server_seed)
    assert verdict and verdict.ok and verdict.commitment_ok and verdict.differences == ()
    assert verdict.mine_positions == (7, 10, 19) and verdict.expected_outcome == "cashed_out"
    assert verdict.expected_multiplier == paid and repr(verdict) == "<RoundVerification ok; mines at [7, 10, 19]>"
    forged = fairmines.verify_round(fairmines.RoundRecord.from_json(record.to_json().replace("cashed_out", "lost")), S)
    assert not forged and forged.differences == ("outcome: the record says lost, the picks give cashed_out",)
    assert repr(forged) == "<RoundVerification FAILED: outcome: the record says lost, the picks give cashed_out; mines at [7, 10, 19]>"
    # A mine: the last field of Reveal says the round is over.
    lost = fairmines.SeedPair.from_parts(S, C, 1).start_round(3, 1)
    mine = lost.reveal(7)
    assert (mine.tile, mine.safe, mine.safe_picks, mine.multiplier, mine.finished) == (7, False, 0, None, True)
    assert lost.outcome == "lost" and lost.multiplier is None


def test_a_round_in_play_keeps_its_seed_secret_until_voided() -> None:
    """A round in play keeps its seed secret: rotate refused, void, rotate, the voided round refuses every
    move and its record verifies. Also across a restart, through the operator's state."""
    pair = fairmines.SeedPair("player")
    round_ = pair.start_round(5, "99/100")
    public, state = pair.public_part, pair.to_state_json()
    for call, args in ((pair.rotate, ()), (pair.rotate, ("another",)), (pair.set_client_seed, ("another",))):
        text = expect(fairmines.RoundsInPlayError, None, call, *args)
        assert text == "the seed pair has 1 round(s) in play (nonce 0): finish or void them before its server seed is revealed"
    assert pair.public_part == public and pair.to_state_json() == state and pair.open_rounds() == [0]
    assert [saved["nonce"] for saved in json.loads(state)["rounds"]] == [0]
    restored = fairmines.SeedPair.from_state_json(state)
    assert restored.open_rounds() == [0]
    expect(fairmines.RoundsInPlayError, None, restored.rotate)
    assert restored.void_open_rounds() == [0] and restored.rotate().server_seed == json.loads(state)["server_seed"]

    assert pair.void_open_rounds() == [0] and pair.open_rounds() == [] and pair.void_open_rounds() == []
    revealed = pair.rotate()
    grid = fairmines.mine_positions(revealed.server_seed, "player", 0, 5)
    for tile in (safe_tiles(grid)[0], grid[0], 0, 2**70):
        expect(fairmines.RoundVoidedError, None, round_.reveal, tile)
    expect(fairmines.RoundVoidedError, None, round_.cash_out)
    assert round_.is_finished and round_.outcome == "voided" and round_.multiplier is None
    assert list(round_.mine_positions or ()) == grid and repr(round_).endswith("picks=(), outcome='voided')")
    record = round_.record()
    assert record is not None and (record.outcome, record.multiplier, record.picks) == ("voided", None, ())
    verdict = fairmines.verify_round(record, revealed.server_seed)
    assert verdict.ok and verdict.expected_outcome == "voided" and verdict.expected_multiplier is None


def not_in_play(call: Callable[..., Any], nonce: Any, says: str) -> None:
    text = expect(fairmines.RoundNotInPlayError, "nonce", call, nonce)
    assert text.endswith(says) and fairmines.RoundNotInPlayError.code == 18, text


NEVER = "is in play at nonce {}: it was never started, has finished or was voided"


def test_round_hands_back_only_a_round_in_play_and_once_while_it_lives() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    not_in_play(pair.round, 1, NEVER.format(1))  # never started
    not_in_play(pair.round, 0, NEVER.format(0))  # below the pair's first nonce
    first = pair.start_round(3, "0.99")
    held = "the round at nonce 1 is already handed out by this seed pair: go on with that round"
    not_in_play(pair.round, 1, held)
    first.reveal(1)
    del first  # dropped in play: the pair hands it back, with its pick
    again = pair.round(1)
    assert again.picks == (1,) and again.nonce == 1 and again.mines == 3 and again.rtp == Fraction(99, 100)
    not_in_play(pair.round, 1, held)
    again.cash_out()
    not_in_play(pair.round, 1, NEVER.format(1))  # finished
    lost = pair.start_round(3, "0.99")
    lost.reveal(fairmines.mine_positions(S, C, 2, 3)[0])
    not_in_play(pair.round, 2, NEVER.format(2))  # lost
    voided = pair.start_round(3, "0.99")
    assert pair.void_open_rounds() == [3]
    not_in_play(pair.round, 3, NEVER.format(3))  # voided, while its Round lives
    del voided
    not_in_play(pair.round, 3, NEVER.format(3))
    not_in_play(pair.round, 2**64 - 1, NEVER.format(2**64 - 1))

    # A restored pair hands each round out once too, whatever the pair it was saved from holds.
    live = pair.start_round(5, "1")
    restored = fairmines.SeedPair.from_state_json(pair.to_state_json())
    resumed = restored.round(4)
    not_in_play(restored.round, 4, held.replace("nonce 1", "nonce 4"))
    assert resumed.picks == live.picks == () and resumed.rtp == 1
    not_in_play(pair.round, 4, held.replace("nonce 1", "nonce 4"))


def test_a_state_of_the_first_version_gives_void_only_rounds() -> None:
    # Written before rounds were saved whole: the nonces of the rounds in play, no version.
    old = {"server_seed": S, "commitment": WORKED["commitment"], "client_seed": C, "nonce": 5, "open_rounds": [4, 1]}
    pair = fairmines.SeedPair.from_state_json(json.dumps(old))
    assert pair.open_rounds() == [1, 4] and pair.public_part.nonce == 5
    for nonce in (1, 4):
        says = f"the round at nonce {nonce} was saved by a version that kept only its nonce, without its picks: it can only be voided"
        not_in_play(pair.round, nonce, says)
    not_in_play(pair.round, 2, NEVER.format(2))
    # Written again in the current version they stay void-only, and a round started since resumes.
    tile = safe_tiles(fairmines.mine_positions(S, C, 5, 3))[0]
    started = pair.start_round(3, "0.99")
    started.reveal(tile)
    rewritten = json.loads(pair.to_state_json())
    assert rewritten["version"] == 2 and "open_rounds" not in rewritten
    assert rewritten["rounds"] == [{"nonce": 1}, {"nonce": 4}, {"nonce": 5, "mines": 3, "rtp": "99/100", "picks": [tile]}]
    again = fairmines.SeedPair.from_state_json(json.dumps(rewritten))
    not_in_play(again.round, 4, "it can only be voided")
    assert again.round(5).picks == (tile,)
    expect(fairmines.RoundsInPlayError, None, again.rotate)
    assert again.void_open_rounds() == [1, 4, 5] and again.rotate().server_seed == S


def test_round_takes_a_nonce_for_the_core() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 3)
    tile = safe_tiles(fairmines.mine_positions(S, C, 3, 3))[0]
    pair.start_round(3, "0.99").reveal(tile)  # dropped: the pair hands it back
    for nonce in (np.uint64(3), 3.0, np.int8(3)):
        round_ = pair.round(nonce)
        assert round_.nonce == 3 and round_.picks == (tile,)
        del round_
    for nonce, shown in [(-1, "-1"), (2**64, str(2**64)), (2**200, "an integer of 2^128 or more"), (0.5, "0.5")]:
        text = expect(fairmines.InvalidNonceError, "nonce", pair.round, nonce)
        assert text == f"nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got {shown}"
    for bad in ("3", True, None, b"3", [3]):
        err = raised(pair.round, bad)
        assert type(err) is TypeError and str(err).startswith("nonce: must be int"), str(err)
    assert pair.round(3).picks == (tile,), "refused calls hand nothing out"


def test_rounds_and_pairs_never_show_the_secret_seed() -> None:
    pair = fairmines.SeedPair("player")
    seed = json.loads(pair.to_state_json())["server_seed"]
    assert pair.public_part.commitment == fairmines.commitment(seed)
    for text in (repr(pair), str(pair), repr([pair]), repr(pair.start_round(3, 1))):
        assert seed not in text and seed[:16] not in text
    assert repr(pair) == f"SeedPair(commitment='{pair.public_part.commitment}', client_seed='player', nonce=1, server_seed=<hidden>)"
    for leak in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="secret"):
            leak(pair)
    with pytest.raises(TypeError):
        pickle.dumps(pair.start_round(3, 1))
    with pytest.raises(TypeError):
        fairmines.Round()
    revealed = fairmines.SeedPair.from_parts(S, C).rotate()
    assert S not in repr(revealed) and repr(revealed).startswith("RevealedSeedPair(commitment=")


# --- arguments in -----------------------------------------------------------------------------------


def test_seed_pair_arguments() -> None:
    # A ServerSeed object or its text; the nonce defaults to 0 and takes any integer-like value.
    seed = fairmines.generate_server_seed()
    from_object = fairmines.SeedPair.from_parts(seed, "c")
    assert from_object.public_part.commitment == seed.commitment and from_object.public_part.nonce == 0
    assert json.loads(from_object.to_state_json())["server_seed"] == seed.reveal()
    assert fairmines.SeedPair.from_parts(S, C, np.uint64(7)).public_part.nonce == 7
    assert fairmines.SeedPair.from_parts(S, C, 7.0).public_part.nonce == 7
    expect(fairmines.InvalidHexError, "server_seed", fairmines.SeedPair.from_parts, "abc", C)
    expect(fairmines.InvalidHexError, "server_seed", fairmines.SeedPair.from_parts, S.upper(), C)
    expect(fairmines.InvalidNonceError, "nonce", fairmines.SeedPair.from_parts, S, C, -1)
    expect(fairmines.InvalidNonceError, "nonce", fairmines.SeedPair.from_parts, S, C, 2**64)
    # Nonce 2^64 - 1 starts no round, by one rule: start_round there and from_parts with it.
    last = fairmines.SeedPair.from_parts(S, C, 2**64 - 2)
    assert last.start_round(3, "0.99").nonce == 2**64 - 2
    there = expect(fairmines.InvalidNonceError, "nonce", last.start_round, 3, "0.99")
    assert there == "nonce: 18446744073709551615 starts no round: a seed pair plays nonces 0 to 18446744073709551614 (it counts its rounds in 64 bits); rotate to a new seed pair"
    assert expect(fairmines.InvalidNonceError, "nonce", fairmines.SeedPair.from_parts, S, C, 2**64 - 1) == there
    expect(fairmines.InvalidUtf8Error, "client_seed", fairmines.SeedPair, "\ud800")
    expect(fairmines.InvalidUtf8Error, "client_seed", fairmines.SeedPair.from_parts(S, C).rotate, "\ud800")
    expect(fairmines.InvalidUtf8Error, "client_seed", fairmines.SeedPair.from_parts(S, C).set_client_seed, "\udfff")
    expect(fairmines.InvalidStateError, "state", fairmines.SeedPair.from_state_json, "{}")
    for argument, call in [
        ("client_seed", lambda: fairmines.SeedPair(b"c")),  # type: ignore[arg-type]
        ("server_seed", lambda: fairmines.SeedPair.from_parts(5, C)),  # type: ignore[arg-type]
        ("nonce", lambda: fairmines.SeedPair.from_parts(S, C, "1")),  # type: ignore[arg-type]
        ("state", lambda: fairmines.SeedPair.from_state_json(b"{}")),  # type: ignore[arg-type]
        ("client_seed", lambda: fairmines.SeedPair.from_parts(S, C).rotate(3)),  # type: ignore[arg-type]
    ]:
        err = raised(call)
        assert type(err) is TypeError and str(err).startswith(f"{argument}: must be "), str(err)


@pytest.mark.parametrize(
    "rtp", ["0.99", "99/100", ".99", "198/200", Fraction(99, 100), Decimal("0.99"), Decimal("0.990000")]
)
def test_every_form_of_an_rtp_is_exact(rtp: Any) -> None:
    round_ = fairmines.SeedPair.from_parts(S, C, 1).start_round(3, rtp)
    assert round_.rtp == Fraction(99, 100) and type(round_.rtp) is Fraction


@pytest.mark.parametrize(
    "call",
    [
        lambda rtp: fairmines.payout_table(rtp),
        lambda rtp: fairmines.multiplier(3, 1, rtp),
        lambda rtp: fairmines.SeedPair.from_parts(S, C).start_round(3, rtp),
    ],
)
def test_rtps_go_to_the_core_as_text_or_parts(call: Callable[[Any], Any]) -> None:
    for bad in ("0", "1.0000001", "-1", "x", "", "1/0", "0.99 ", " 99/100", Fraction(0), Decimal("1.5"), 2, Decimal("NaN"), Decimal("-Infinity")):
        expect(fairmines.InvalidRtpError, "rtp", call, bad)
    # The parts of a Fraction (or Decimal, or int) are judged by the core's Ratio::from_parts.
    text = expect(fairmines.InvalidNumberError, "rtp.numerator", call, Fraction(-1, 2))
    assert text == "rtp.numerator: must be an integer in 0..2^128, got -1"
    text = expect(fairmines.InvalidNumberError, "rtp.denominator", call, Fraction(1, 2**130))
    assert text == "rtp.denominator: must be an integer in 0..2^128, got an integer of 2^128 or more"
    err = raised(call, 0.5)
    assert type(err) is TypeError and str(err).startswith("rtp: must be str, fractions.Fraction") and "binary fraction" in str(err)
    wrong: list[Any] = [True, None, [1], b"0.99"]
    for bad in wrong:
        err = raised(call, bad)
        assert type(err) is TypeError and str(err).startswith("rtp: must be str, fractions.Fraction"), str(err)
    # Huge but exact and in range after reduction is fine.
    assert fairmines.multiplier(3, 1, Fraction(2**130, 2**131)) == Fraction(25, 44)


def test_moves_take_numbers_for_the_core() -> None:
    round_ = fairmines.SeedPair.from_parts(S, C, 1).start_round(3, "0.99")
    for tile, shown in [(0, "0"), (26, "26"), (-1, "-1"), (2**63, str(2**63)), (2**70, str(2**70)), (1.5, "1.5")]:
        assert expect(fairmines.InvalidTileError, "tile", round_.reveal, tile) == f"tile: must be from 1 to 25, got {shown}"
    for bad in ("1", True, None):
        err = raised(round_.reveal, bad)
        assert type(err) is TypeError and str(err).startswith("tile: must be int"), str(err)
    assert round_.picks == (), "refused reveals must not change the round"
    assert round_.reveal(np.int64(1)).tile == 1 and round_.reveal(2.0).tile == 2
    for mines in (0, 25, -1, 2**70):
        expect(fairmines.InvalidMinesError, "mines", fairmines.SeedPair.from_parts(S, C).start_round, mines, "0.99")
    err = raised(fairmines.SeedPair.from_parts(S, C).start_round, "3", "0.99")
    assert type(err) is TypeError and str(err).startswith("mines: must be int")


# --- records --------------------------------------------------------------------------------------

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


def test_records_are_values() -> None:
    record = fairmines.RoundRecord(**GOOD)
    text = record.to_json()
    assert json.loads(text) == {**GOOD, "rtp": "99/100"}
    again = fairmines.RoundRecord.from_json(text)
    assert again == record and hash(again) == hash(record) and again.to_json() == text
    assert pickle.loads(pickle.dumps(record)) == record and copy.deepcopy(record) == record
    assert record != fairmines.RoundRecord(**{**GOOD, "nonce": 2})
    with pytest.raises(AttributeError):
        record.nonce = 2  # type: ignore[misc]
    assert repr(record) == (
        f"RoundRecord(commitment='{WORKED['commitment']}', client_seed='{C}', nonce=1, mines=3, "
        "rtp=Fraction(99, 100), picks=(1, 2), outcome='cashed_out', multiplier=Fraction(9, 7))"
    )
    # Every accepted form of each field gives the same record.
    same = fairmines.RoundRecord(
        commitment=WORKED["commitment"].upper(),
        client_seed=C,
        nonce=np.uint64(1),
        mines=3.0,
        rtp=Decimal("0.99"),
        picks=(1, np.int8(2)),
        outcome="cashed_out",
        multiplier=Fraction(9, 7),
    )
    assert same == record and fairmines.verify_round(same, S).ok
    # A part from 2^127 up to 2^128 - 1 is a whole u128 for the core (Python ints have any size).
    big = Fraction(2**128 - 1, 2**127)
    assert fairmines.RoundRecord(**{**GOOD, "multiplier": big}).multiplier == big
    voided = fairmines.RoundRecord(WORKED["commitment"], C, 1, 3, "0.99", [1, 2], "voided")
    assert (voided.outcome, voided.multiplier) == ("voided", None) and pickle.loads(pickle.dumps(voided)) == voided
    public = fairmines.SeedPair.from_parts(S, "é:ü 🎲", 7).public_part
    assert json.loads(public.to_json()) == {"commitment": WORKED["commitment"], "client_seed": "é:ü 🎲", "nonce": 7}
    assert fairmines.PublicSeedPair.from_json(public.to_json()) == public == fairmines.PublicSeedPair(WORKED["commitment"].upper(), "é:ü 🎲", 7)
    assert hash(fairmines.PublicSeedPair.from_json(public.to_json())) == hash(public)
    assert pickle.loads(pickle.dumps(public)) == public
    assert repr(public) == f"PublicSeedPair(commitment='{WORKED['commitment']}', client_seed='é:ü 🎲', nonce=7)"
    revealed = fairmines.RevealedSeedPair(S, WORKED["commitment"], C, 6)
    assert json.loads(revealed.to_json()) == {"server_seed": S, "commitment": WORKED["commitment"], "client_seed": C, "rounds": 6}
    assert fairmines.RevealedSeedPair.from_json(revealed.to_json()) == revealed and pickle.loads(pickle.dumps(revealed)) == revealed


@pytest.mark.parametrize(
    ("field", "value", "cls", "argument"),
    [
        ("commitment", "abc", fairmines.InvalidHexError, "commitment"),
        ("client_seed", "\ud800", fairmines.InvalidUtf8Error, "client_seed"),
        ("nonce", -1, fairmines.InvalidNonceError, "nonce"),
        ("nonce", 2**64, fairmines.InvalidNonceError, "nonce"),
        ("nonce", 1.5, fairmines.InvalidNonceError, "nonce"),
        ("mines", 0, fairmines.InvalidMinesError, "mines"),
        ("mines", 2**100, fairmines.InvalidMinesError, "mines"),
        ("rtp", "1.5", fairmines.InvalidRtpError, "rtp"),
        ("rtp", Fraction(-1, 2), fairmines.InvalidNumberError, "rtp.numerator"),
        ("picks", [0], fairmines.InvalidTileError, "picks"),
        ("picks", [1, 26], fairmines.InvalidTileError, "picks"),
        ("picks", [2**80], fairmines.InvalidTileError, "picks"),
        ("picks", list(range(1, 26)) + [1], fairmines.InvalidTileError, "picks"),
        ("outcome", "won", fairmines.InvalidStateError, "outcome"),
        ("multiplier", "x", fairmines.InvalidNumberError, "multiplier"),
        ("multiplier", "1/0", fairmines.InvalidNumberError, "multiplier"),
        ("multiplier", Fraction(-3, 2), fairmines.InvalidNumberError, "multiplier.numerator"),
        ("multiplier", Decimal("Infinity"), fairmines.InvalidNumberError, "multiplier"),
    ],
)
def test_record_constructor_errors_are_the_cores(field: str, value: Any, cls: type[fairmines.FairminesError], argument: str) -> None:
    err = raised(fairmines.RoundRecord, **{**GOOD, field: value})
    assert type(err) is cls, repr(err)
    assert err.argument == argument and str(err).startswith(f"{argument}: "), str(err)


@pytest.mark.parametrize(
    ("field", "value", "label"),
    [
        ("commitment", 5, "commitment"),
        ("nonce", "1", "nonce"),
        ("mines", "3", "mines"),
        ("rtp", 0.99, "rtp"),
        ("picks", "12", "picks"),
        ("picks", [1, "2"], "picks[1]"),
        ("picks", [True], "picks[0]"),
        ("outcome", None, "outcome"),
        ("multiplier", 1.5, "multiplier"),
    ],
)
def test_record_constructor_type_errors(field: str, value: Any, label: str) -> None:
    err = raised(fairmines.RoundRecord, **{**GOOD, field: value})
    assert type(err) is TypeError and str(err).startswith(f"{label}: must be "), str(err)


def test_from_json_errors_name_what_was_parsed() -> None:
    good = fairmines.RoundRecord(**GOOD).to_json()
    revealed = fairmines.RevealedSeedPair(S, WORKED["commitment"], C, 2).to_json()
    parsers: list[tuple[Callable[[str], Any], str, str]] = [
        (fairmines.RoundRecord.from_json, "record", good),
        (fairmines.PublicSeedPair.from_json, "public", fairmines.SeedPair.from_parts(S, C).public_part.to_json()),
        (fairmines.RevealedSeedPair.from_json, "revealed", revealed),
    ]
    for from_json, argument, text in parsers:
        assert from_json(text).to_json() == text
        expect(fairmines.InvalidStateError, argument, from_json, "{")
        assert "unknown field `multiplyer`" in expect(fairmines.InvalidStateError, argument, from_json, text[:-1] + ',"multiplyer":1}')
        err = raised(from_json, b"{}")
        assert type(err) is TypeError and str(err).startswith("json: must be str")


def test_verify_round_arguments() -> None:
    good = fairmines.RoundRecord(**GOOD).to_json()
    expect(fairmines.InvalidMinesError, "mines", fairmines.verify_round, fairmines.RoundRecord.from_json(good.replace('"mines":3', '"mines":30')), S)
    expect(fairmines.InvalidTileError, "picks", fairmines.verify_round, fairmines.RoundRecord.from_json(good.replace('"picks":[1,2]', '"picks":[1,0]')), S)
    expect(fairmines.InvalidUtf8Error, "server_seed", fairmines.verify_round, fairmines.RoundRecord(**GOOD), "\ud800")
    err = raised(fairmines.verify_round, good, S)
    assert type(err) is TypeError and str(err) == "record: must be RoundRecord, not str"
    err = raised(fairmines.verify_round, fairmines.RoundRecord(**GOOD), None)
    assert type(err) is TypeError and str(err).startswith("server_seed: must be str")


# --- payouts --------------------------------------------------------------------------------------


def test_the_payout_table_as_python_values() -> None:
    table = fairmines.payout_table(Fraction(99, 100))
    assert [(e.mines, e.safe_picks) for e in table] == [(m, k) for m in range(1, 25) for k in range(1, 26 - m)]
    for entry in table:
        assert entry.multiplier == fair(entry.mines, entry.safe_picks, Fraction(99, 100)) and type(entry.multiplier) is Fraction
    assert table[0] == fairmines.payout_table("0.99")[0] and hash(table[0]) == hash(fairmines.payout_table("0.99")[0])
    assert repr(table[-1]) == "TableEntry(mines=24, safe_picks=1, multiplier=Fraction(99, 4))"
    assert fairmines.multiplier(3, 1, "0.99") == Fraction(9, 8) and fairmines.multiplier(3, 22, 1) == 2300
    assert fairmines.multiplier(np.int8(3), 1.0, 1) == Fraction(25, 22)
    assert [fairmines.max_safe_picks(m) for m in (1, 24)] == [24, 1]
    for mines in (0, 25, -3, 2**64):
        expect(fairmines.InvalidMinesError, "mines", fairmines.max_safe_picks, mines)
        expect(fairmines.InvalidMinesError, "mines", fairmines.multiplier, mines, 1, 1)


@pytest.mark.parametrize(
    ("k", "shown"), [(0, "0"), (23, "23"), (-1, "-1"), (256, "256"), (2**70, str(2**70)), (1.5, "1.5"), (2**130, "an integer of 2^128 or more")]
)  # fmt: skip
def test_safe_picks_are_judged_by_the_core(k: Any, shown: str) -> None:
    text = expect(fairmines.InvalidPicksError, "safe_picks", fairmines.multiplier, 3, k, "0.99")
    assert text == f"safe_picks: must be from 1 to 22 with 3 mines, got {shown}"
