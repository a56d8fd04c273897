"""Rounds in play handed from one language to another through the seed pair's stored state.

For each case, Python starts four rounds on one pair, reveals a safe tile in three of them and stores the state in
a file. Then, each step a new process in another language, as a service restarted between moves would: Node
resumes the first round and cashes it out; the C library resumes the second and hits a mine; C resumes the third
and Node clears it to its last safe tile; Python takes the state back, finds only the fourth in play, voids it and
rotates. After every step the stored state is byte for byte the one the same moves give played straight through in
this process, every record is the same as there, and every record verifies with the revealed server seed in Python
and in C. Usage: resume_across.py RESUME_ROUND_BINARY VERIFY_ROUND_BINARY
"""

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import fairmines
from cross_language import c_verifies

HERE = Path(__file__).resolve().parent
CASES = [
    ("player seed", 0, (3, 5, 1, 2), "0.99"),
    ("a:b:c", 1, (24, 12, 20, 7), "97/100"),
    ("Grüße, 세계 🎲", 2**32, (2, 23, 4, 24), "1"),
    ("x" * 150, 2**53 - 1, (10, 1, 15, 3), "0.5"),
    ("", 2**64 - 10, (6, 18, 22, 9), "99/100"),
]


def safe_tiles(server_seed: str, client_seed: str, nonce: int, mines: int, picked: list[int]) -> list[int]:
    grid = fairmines.mine_positions(server_seed, client_seed, nonce, mines)
    return [t for t in range(1, 26) if t not in grid and t not in picked]


def resume(command: list[str], state: Path, nonce: int, moves: list[int | str]) -> str:
    """The record line the other language's program printed ('' while the round is still in play)."""
    out = subprocess.run(
        command + [str(state), str(nonce)] + [str(m) for m in moves], check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


def main() -> int:
    c_resume, c_verify = sys.argv[1], sys.argv[2]
    node_resume = ["node", str(HERE / "resume_round.mjs")]
    steps = records = 0
    for i, (client, first_nonce, mines, rtp) in enumerate(CASES):
        server = hashlib.sha3_256(f"resume across languages {i}".encode()).hexdigest()
        straight = fairmines.SeedPair.from_parts(server, client, first_nonce)
        rounds = [straight.start_round(m, rtp) for m in mines]
        nonces = [first_nonce + k for k in range(4)]
        for k in range(3):
            rounds[k].reveal(safe_tiles(server, client, nonces[k], mines[k], [])[0])
        with tempfile.TemporaryDirectory() as tmp:
            state = Path(tmp) / "state.json"
            state.write_text(straight.to_state_json(), encoding="utf-8")

            def step(command: list[str], k: int, moves: list[int | str]) -> None:
                nonlocal steps
                line = resume(command, state, nonces[k], moves)
                for move in moves:
                    if move == "cash-out":
                        rounds[k].cash_out()
                    else:
                        rounds[k].reveal(move)
                expected = rounds[k].record()
                assert line == (expected.to_json() if expected else ""), (command, k, line)
                assert state.read_text(encoding="utf-8") == straight.to_state_json(), (command, k)
                steps += 1

            def safe(k: int) -> list[int]:
                return safe_tiles(server, client, nonces[k], mines[k], list(rounds[k].picks))

            if mines[0] < 24:  # with 24 mines the first safe pick already cleared the board
                step(node_resume, 0, [safe(0)[0], "cash-out"])
            mine = fairmines.mine_positions(server, client, nonces[1], mines[1])[0]
            step([c_resume], 1, ([safe(1)[0]] if mines[1] < 23 else []) + [mine])
            if mines[2] < 24:
                step([c_resume], 2, [safe(2)[0]] if mines[2] < 23 else [])
                step(node_resume, 2, safe(2))
            restored = fairmines.SeedPair.from_state_json(state.read_text(encoding="utf-8"))
            assert restored.open_rounds() == [nonces[3]], restored.open_rounds()
            fourth = restored.round(nonces[3])
            assert restored.void_open_rounds() == [nonces[3]] == straight.void_open_rounds()
            voided, expected = fourth.record(), rounds[3].record()
            assert voided is not None and expected is not None and voided.to_json() == expected.to_json()
            assert fourth.outcome == "voided"
            revealed = restored.rotate()
            assert revealed.server_seed == server and revealed.rounds == first_nonce + 4
        for k, round_ in enumerate(rounds):
            record = round_.record()
            assert record is not None, f"case {i}: round {k} did not finish"
            assert fairmines.verify_round(record, server).ok, record
            assert c_verifies(c_verify, record.to_json(), server), record
            records += 1
        outcomes = [r.outcome for r in rounds]
        assert outcomes[1] == "lost" and outcomes[3] == "voided", outcomes
    print(f"resume across languages: {len(CASES)} cases, {steps} steps in Node and C, {records} records verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
