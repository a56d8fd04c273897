"""The shared vectors through an installed `fairmines` (scripts/test-dist-python.sh runs it in fresh venvs).

    python test-dist-python-vectors.py VECTORS_JSON VERSION [--numpy]

Uses only the installed package and the vector file: every case's commitment, round signature, draw
order and positions, and `verify` with the published commitment and positions (ok, with the words used)
and with another board (a mismatch); every js-sha3 defect's commitment (FIPS 202). Also: the version,
the stubs and py.typed are installed, the test-only hook is absent, and the package was loaded from the
venv's site-packages (never a source tree). With --numpy, mine_positions_batch against the cases too.
Prints one summary line; any failure raises.
"""

from __future__ import annotations

import json
import sys
import sysconfig
from pathlib import Path

import fairmines


def main() -> None:
    vectors_path, version = Path(sys.argv[1]), sys.argv[2]
    with_numpy = "--numpy" in sys.argv[3:]

    package = Path(fairmines.__file__).resolve().parent
    site = Path(sysconfig.get_paths()["platlib"]).resolve()
    assert package.parent == site, f"fairmines loaded from {package}, not from {site}"
    assert fairmines.__version__ == version, f"version {fairmines.__version__}, expected {version}"
    assert (package / "py.typed").is_file() and (package / "_native.pyi").is_file(), "stubs missing"
    natives = sorted(p.name for p in package.glob("_native*.so"))
    assert natives == ["_native.abi3.so"], f"extension modules: {natives}"
    assert not hasattr(fairmines.Round, "_hold_for_testing"), "a test-only hook in the shipped build"
    assert not hasattr(fairmines._native, "_batch_blocks_for_testing"), "a test-only hook in the shipped build"

    data = json.loads(vectors_path.read_text(encoding="utf-8"))
    cases = data["cases"]
    assert cases and len(cases) == data["count"], f"{vectors_path}: count {data['count']}, {len(cases)} cases"
    rejected_cases = 0
    for case in cases:
        server, client, nonce, mines = case["server_seed"], case["client_seed"], case["nonce"], case["mines"]
        where = case["id"]
        assert fairmines.commitment(server) == case["commitment"], where
        assert fairmines.round_signature(server, client, nonce) == case["signature"], where
        assert fairmines.draw_order(server, client, nonce, mines) == case["draw_order"], where
        assert fairmines.mine_positions(server, client, nonce, mines) == case["positions"], where
        verdict = fairmines.verify(
            server, client, nonce, mines, positions=case["positions"], commitment=case["commitment"]
        )
        assert verdict.ok and verdict.verdict == "ok", (where, verdict)
        assert verdict.commitment_ok is True and verdict.positions_ok is True, where
        assert verdict.signature == case["signature"] and list(verdict.positions) == case["positions"], where
        assert verdict.words_used == case["words_used"] == mines + len(case["rejected"]), where
        rejected_cases += bool(case["rejected"])
        wrong = sorted(set(range(1, 26)) - set(case["positions"]))[:1] + case["positions"][1:]
        bad = fairmines.verify(server, client, nonce, mines, positions=wrong, commitment=case["commitment"])
        assert not bad.ok and bad.verdict == "mismatch" and bad.positions_ok is False, where
    assert rejected_cases, "no case with a rejected draw"

    defects = data.get("js_sha3_defects", [])
    assert defects, "the vector file lists no js_sha3_defects"
    for defect in defects:
        ours = fairmines.commitment(defect["server_seed"])
        assert ours == defect["commitment"] != defect["js_sha3_commitment"], defect["id"]

    batch = ""
    if with_numpy:
        # One seed pair's cases (the generator's rounds share client seeds) through the batch function.
        import numpy as np

        by_pair: dict[tuple[str, str, int], list[dict[str, object]]] = {}
        for case in cases:
            by_pair.setdefault((case["server_seed"], case["client_seed"], case["mines"]), []).append(case)
        (server, client, mines), group = max(by_pair.items(), key=lambda item: len(item[1]))
        boards = fairmines.mine_positions_batch(server, client, [c["nonce"] for c in group], mines)
        assert boards.dtype == np.uint8 and boards.shape == (len(group), mines), boards.shape
        assert boards.tolist() == [c["positions"] for c in group]
        batch = f", mine_positions_batch on {len(group)} rounds (numpy {np.__version__})"

    print(
        f"fairmines {fairmines.__version__} from {package}: {len(cases)} vectors "
        f"({rejected_cases} with rejected draws) and {len(defects)} js-sha3 defects pass{batch}"
    )


if __name__ == "__main__":
    main()
