"""Generated histories for the history tests: genuine rows computed with the package's own
`commitment`/`mine_positions` (vector-tested), and a JSON Lines text with one fault of every kind."""

from __future__ import annotations

import json
from typing import Any

import fairmines

PAIRS = 3
ROUNDS = 120


def genuine_rows(pairs: int = PAIRS, rounds: int = ROUNDS) -> list[dict[str, Any]]:
    """`pairs` seed pairs of `rounds` rounds each (nonces 0.., mines cycling 1..24), grouped by pair."""
    rows = []
    for p in range(pairs):
        server, client = f"server-seed-{p}", f"client-seed-{p}"
        commitment = fairmines.commitment(server)
        for nonce in range(rounds):
            mines = 1 + nonce % 24
            rows.append(
                {
                    "round_id": f"p{p}n{nonce}",
                    "server_seed": server,
                    "commitment": commitment,
                    "client_seed": client,
                    "nonce": nonce,
                    "mines": mines,
                    "positions": fairmines.mine_positions(server, client, nonce, mines),
                }
            )
    return rows


def other_positions(row: dict[str, Any]) -> list[int]:
    """Positions that are a valid board but not the genuine one."""
    genuine = set(row["positions"])
    spare = next(t for t in range(1, 26) if t not in genuine)
    return sorted(genuine - {min(genuine)} | {spare})


def find(rows: list[dict[str, Any]], pair: int, nonce: int) -> int:
    return next(i for i, r in enumerate(rows) if r["round_id"] == f"p{pair}n{nonce}")


# What `faulty_lines` injects, and the summary a run over it must give.
FAULTY_SUMMARY = {
    "rows_read": PAIRS * ROUNDS + 1,  # -1 removed, +1 duplicate, +1 line that is not JSON
    "ok": PAIRS * ROUNDS + 1 - 7,
    "mismatched": 3,  # wrong positions, wrong commitment, duplicate nonce
    "malformed": 4,  # not JSON, a wrong type, a missing field, the truncated last line
    "commitment_mismatches": 1,
    "position_mismatches": 1,
    "duplicate_nonces": 1,
    "play_mismatches": 0,
    "nonces_past_end": 0,
    "failures_listed": 9,  # 3 mismatched rows, 4 malformed, 2 gaps
    "failures_omitted": 0,
    "nonce_gaps": 2,  # the removed row, and the row missing its client seed (its pair is unknown)
    "missing_nonces": 2,
    "seed_pairs": PAIRS,
    "blank_lines": 0,
    "pairs_closed_early": 0,
    "unterminated_last_line": True,
}


def faulty_rows() -> list[dict[str, Any]]:
    """The genuine rows with the faults a dict can carry (no JSON syntax errors, no truncation)."""
    rows = genuine_rows()
    rows[find(rows, 0, 10)]["positions"] = other_positions(rows[find(rows, 0, 10)])
    rows[find(rows, 0, 20)]["commitment"] = "00" * 32
    del rows[find(rows, 0, 30)]
    dup = find(rows, 1, 40)
    rows.insert(dup + 1, dict(rows[dup], round_id="dup"))
    rows[find(rows, 1, 50)]["mines"] = "3"
    del rows[find(rows, 1, 60)]["client_seed"]
    return rows


def faulty_lines() -> list[str]:
    """JSON Lines with a fault of every kind; the last line is cut short and has no newline."""
    lines = [json.dumps(r) + "\n" for r in faulty_rows()]
    lines.insert(5, '{"round_id": "broken", "server_seed": \n')
    last = lines[-1]
    lines[-1] = last[: len(last) // 2]
    return lines
