"""ServerSeed (the seed never shows up by accident) and Verification (frozen, truthy, telling repr)."""

from __future__ import annotations

import copy
import pickle
import re

import pytest

import fairmines
import spec_reference as ref
from conftest import WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]


def test_generated_seeds() -> None:
    seeds = [fairmines.generate_server_seed() for _ in range(20)]
    texts = {seed.reveal() for seed in seeds}
    assert len(texts) == 20
    for seed in seeds:
        assert re.fullmatch(r"[0-9a-f]{64}", seed.reveal())
        assert seed.hex == seed.reveal()
        assert seed.commitment == ref.commitment(seed.reveal()) == fairmines.commitment(seed.hex)


def test_the_seed_is_never_shown_by_accident() -> None:
    seed = fairmines.generate_server_seed()
    secret = seed.reveal()
    shown = [repr(seed), str(seed), f"{seed}", f"{seed!r}", "%s" % (seed,), repr([seed]), repr({"s": seed})]
    for text in shown:
        assert secret not in text and secret[:16] not in text
        assert seed.commitment in text
    assert repr(seed) == f"ServerSeed(commitment='{seed.commitment}', seed=<hidden>)"
    for leak in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="secret"):
            leak(seed)
    assert not hasattr(seed, "__dict__")


def test_server_seed_is_not_constructible_or_mutable() -> None:
    with pytest.raises(TypeError):
        fairmines.ServerSeed()
    seed = fairmines.generate_server_seed()
    with pytest.raises(AttributeError):
        seed.hex = "0" * 64  # type: ignore[misc]


def test_verification_without_declarations_is_unchecked_not_ok() -> None:
    verdict = fairmines.verify(S, C, 1, 3)
    # Only recomputed, nothing compared: not "ok", and says so.
    assert verdict.verdict == "unchecked" and verdict.ok is False and not verdict
    assert verdict.commitment_ok is None and verdict.positions_ok is None
    assert verdict.declared_commitment is None and verdict.declared_positions is None
    assert verdict.positions == (7, 10, 19) and verdict.draw_order == (9, 6, 18)
    assert repr(verdict) == "<Verification unchecked: nothing declared to check; nonce 1, 3 mines at [7, 10, 19]>"
    explicit_none = fairmines.verify(S, C, 1, 3, positions=None, commitment=None)
    assert explicit_none.verdict == "unchecked" and not explicit_none


def test_verify_refuses_an_unknown_keyword() -> None:
    """A misspelt `commitment=` must not pass as a verification with nothing to check."""
    with pytest.raises(TypeError, match="unexpected keyword argument 'commitmnet'"):
        fairmines.verify(S, C, 1, 3, commitmnet=WORKED["commitment"])  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'position'"):
        fairmines.verify(S, C, 1, 3, position=[7, 10, 19])  # type: ignore[call-arg]


def test_verification_reports_what_differs() -> None:
    good = fairmines.verify(S, C, 1, 3, positions=[19, 10, 7], commitment=WORKED["commitment"].upper())
    assert good and good.declared_commitment == WORKED["commitment"] and good.declared_positions == (7, 10, 19)
    assert good.verdict == "ok" and good.ok is True
    assert repr(good) == "<Verification ok: commitment matches; positions match; nonce 1, 3 mines at [7, 10, 19]>"
    only_positions = fairmines.verify(S, C, 1, 3, positions=[7, 10, 19])
    only_commitment_ok = fairmines.verify(S, C, 1, 3, commitment=WORKED["commitment"])
    for one_check in (only_positions, only_commitment_ok):
        assert one_check.verdict == "ok" and one_check.ok and one_check

    bad = fairmines.verify(S, C, 1, 3, positions=[7, 10, 20], commitment="0" * 64)
    assert not bad and not bad.ok and bad.verdict == "mismatch"
    assert bad.commitment_ok is False and bad.positions_ok is False
    assert repr(bad) == (
        "<Verification mismatch: commitment differs (expected "
        f"{WORKED['commitment']}, declared {'0' * 64}); positions differ (expected [7, 10, 19], "
        "declared [7, 10, 20]); nonce 1, 3 mines at [7, 10, 19]>"
    )
    only_commitment = fairmines.verify(S, C, 1, 3, commitment="0" * 64)
    assert not only_commitment and only_commitment.positions_ok is None and only_commitment.verdict == "mismatch"
    half = fairmines.verify(S, C, 1, 3, positions=[7, 10, 19], commitment="0" * 64)
    assert half.verdict == "mismatch" and not half and half.positions_ok is True
    # The seed is revealed by then, but the Verification does not carry it anyway.
    assert S not in repr(bad)


def test_verification_is_frozen_and_compares_by_value() -> None:
    a = fairmines.verify(S, C, 1, 3, positions=[7, 10, 19])
    b = fairmines.verify(S, C, 1, 3, positions=[19, 10, 7])
    assert a == b and a != fairmines.verify(S, C, 2, 3, positions=[7, 10, 19])
    with pytest.raises(AttributeError):
        a.positions = (1, 2, 3)  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(a)
    with pytest.raises(TypeError):
        fairmines.Verification()


def test_keyword_arguments() -> None:
    verdict = fairmines.verify(
        server_seed=S, client_seed=C, nonce=1, mines=3, commitment=WORKED["commitment"], positions=None
    )
    assert verdict.commitment_ok is True
    # The order of every binding's verify: commitment, then positions.
    assert fairmines.verify(S, C, 1, 3, WORKED["commitment"], [7, 10, 19]).verdict == "ok"
    assert fairmines.mine_positions(server_seed=S, client_seed=C, nonce=1, mines=3) == WORKED["positions"]
