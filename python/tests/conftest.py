"""Shared fixtures: the repository's vector file (vectors/vectors.json), read in place."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
# FAIRMINES_VECTORS runs the suite on another vector file of the same format.
VECTORS_PATH = Path(os.environ.get("FAIRMINES_VECTORS", REPO_ROOT / "vectors" / "vectors.json"))

# The worked example of ALGORITHM.md: the only expected values written in the tests themselves.
WORKED: dict[str, Any] = {
    "server_seed": "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
    "client_seed": "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817",
    "nonce": 1,
    "mines": 3,
    "commitment": "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42",
    "signature": "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac",
    "draw_order": [9, 6, 18],
    "positions": [7, 10, 19],
}


def load_vectors() -> list[dict[str, Any]]:
    """Every case of the vector file; a missing or empty file fails the suite, it is never skipped."""
    if not VECTORS_PATH.is_file():
        raise FileNotFoundError(f"the shared vector file {VECTORS_PATH} is missing (make vectors)")
    with VECTORS_PATH.open(encoding="utf-8") as f:
        data = json.load(f)
    cases: list[dict[str, Any]] = data["cases"]
    if len(cases) != data["count"] or not cases:
        raise ValueError(f"{VECTORS_PATH}: count {data['count']} but {len(cases)} cases")
    return cases


CASES = load_vectors()


def js_sha3_defects() -> list[dict[str, Any]]:
    """Server seeds whose commitment js-sha3 gets wrong (vectors/README.md), with both digests."""
    with VECTORS_PATH.open(encoding="utf-8") as f:
        defects: list[dict[str, Any]] = json.load(f).get("js_sha3_defects", [])
    return defects
