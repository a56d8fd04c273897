"""A round played through the Node package is verified by the Python package and by the C library.

For each of a fixed, seeded set of rounds (every mine count, lost, cashed-out and voided rounds, empty, Unicode and
`:`-containing client seeds, exact RTP factors), Node plays the round (node/examples/play-round.mjs) and prints
its record; Python re-reads the record and writes back the same JSON text byte for byte; Python's
`verify_round` and the C program bindings/c/examples/verify_round.c both accept it; and both reject the same
record with one field changed. The record as a Node backend logs it, `JSON.stringify(record)` (play-round.mjs
--stringify), is the same text and the C program accepts it too. Usage: cross_language.py VERIFY_ROUND_BINARY
"""

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import fairmines

ROOT = Path(__file__).resolve().parents[2]
CLIENT_SEEDS = ["", "player seed", "a:b:c", "Grüße, 세계 🎲", "x" * 150]
RTPS = ["0.99", "97/100", "1", "0.5"]


def play_in_node(
    server_seed: str, client_seed: str, nonce: int, mines: int, rtp: str, picks: list[int], void: bool,
    stringify: bool = False,
) -> str:
    """The line play-round.mjs prints, as text (with `stringify`: the record written by JSON.stringify)."""
    out = subprocess.run(
        ["node", "examples/play-round.mjs", "--server-seed", server_seed, "--client-seed", client_seed,
         "--nonce", str(nonce), "--mines", str(mines), "--rtp", rtp, "--picks", ",".join(map(str, picks))]
        + (["--void"] if void else []) + (["--stringify"] if stringify else []),
        cwd=ROOT / "node", check=True, capture_output=True, text=True,
    )
    return out.stdout.strip()


def c_verifies(verify_round: str, record_json: str, server_seed: str) -> bool:
    status = subprocess.run([verify_round, record_json, server_seed], capture_output=True, text=True).returncode
    if status not in (0, 1):
        raise AssertionError(f"verify_round exited {status} on {record_json}")
    return status == 0


def tampered(record: dict) -> list[tuple[str, dict]]:
    """Single-field changes that no genuine round can explain."""
    changes = []
    commitment = record["commitment"]
    changes.append(("commitment", {**record, "commitment": ("0" if commitment[0] != "0" else "1") + commitment[1:]}))
    if record["outcome"] == "cashed_out":
        changes.append(("outcome", {**record, "outcome": "lost", "multiplier": None}))
        changes.append(("multiplier", {**record, "multiplier": "1000/1"}))
    elif record["outcome"] == "voided":
        changes.append(("outcome", {**record, "outcome": "lost"}))
        changes.append(("multiplier", {**record, "multiplier": "1/1"}))  # a voided round pays nothing
    else:
        changes.append(("outcome", {**record, "outcome": "cashed_out"}))
        changes.append(("outcome", {**record, "outcome": "voided"}))
    return changes


def main() -> int:
    verify_round = sys.argv[1]
    rng = random.Random(20261129)
    rounds = checked = stringified = 0
    outcomes = {"lost": 0, "cashed_out": 0, "voided": 0}
    for i in range(60):
        server_seed = hashlib.sha3_256(f"cross-language server seed {i}".encode()).hexdigest()
        client_seed = CLIENT_SEEDS[i % len(CLIENT_SEEDS)]
        mines = i % 24 + 1
        nonce = rng.choice([0, 1, 2**32, 2**53 - 1, rng.randrange(2**63)])
        void = i % 3 == 2
        # A round to void gets one pick, so that most of them are still in play when they are voided.
        count = rng.choice([1, 2, rng.randint(1, 25 - mines)])
        picks = rng.sample(range(1, 26), 1 if void else count)
        line = play_in_node(server_seed, client_seed, nonce, mines, RTPS[i % len(RTPS)], picks, void)
        played = json.loads(line)
        assert played["server_seed"] == server_seed
        record_json = json.dumps(played["record"], separators=(",", ":"), ensure_ascii=False)
        assert record_json in line, "the record is not the core's compact JSON"

        record = fairmines.RoundRecord.from_json(record_json)
        assert record.to_json() == record_json, (record.to_json(), record_json)
        verdict = fairmines.verify_round(record, server_seed)
        assert verdict.ok, verdict.differences
        grid = fairmines.mine_positions(server_seed, client_seed, nonce, mines)
        assert list(verdict.mine_positions) == list(grid)
        assert c_verifies(verify_round, record_json, server_seed), record_json
        if nonce <= 2**53 - 1:  # above, JSON.stringify is exact only where Node.js has JSON.rawJSON (21 and later)
            logged = play_in_node(server_seed, client_seed, nonce, mines, RTPS[i % len(RTPS)], picks, void, True)
            assert logged == line, (logged, line)
            logged_record = logged[len('{"record":') : logged.rindex(',"server_seed":')]  # Node's own bytes
            assert c_verifies(verify_round, logged_record, server_seed), logged
            stringified += 1

        for field, change in tampered(played["record"]):
            changed_json = json.dumps(change, separators=(",", ":"), ensure_ascii=False)
            assert not fairmines.verify_round(fairmines.RoundRecord.from_json(changed_json), server_seed).ok, field
            assert not c_verifies(verify_round, changed_json, server_seed), (field, changed_json)
            checked += 1
        rounds += 1
        outcomes[played["record"]["outcome"]] += 1
    assert min(outcomes.values()) >= 5, outcomes
    print(
        f"cross-language: {rounds} rounds played in Node ({outcomes['lost']} lost, {outcomes['cashed_out']} cashed out,"
        f" {outcomes['voided']} voided)"
        f" verified by Python and C; {checked} altered records rejected by both;"
        f" {stringified} records written by JSON.stringify(record) accepted by C"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
