"""Rounds that survive a restart, through the package: the pair's state is stored after every move, the
process stops, and ``SeedPair.from_state_json(stored).round(nonce)`` goes on with the round. Every answer,
the state after each move, the record and the payout must be those of the same moves played without a
stop. (The rules of resuming are tested once, in the core: crates/fairmines/tests/resume.rs; here the
package's conversions carry them, and a real second process resumes a round the first one started.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fairmines
from conftest import WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]
FIRST_NONCE = 40

# (what, tile): a reveal of a tile, a cash-out, or the pair voiding its rounds in play.
Move = tuple[str, int]
ENDINGS = {"lost": "lost", "cashed_out": "cashed_out", "cleared": "cashed_out", "voided": "voided"}


def script(mines: int, ending: str) -> list[Move]:
    """The moves of a round at FIRST_NONCE that ends as `ending`, with refused moves on the way (a
    cash-out before the first safe pick, a tile picked twice, a move once the round has ended)."""
    grid = fairmines.mine_positions(S, C, FIRST_NONCE, mines)
    safe = [t for t in range(1, 26) if t not in grid]
    safe = safe[1::2] + safe[::2]  # not in ascending order
    k = min(3, len(safe) - 1)  # safe picks before a loss, a cash-out or a void: the round stays in play
    moves: list[Move] = [("cash_out", 0), ("reveal", safe[0]), ("reveal", safe[0])]
    moves += [("reveal", tile) for tile in safe[1:k]]
    if ending == "lost":
        moves += [("reveal", grid[-1]), ("reveal", safe[k])]
    elif ending == "cashed_out":
        moves += [("cash_out", 0), ("cash_out", 0)]
    elif ending == "cleared":
        moves += [("reveal", tile) for tile in safe[k:]] + [("cash_out", 0)]
    else:
        moves += [("void", 0), ("reveal", safe[k]), ("cash_out", 0)]
    return moves


def play(mines: int, moves: list[Move], restart: bool) -> tuple[list[Any], fairmines.Round, fairmines.SeedPair]:
    """Plays `moves` on a round of a fresh pair; with `restart`, before every move while the round is in
    play, the state is stored, the pair and the round are dropped, and both come back from the state.
    Returns every answer (a result or the refusal's class and message) with the state after each move."""
    pair = fairmines.SeedPair.from_parts(S, C, FIRST_NONCE)
    round_ = pair.start_round(mines, "0.97")
    nonce = round_.nonce
    answers: list[Any] = []
    for what, tile in moves:
        if restart and not round_.is_finished:
            stored = pair.to_state_json()
            del round_, pair  # the process stops
            pair = fairmines.SeedPair.from_state_json(stored)
            round_ = pair.round(nonce)
            assert round_.mine_positions is None and round_.record() is None
        try:
            if what == "reveal":
                answers.append(round_.reveal(tile))
            elif what == "cash_out":
                answers.append(round_.cash_out())
            else:
                answers.append(pair.void_open_rounds())
        except fairmines.FairminesError as err:
            answers.append((type(err), str(err)))
        state = pair.to_state_json()
        answers.append((round_.picks, round_.safe_picks, round_.multiplier, round_.outcome, state))
        # The move is in the state at once: the round's picks while it is in play, the round gone once ended.
        in_play = [{"nonce": nonce, "mines": mines, "rtp": "97/100", "picks": list(round_.picks)}]
        assert json.loads(state)["rounds"] == (in_play if round_.outcome is None else [])
    return answers, round_, pair


@pytest.mark.parametrize("ending", list(ENDINGS))
@pytest.mark.parametrize("mines", [1, 3, 12, 20, 23])
def test_a_round_resumed_before_every_move_ends_as_if_never_interrupted(mines: int, ending: str) -> None:
    moves = script(mines, ending)
    steady_answers, steady, steady_pair = play(mines, moves, restart=False)
    answers, resumed, pair = play(mines, moves, restart=True)
    assert answers == steady_answers
    assert resumed.outcome == steady.outcome == ENDINGS[ending]
    assert (resumed.picks, resumed.multiplier, resumed.mine_positions) == (steady.picks, steady.multiplier, steady.mine_positions)
    record = resumed.record()
    assert record is not None and record == steady.record()
    assert pair.open_rounds() == []
    with pytest.raises(fairmines.RoundNotInPlayError):
        pair.round(FIRST_NONCE)
    revealed = pair.rotate()
    assert revealed.server_seed == S and steady_pair.rotate().server_seed == S
    assert fairmines.verify_round(record, revealed.server_seed).ok


def test_every_round_in_play_comes_back_by_its_nonce() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 7)
    rounds = [pair.start_round(mines, rtp) for mines, rtp in [(2, "0.99"), (5, "1"), (24, "0.95")]]
    for round_ in rounds[:2]:
        round_.reveal(next(t for t in range(1, 26) if t not in fairmines.mine_positions(S, C, round_.nonce, round_.mines)))
    stored = pair.to_state_json()
    restored = fairmines.SeedPair.from_state_json(stored)
    assert restored.open_rounds() == [7, 8, 9] and restored.to_state_json() == stored
    for before in rounds:
        again = restored.round(before.nonce)
        assert (again.nonce, again.mines, again.rtp, again.picks, again.safe_picks, again.multiplier) == (
            before.nonce, before.mines, before.rtp, before.picks, before.safe_picks, before.multiplier,
        )  # fmt: skip
        assert (again.commitment, again.client_seed, again.outcome) == (before.commitment, before.client_seed, None)
        assert repr(again) == repr(before)


def test_a_round_dropped_in_play_is_handed_back_by_its_pair() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 1)
    round_ = pair.start_round(3, "0.99")  # the worked example: mines on 7, 10 and 19
    round_.reveal(1)
    del round_
    again = pair.round(1)
    assert again.picks == (1,) and again.reveal(2).safe_picks == 2
    assert again.cash_out() == fairmines.multiplier(3, 2, "0.99")


# The first process: a fresh seed pair, a round started and one safe tile revealed (found from the server
# seed in the state, as only the operator can), the state written to the file named by argv[1].
FIRST_PROCESS = """
import json, sys
import fairmines

pair = fairmines.SeedPair("player seed")
round_ = pair.start_round(5, "0.99")
server_seed = json.loads(pair.to_state_json())["server_seed"]
safe = [t for t in range(1, 26) if t not in fairmines.mine_positions(server_seed, "player seed", round_.nonce, 5)]
round_.reveal(safe[-1])
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write(pair.to_state_json())
"""

# The second process: the pair restored from the file, the round resumed by its nonce, another safe tile
# revealed and the round cashed out; it prints the record and the rotated pair's revealed seeds.
SECOND_PROCESS = """
import json, sys
import fairmines

stored = open(sys.argv[1], encoding="utf-8").read()
pair = fairmines.SeedPair.from_state_json(stored)
round_ = pair.round(int(sys.argv[2]))
server_seed = json.loads(stored)["server_seed"]
safe = [t for t in range(1, 26) if t not in fairmines.mine_positions(server_seed, "player seed", round_.nonce, 5)]
round_.reveal(safe[0])
round_.cash_out()
print(json.dumps({"record": round_.record().to_json(), "revealed": pair.rotate().to_json()}))
"""


def run(code: str, *args: str, cwd: Path) -> str:
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_second_process_resumes_the_round_a_first_one_started(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    assert run(FIRST_PROCESS, str(path), cwd=tmp_path) == ""
    state = json.loads(path.read_text(encoding="utf-8"))
    server_seed = state["server_seed"]
    safe = [t for t in range(1, 26) if t not in fairmines.mine_positions(server_seed, "player seed", 0, 5)]
    assert state["nonce"] == 1 and state["rounds"] == [{"nonce": 0, "mines": 5, "rtp": "99/100", "picks": [safe[-1]]}]

    printed = json.loads(run(SECOND_PROCESS, str(path), "0", cwd=tmp_path))
    record = fairmines.RoundRecord.from_json(printed["record"])
    # The same moves, played here without a stop.
    steady = fairmines.SeedPair.from_parts(server_seed, "player seed", 0).start_round(5, "0.99")
    steady.reveal(safe[-1])
    steady.reveal(safe[0])
    paid = steady.cash_out()
    assert printed["record"] == record.to_json() and record == steady.record()
    assert (record.picks, record.outcome, record.multiplier) == ((safe[-1], safe[0]), "cashed_out", paid)
    revealed = fairmines.RevealedSeedPair.from_json(printed["revealed"])
    assert (revealed.server_seed, revealed.commitment, revealed.rounds) == (server_seed, state["commitment"], 1)
    verdict = fairmines.verify_round(record, revealed.server_seed)
    assert verdict.ok and verdict.expected_multiplier == paid
