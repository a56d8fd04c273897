"""The error mapping and the conversion of arguments: every kind of the core has its class (made from the
core's ErrorKind list), every argument's wrong type is a TypeError naming it, and every value goes to the
core, whose message (naming the argument) is raised as it is."""

from __future__ import annotations

import inspect
import re
from typing import Any, Callable

import numpy as np
import pytest

import fairmines
from conftest import WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]

# What Python code expects besides FairminesError (the only bases the binding adds).
ALSO = {"InvalidNonceError": OverflowError, "InvalidUtf8Error": UnicodeError}


def kind_classes() -> list[type[fairmines.FairminesError]]:
    """Every class of a kind of the core, in the module's order."""
    return [
        obj
        for name in fairmines.__all__
        for obj in [getattr(fairmines, name)]
        if isinstance(obj, type) and issubclass(obj, fairmines.FairminesError) and obj is not fairmines.FairminesError
    ]


def test_one_class_per_kind_of_the_core_numbered_from_one() -> None:
    classes = kind_classes()
    # The core's kinds are numbered 1, 2, ... without gaps; the classes are made from that list, in order.
    assert [cls.code for cls in classes] == list(range(1, len(classes) + 1))
    assert len(classes) == 18
    for cls in classes:
        assert cls.__name__.endswith("Error") and re.fullmatch(r"(?:[A-Z][a-z0-9]+)+Error", cls.__name__)
        assert cls.__module__ == "fairmines" and cls.argument is None
        # The docstring is the kind's summary in the core: one sentence.
        assert cls.__doc__ and cls.__doc__.endswith(".") and "\n" not in cls.__doc__, cls
        bases = {b for b in cls.__bases__ if b is not fairmines.FairminesError}
        assert bases == ({ALSO[cls.__name__]} if cls.__name__ in ALSO else set()), cls
    assert len({cls.__doc__ for cls in classes}) == len(classes)
    assert issubclass(fairmines.FairminesError, ValueError) and fairmines.FairminesError.code == 0
    # The names of the core (RNG_FAILED, BUFFER_TOO_SMALL), and no error of the binding's own.
    names = {cls.__name__ for cls in classes}
    assert {"RngFailedError", "BufferTooSmallError", "RoundsInPlayError", "RoundVoidedError", "RoundNotInPlayError"} <= names
    assert not {"RngError", "BufferSizeError", "ConcurrentUseError"} & set(dir(fairmines))
    with pytest.raises(ValueError, match="x"):
        raise fairmines.InvalidTileError("x")


def raised(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return info.value


def expect(cls: type[fairmines.FairminesError], argument: str | None, message: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    err = raised(fn, *args, **kwargs)
    assert type(err) is cls, repr(err)
    assert isinstance(err, fairmines.FairminesError) and err.code == cls.code and err.argument == argument
    assert str(err) == message, str(err)


def test_every_kind_python_can_reach_is_raised_with_its_class_code_and_argument() -> None:
    """Each kind the functions of the module can raise (the others, 6-8, are for callers of the Rust API
    with their own word sources or buffers, and the OS generator)."""
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    round_ = pair.start_round(3, "0.99")
    round_.reveal(1)
    expect(fairmines.InvalidMinesError, "mines", "mines: must be a whole number from 1 to 24, got 25", fairmines.mine_positions, S, C, 1, 25)
    expect(
        fairmines.InvalidNonceError, "nonce", "nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -1",
        fairmines.round_signature, S, C, -1,
    )  # fmt: skip
    expect(fairmines.InvalidTileError, "tile", "tile: must be from 1 to 25, got 26", round_.reveal, 26)
    expect(fairmines.InvalidHexError, "commitment", "commitment: must be 64 hexadecimal characters, got 3 bytes", fairmines.verify, S, C, 1, 3, commitment="abc")
    expect(fairmines.InvalidUtf8Error, "client_seed", "client_seed: is not valid UTF-8", fairmines.mine_positions, S, "\ud800", 1, 3)
    expect(fairmines.TileAlreadyRevealedError, "tile", "tile: tile 1 was already revealed in this round", round_.reveal, 1)
    expect(fairmines.NothingToCashOutError, None, "cash-out needs at least one safe pick first", pair.start_round(3, 1).cash_out)
    expect(fairmines.InvalidRtpError, "rtp", "rtp: must be above 0 and at most 1, got 3/2", pair.start_round, 3, "1.5")
    expect(fairmines.InvalidPicksError, "safe_picks", "safe_picks: must be from 1 to 22 with 3 mines, got 23", fairmines.multiplier, 3, 23, 1)
    expect(
        fairmines.InvalidNumberError, "multiplier", 'multiplier: "x" is not a fraction like 99/100 or a decimal like 0.99',
        fairmines.RoundRecord, WORKED["commitment"], C, 1, 3, "0.99", [1], "cashed_out", "x",
    )  # fmt: skip
    expect(fairmines.InvalidStateError, "state", "state: expected value at line 1 column 1", fairmines.SeedPair.from_state_json, "x")
    expect(
        fairmines.RoundNotInPlayError, "nonce",
        "nonce: no round of this seed pair is in play at nonce 7: it was never started, has finished or was voided",
        pair.round, 7,
    )  # fmt: skip
    expect(
        fairmines.RoundNotInPlayError, "nonce",
        "nonce: the round at nonce 1 is already handed out by this seed pair: go on with that round",
        pair.round, 1,
    )  # fmt: skip
    rounds_in_play = raised(pair.rotate)
    assert type(rounds_in_play) is fairmines.RoundsInPlayError and rounds_in_play.argument is None
    assert str(rounds_in_play).startswith("the seed pair has 2 round(s) in play (nonce 1, 2)")
    pair.void_open_rounds()
    message = "the round was voided so its server seed could be revealed: no more reveals or cash-outs"
    expect(fairmines.RoundVoidedError, None, message, round_.reveal, 2)
    expect(fairmines.RoundVoidedError, None, message, round_.cash_out)
    finished = fairmines.SeedPair.from_parts(S, C, 1).start_round(24, 1)
    finished.reveal(fairmines.mine_positions(S, C, 1, 24)[0])
    expect(fairmines.RoundFinishedError, None, "the round has finished: no more reveals or cash-outs", finished.cash_out)


ROUND_FUNCTIONS: list[Callable[..., Any]] = [
    fairmines.mine_positions,
    fairmines.draw_order,
    fairmines.verify,
    lambda s, c, n, m: fairmines.mine_positions_batch(s, c, [n], m),
]


@pytest.mark.parametrize("fn", ROUND_FUNCTIONS)
@pytest.mark.parametrize(
    ("mines", "shown"),
    [(0, "0"), (25, "25"), (-1, "-1"), (2**63, str(2**63)), (2**130, "an integer of 2^128 or more"),
     (-(2**200), "an integer below -2^127"), (3.5, "3.5"), (float("nan"), "NaN"), (float("-inf"), "-Infinity")],
)  # fmt: skip
def test_mines_are_judged_by_the_core(fn: Callable[..., Any], mines: Any, shown: str) -> None:
    err = raised(fn, S, C, 1, mines)
    assert type(err) is fairmines.InvalidMinesError and isinstance(err, ValueError)
    assert str(err) == f"mines: must be a whole number from 1 to 24, got {shown}"
    assert err.code == 1 and err.argument == "mines"


@pytest.mark.parametrize(
    "fn",
    [
        *ROUND_FUNCTIONS,
        lambda s, c, n, m: fairmines.round_signature(s, c, n),
        lambda s, c, n, m: fairmines.SeedPair.from_parts(s, c).round(n),
    ],
)
@pytest.mark.parametrize(
    ("nonce", "shown"),
    [(-1, "-1"), (2**64, str(2**64)), (-(2**64), str(-(2**64))), (2**200, "an integer of 2^128 or more"), (0.5, "0.5"),
     (2.0**60, "1152921504606847000 (a float is exact only up to 9007199254740991)")],
)  # fmt: skip
def test_nonces_are_judged_by_the_core(fn: Callable[..., Any], nonce: Any, shown: str) -> None:
    err = raised(fn, S, C, nonce, 3)
    assert type(err) is fairmines.InvalidNonceError
    assert isinstance(err, ValueError) and isinstance(err, OverflowError)
    label = "nonce" if err.argument == "nonce" else "nonces[0]"
    assert err.code == 2 and str(err) == f"{label}: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got {shown}"


def test_integers_of_any_size_go_to_the_core_as_sign_and_magnitude() -> None:
    # Beyond sys.get_int_max_str_digits() (4300 by default) Python refuses to print an int: never needed.
    for huge, shown in [(10**5000, "an integer of 2^128 or more"), (-(10**5000), "an integer below -2^127")]:
        err = raised(fairmines.mine_positions, S, C, 3, huge)
        assert type(err) is fairmines.InvalidMinesError and str(err) == f"mines: must be a whole number from 1 to 24, got {shown}"
    err = raised(fairmines.mine_positions, S, C, 2**128 - 1, 3)
    assert str(err).endswith(f"got {2**128 - 1}")


def test_the_edges_of_the_ranges_and_integer_like_values_are_accepted() -> None:
    expected = fairmines.mine_positions(S, C, 1, 3)
    for mines in (1, 24):
        assert len(fairmines.mine_positions(S, C, 0, mines)) == mines
    assert len(fairmines.mine_positions(S, C, 2**64 - 1, 3)) == 3

    class Index:
        def __index__(self) -> int:
            return 1

    # numpy integers, __index__ objects, and floats that are integers (exactly, below 2^53).
    forms: list[tuple[Any, Any]] = [(np.uint64(1), np.int8(3)), (Index(), 3), (1.0, 3.0), (np.float64(1.0), 3)]
    for nonce, mines in forms:
        assert fairmines.mine_positions(S, C, nonce, mines) == expected
    assert fairmines.verify(S, C, 1, 3, positions=np.array([19, 7, 10]))
    assert fairmines.verify(S, C, 1, 3, positions=[19.0, 7, 10])


@pytest.mark.parametrize(
    ("args", "argument"),
    [
        ((b"seed", C, 1, 3), "server_seed"),
        ((None, C, 1, 3), "server_seed"),
        ((S, 5, 1, 3), "client_seed"),
        ((S, C, "1", 3), "nonce"),
        ((S, C, True, 3), "nonce"),
        ((S, C, None, 3), "nonce"),
        ((S, C, 1, "3"), "mines"),
        ((S, C, 1, False), "mines"),
    ],
)
@pytest.mark.parametrize("fn", ROUND_FUNCTIONS)
def test_wrong_types_are_type_errors(fn: Callable[..., Any], args: tuple[Any, ...], argument: str) -> None:
    err = raised(fn, *args)
    assert type(err) is TypeError
    label = re.escape(argument) + (r"(\[0\])?" if argument == "nonce" else "")
    assert re.match(rf"({label}|nonces\[0\]): must be ", str(err)), str(err)


@pytest.mark.parametrize("where", ["server_seed", "client_seed"])
def test_lone_surrogates_cannot_be_encoded(where: str) -> None:
    args = {"server_seed": S, "client_seed": C, where: "ab\ud800cd"}
    for fn in (fairmines.mine_positions, fairmines.draw_order, fairmines.verify):
        err = raised(fn, args["server_seed"], args["client_seed"], 1, 3)
        assert type(err) is fairmines.InvalidUtf8Error
        assert str(err) == f"{where}: is not valid UTF-8"
        assert err.code == 5 and err.argument == where
        assert isinstance(err.__cause__, UnicodeEncodeError)
    assert type(raised(fairmines.round_signature, args["server_seed"], args["client_seed"], 1)) is fairmines.InvalidUtf8Error
    if where == "server_seed":
        assert type(raised(fairmines.commitment, "\udfff")) is fairmines.InvalidUtf8Error


@pytest.mark.parametrize(
    ("kwargs", "cls", "message"),
    [
        ({"positions": [0, 7, 10]}, fairmines.InvalidTileError, "positions: tile 0 at index 0 is not between 1 and 25"),
        ({"positions": [7, 26]}, fairmines.InvalidTileError, "positions: tile 26 at index 1 is not between 1 and 25"),
        ({"positions": [7, -(2**70)]}, fairmines.InvalidTileError, f"positions: tile {-(2**70)} at index 1 is not between 1 and 25"),
        ({"positions": [7, 10.5]}, fairmines.InvalidTileError, "positions: tile 10.5 at index 1 is not between 1 and 25"),
        ({"positions": list(range(1, 26)) + [1]}, fairmines.InvalidTileError, "positions: more than 25 tiles on a 25-tile board"),
        ({"commitment": "abc"}, fairmines.InvalidHexError, "commitment: must be 64 hexadecimal characters"),
        ({"commitment": "g" * 64}, fairmines.InvalidHexError, "commitment: "),
        ({"commitment": "é" * 32}, fairmines.InvalidHexError, "commitment: "),
        ({"commitment": "\ud800" * 64}, fairmines.InvalidUtf8Error, "commitment: is not valid UTF-8"),
        ({"positions": "7,10,19"}, TypeError, "positions: must be a sequence of int, not str"),
        ({"positions": 7}, TypeError, "positions: must be a sequence of int, not int"),
        ({"positions": [7, "10"]}, TypeError, "positions[1]: must be int, not str"),
        ({"positions": [True]}, TypeError, "positions[0]: must be int, not bool"),
        ({"commitment": b"f5"}, TypeError, "commitment: must be str, not bytes"),
    ],
)  # fmt: skip
def test_verify_rejects_bad_declarations(kwargs: dict[str, Any], cls: type[Exception], message: str) -> None:
    err = raised(fairmines.verify, S, C, 1, 3, **kwargs)
    assert type(err) is cls
    assert str(err).startswith(message), str(err)
    if isinstance(err, fairmines.FairminesError):
        assert err.argument == next(iter(kwargs))


def test_verify_takes_commitment_before_positions_and_keeps_duplicates() -> None:
    assert list(inspect.signature(fairmines.verify).parameters) == [
        "server_seed", "client_seed", "nonce", "mines", "commitment", "positions",
    ]  # fmt: skip
    assert fairmines.verify(S, C, 1, 3, WORKED["commitment"], [19, 7, 10]).verdict == "ok"
    verdict = fairmines.verify(S, C, 1, 3, positions=[7, 7, 10])
    assert not verdict and verdict.declared_positions == (7, 7, 10)


@pytest.mark.parametrize(
    ("nonces", "cls", "message"),
    [
        ([1, -5], fairmines.InvalidNonceError, "nonces[1]: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -5"),
        ([2**64], fairmines.InvalidNonceError, f"nonces[0]: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got {2**64}"),
        ([1, 2.5], fairmines.InvalidNonceError, "nonces[1]: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got 2.5"),
        (np.array([3, -2], dtype=np.int64), fairmines.InvalidNonceError, "nonces[1]: must be a whole number from 0 to "),
        (range(-1, 3), fairmines.InvalidNonceError, "nonces[0]: must be a whole number from 0 to "),
        (range(2**64 - 1, 2**64 + 1), fairmines.InvalidNonceError, "nonces[-1]: must be a whole number from 0 to "),
        ([False], TypeError, "nonces[0]: must be int, not bool"),
        (["1"], TypeError, "nonces[0]: must be int, not str"),
        ("123", TypeError, "nonces: must be a range, a sequence of int or a numpy integer array, not str"),
        (b"123", TypeError, "nonces: must be a range"),
        (5, TypeError, "nonces: must be a range, a sequence of int or a numpy integer array, not int"),
        (np.array([1.0]), TypeError, "nonces: must be an array of integers, not of dtype float64"),
        (np.array([True]), TypeError, "nonces: must be an array of integers, not of dtype bool"),
        (np.zeros((2, 2), dtype=np.uint64), ValueError, "nonces: must be a one-dimensional array, got 2 dimensions"),
    ],
)  # fmt: skip
def test_batch_rejects_bad_nonces(nonces: Any, cls: type[Exception], message: str) -> None:
    err = raised(fairmines.mine_positions_batch, S, C, nonces, 3)
    assert type(err) is cls
    assert str(err).startswith(message), str(err)
    if isinstance(err, fairmines.FairminesError):
        assert err.argument == message.split(":")[0]


def test_a_batch_over_4_gib_is_refused_by_the_core_rule_before_memory_is_taken() -> None:
    with pytest.raises(fairmines.InvalidNumberError) as raised_:
        fairmines.mine_positions_batch(S, C, range(0, 2**64), 24)
    assert raised_.value.argument == "nonces"
    assert str(raised_.value) == (
        "nonces: 18446744073709551616 rounds at mines = 24 need 442721857769029238784 bytes, and one batch "
        "writes at most 4294967296 (4 GiB): split it into batches of at most 178956970 rounds"
    )
    with pytest.raises(fairmines.InvalidNumberError, match="^nonces: 4294967297 rounds at mines = 1 need"):
        fairmines.mine_positions_batch(S, C, range(0, 2**32 + 1), 1)
