"""Every case of vectors/vectors.json through every function (the batch in test_batch.py)."""

from __future__ import annotations

from typing import Any

import pytest

import fairmines
import spec_reference as ref
from conftest import CASES, WORKED, js_sha3_defects


def test_the_vector_file_has_rejection_cases() -> None:
    # Skipping rejection sampling passes every random round; these cases are what catch it.
    rejected = [case for case in CASES if case["rejected"]]
    assert rejected, "no case with a rejected draw"
    # ALGORITHM.md: rejections at the first draw (P = 25) and at later ones.
    draws = {r["draw"] for case in rejected for r in case["rejected"]}
    assert 0 in draws, f"no case rejects the first draw (P = 25), only draws {sorted(draws)}"
    assert draws - {0}, "no case rejects a later draw"


def test_worked_example_of_the_spec() -> None:
    w = WORKED
    assert fairmines.commitment(w["server_seed"]) == w["commitment"]
    assert fairmines.round_signature(w["server_seed"], w["client_seed"], w["nonce"]) == w["signature"]
    assert fairmines.draw_order(w["server_seed"], w["client_seed"], w["nonce"], w["mines"]) == w["draw_order"]
    assert fairmines.mine_positions(w["server_seed"], w["client_seed"], w["nonce"], w["mines"]) == w["positions"]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_vector(case: dict[str, Any]) -> None:
    server, client, nonce, mines = case["server_seed"], case["client_seed"], case["nonce"], case["mines"]

    assert fairmines.commitment(server) == case["commitment"]
    assert fairmines.round_signature(server, client, nonce) == case["signature"]
    assert fairmines.draw_order(server, client, nonce, mines) == case["draw_order"]
    assert fairmines.mine_positions(server, client, nonce, mines) == case["positions"]

    verdict = fairmines.verify(server, client, nonce, mines, positions=case["positions"], commitment=case["commitment"])
    assert verdict and verdict.ok
    assert verdict.commitment_ok is True and verdict.positions_ok is True
    assert verdict.commitment == case["commitment"]
    assert verdict.signature == case["signature"]
    assert list(verdict.positions) == case["positions"]
    assert list(verdict.draw_order) == case["draw_order"]
    assert verdict.words_used == case["words_used"] == mines + len(case["rejected"])
    assert (verdict.nonce, verdict.mines) == (nonce, mines)

    # Declared positions in any order are the same declaration.
    assert fairmines.verify(server, client, nonce, mines, positions=list(reversed(case["positions"])))

    # Another board is caught, and the repr says what differs.
    wrong = sorted(set(range(1, 26)) - set(case["positions"]))[:1] + case["positions"][1:]
    bad = fairmines.verify(server, client, nonce, mines, positions=wrong, commitment=case["commitment"])
    assert not bad and bad.positions_ok is False and bad.commitment_ok is True
    assert "positions differ" in repr(bad) and str(case["positions"]) in repr(bad)


def test_fips_202_where_js_sha3_deviates() -> None:
    defects = js_sha3_defects()
    assert defects, "the vector file lists no js_sha3_defects"
    for defect in defects:
        ours = fairmines.commitment(defect["server_seed"])
        assert ours == defect["commitment"] == ref.commitment(defect["server_seed"]), defect["id"]
        assert ours != defect["js_sha3_commitment"], defect["id"]
        verdict = fairmines.verify(defect["server_seed"], "c", 0, 1, commitment=defect["commitment"])
        assert verdict.commitment_ok is True, defect["id"]
