"""Bad input: the exception class, its code and argument, and a message naming the argument."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import fairmines
from conftest import WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]

# The core's stable codes (crates/fairmines/src/error.rs), one class each.
CLASSES = {
    1: fairmines.InvalidMinesError,
    2: fairmines.InvalidNonceError,
    3: fairmines.InvalidTileError,
    4: fairmines.InvalidHexError,
    5: fairmines.InvalidUtf8Error,
    6: fairmines.StreamExhaustedError,
    7: fairmines.RngError,
    8: fairmines.BufferSizeError,
    9: fairmines.TileAlreadyRevealedError,
    10: fairmines.RoundFinishedError,
    11: fairmines.NothingToCashOutError,
    12: fairmines.InvalidRtpError,
    13: fairmines.InvalidPicksError,
    14: fairmines.InvalidNumberError,
    15: fairmines.InvalidStateError,
    16: fairmines.RoundsInPlayError,
    17: fairmines.RoundVoidedError,
}

ROUND_FUNCTIONS: list[Callable[..., Any]] = [
    fairmines.mine_positions,
    fairmines.draw_order,
    fairmines.verify,
    lambda s, c, n, m: fairmines.mine_positions_batch(s, c, [n], m),
]


def test_the_hierarchy() -> None:
    assert issubclass(fairmines.FairminesError, ValueError)
    assert fairmines.FairminesError.code == 0
    for code, cls in CLASSES.items():
        assert issubclass(cls, fairmines.FairminesError)
        assert cls.code == code
        assert cls.__module__ == "fairmines"
        assert cls.__doc__
    assert issubclass(fairmines.InvalidNonceError, OverflowError)
    assert issubclass(fairmines.InvalidUtf8Error, UnicodeError)
    # Every class of a core error (named after the core's Error::name()) is one of these: none is missing.
    core_classes = {
        obj
        for obj in vars(fairmines).values()
        if isinstance(obj, type) and issubclass(obj, fairmines.FairminesError) and obj.code
    }
    assert core_classes == set(CLASSES.values())
    # Outside the core: ConcurrentUseError (code 0), also a RuntimeError.
    assert issubclass(fairmines.ConcurrentUseError, fairmines.FairminesError)
    assert issubclass(fairmines.ConcurrentUseError, RuntimeError) and fairmines.ConcurrentUseError.code == 0
    # Raisable and catchable from Python like any exception.
    with pytest.raises(ValueError, match="x"):
        raise fairmines.InvalidTileError("x")


def raised(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> BaseException:
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return info.value


@pytest.mark.parametrize("fn", ROUND_FUNCTIONS)
@pytest.mark.parametrize("mines", [0, 25, -1, 2**63, 2**64, 2**130, -(2**200)])
def test_mines_out_of_range(fn: Callable[..., Any], mines: int) -> None:
    err = raised(fn, S, C, 1, mines)
    assert type(err) is fairmines.InvalidMinesError
    assert isinstance(err, ValueError)
    assert str(err).startswith("mines: must be an integer in 1..=24, got ")
    assert err.code == 1 and err.argument == "mines"
    if abs(mines) < 10**30:
        assert str(err).endswith(f"got {mines}")


@pytest.mark.parametrize("fn", [*ROUND_FUNCTIONS, lambda s, c, n, m: fairmines.round_signature(s, c, n)])
@pytest.mark.parametrize("nonce", [-1, 2**64, -(2**64), 2**100])
def test_nonce_out_of_range(fn: Callable[..., Any], nonce: int) -> None:
    err = raised(fn, S, C, nonce, 3)
    assert type(err) is fairmines.InvalidNonceError
    assert isinstance(err, ValueError) and isinstance(err, OverflowError)
    assert err.code == 2 and err.argument == "nonce"
    assert re.match(r"nonce: (nonces\[0\] )?must be an integer in 0\.\.=18446744073709551615", str(err)), str(err)
    assert str(err).endswith(f"got {nonce}")


def test_the_edges_of_the_ranges_are_accepted() -> None:
    for mines in (1, 24):
        assert len(fairmines.mine_positions(S, C, 0, mines)) == mines
    assert len(fairmines.mine_positions(S, C, 2**64 - 1, 3)) == 3
    assert fairmines.round_signature(S, C, 2**64 - 1) != fairmines.round_signature(S, C, 0)


@pytest.mark.parametrize(
    ("args", "argument"),
    [
        ((b"seed", C, 1, 3), "server_seed"),
        ((None, C, 1, 3), "server_seed"),
        ((S, 5, 1, 3), "client_seed"),
        ((S, C, 1.0, 3), "nonce"),
        ((S, C, "1", 3), "nonce"),
        ((S, C, True, 3), "nonce"),
        ((S, C, None, 3), "nonce"),
        ((S, C, 1, 3.0), "mines"),
        ((S, C, 1, "3"), "mines"),
        ((S, C, 1, False), "mines"),
    ],
)
@pytest.mark.parametrize("fn", ROUND_FUNCTIONS)
def test_wrong_types_are_type_errors(fn: Callable[..., Any], args: tuple[Any, ...], argument: str) -> None:
    err = raised(fn, *args)
    assert type(err) is TypeError
    assert re.match(rf"{argument}(\[\d+\])?: must be ", str(err)) or str(err).startswith("nonces[0]: must be "), str(err)


def test_integer_like_objects_are_accepted() -> None:
    expected = fairmines.mine_positions(S, C, 1, 3)
    assert fairmines.mine_positions(S, C, np.uint64(1), np.int8(3)) == expected

    class Index:
        def __index__(self) -> int:
            return 1

    assert fairmines.mine_positions(S, C, Index(), 3) == expected
    assert fairmines.verify(S, C, 1, 3, positions=np.array([19, 7, 10]))


@pytest.mark.parametrize("where", ["server_seed", "client_seed"])
def test_lone_surrogates_cannot_be_encoded(where: str) -> None:
    args = {"server_seed": S, "client_seed": C, where: "ab\ud800cd"}
    for fn in (fairmines.mine_positions, fairmines.draw_order, fairmines.verify):
        err = raised(fn, args["server_seed"], args["client_seed"], 1, 3)
        assert type(err) is fairmines.InvalidUtf8Error
        assert str(err) == f"{where}: is not valid UTF-8"
        assert err.code == 5 and err.argument == where
        assert isinstance(err.__cause__, UnicodeEncodeError)
    err = raised(fairmines.round_signature, args["server_seed"], args["client_seed"], 1)
    assert type(err) is fairmines.InvalidUtf8Error
    if where == "server_seed":
        assert type(raised(fairmines.commitment, "\udfff")) is fairmines.InvalidUtf8Error


@pytest.mark.parametrize(
    ("kwargs", "cls", "message"),
    [
        ({"positions": [0, 7, 10]}, fairmines.InvalidTileError, "positions: tile 0 at index 0 is outside 1..=25"),
        ({"positions": [7, 26]}, fairmines.InvalidTileError, "positions: tile 26 at index 1 is outside 1..=25"),
        ({"positions": [7, -(2**70)]}, fairmines.InvalidTileError, "positions: tile -1180591620717411303424 at index 1"),
        ({"positions": list(range(1, 26)) + [1]}, fairmines.InvalidTileError, "positions: more than 25 tiles"),
        ({"commitment": "abc"}, fairmines.InvalidHexError, "commitment: must be 64 hexadecimal characters"),
        ({"commitment": "g" * 64}, fairmines.InvalidHexError, "commitment: must be 64 hexadecimal characters"),
        ({"commitment": "é" * 32}, fairmines.InvalidHexError, "commitment: must be 64 hexadecimal characters"),
        ({"commitment": "\ud800" * 64}, fairmines.InvalidUtf8Error, "commitment: is not valid UTF-8"),
        ({"positions": "7,10,19"}, TypeError, "positions: must be a sequence of int, not str"),
        ({"positions": 7}, TypeError, "positions: must be a sequence of int, not int"),
        ({"positions": [7, 10.0]}, TypeError, "positions[1]: must be int, not float"),
        ({"positions": [True]}, TypeError, "positions[0]: must be int, not bool"),
        ({"commitment": b"f5"}, TypeError, "commitment: must be str, not bytes"),
    ],
)
def test_verify_rejects_bad_declarations(kwargs: dict[str, Any], cls: type[Exception], message: str) -> None:
    err = raised(fairmines.verify, S, C, 1, 3, **kwargs)
    assert type(err) is cls
    assert str(err).startswith(message), str(err)
    if isinstance(err, fairmines.FairminesError):
        assert err.argument == next(iter(kwargs))


def test_verify_keeps_duplicates_and_fails_them() -> None:
    verdict = fairmines.verify(S, C, 1, 3, positions=[7, 7, 10])
    assert not verdict and verdict.declared_positions == (7, 7, 10)


@pytest.mark.parametrize(
    ("nonces", "cls", "message"),
    [
        ([1, -5], fairmines.InvalidNonceError, "nonce: nonces[1] must be an integer in 0..=18446744073709551615"),
        ([2**64], fairmines.InvalidNonceError, "nonce: nonces[0] must be an integer"),
        (np.array([3, -2], dtype=np.int64), fairmines.InvalidNonceError, "nonce: nonces[1] must be an integer"),
        (range(-1, 3), fairmines.InvalidNonceError, "nonce: nonces[0] must be an integer"),
        (range(2**64 - 1, 2**64 + 1), fairmines.InvalidNonceError, "nonce: nonces[-1] must be an integer"),
        ([1, 2.5], TypeError, "nonces[1]: must be int, not float"),
        ([False], TypeError, "nonces[0]: must be int, not bool"),
        ("123", TypeError, "nonces: must be a range, a sequence of int or a numpy integer array, not str"),
        (b"123", TypeError, "nonces: must be a range"),
        (5, TypeError, "nonces: must be a range, a sequence of int or a numpy integer array, not int"),
        (np.array([1.0]), TypeError, "nonces: must be an array of integers, not of dtype float64"),
        (np.array([True]), TypeError, "nonces: must be an array of integers, not of dtype bool"),
        (np.zeros((2, 2), dtype=np.uint64), ValueError, "nonces: must be a one-dimensional array, got 2 dimensions"),
    ],
)
def test_batch_rejects_bad_nonces(nonces: Any, cls: type[Exception], message: str) -> None:
    err = raised(fairmines.mine_positions_batch, S, C, nonces, 3)
    assert type(err) is cls
    assert str(err).startswith(message), str(err)


def test_a_batch_too_big_for_memory_is_a_memory_error() -> None:
    with pytest.raises(MemoryError, match="nonces: "):
        fairmines.mine_positions_batch(S, C, range(0, 2**64), 24)


def test_huge_integers_do_not_break_messages() -> None:
    err = raised(fairmines.mine_positions, S, C, 10**1000, 3)
    assert type(err) is fairmines.InvalidNonceError
    assert str(err).endswith("got an integer of 1001 digits")
    # Beyond sys.get_int_max_str_digits() (4300 by default), Python refuses to print it at all.
    err = raised(fairmines.mine_positions, S, C, 3, 10**5000)
    assert type(err) is fairmines.InvalidMinesError and "mines: " in str(err)
