"""Many Python threads at once get exactly the single-threaded results, and a second move on a
Round that another thread is moving waits for it, with the interpreter released.

On a GIL build the threads interleave at every switch interval (set very short here) and inside
`mine_positions_batch`, which releases the GIL; the package declares free-threading support, so on a
free-threaded build they run truly in parallel (every class is frozen and locks its own state).
"""

from __future__ import annotations

import sys
import threading
import time
from functools import partial
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Callable, TypeVar

import pytest

import fairmines
from conftest import CASES, WORKED

S, C = WORKED["server_seed"], WORKED["client_seed"]
THREADS = 16
T = TypeVar("T")


@contextmanager
def fast_switching() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def all_at_once(jobs: list[Callable[[], T]]) -> list[T]:
    """Runs every job on its own thread, all released together; results in job order."""
    barrier = threading.Barrier(len(jobs))

    def run(job: Callable[[], T]) -> T:
        barrier.wait()
        return job()

    with fast_switching(), ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        return list(pool.map(run, jobs))


def test_mine_positions_from_many_threads() -> None:
    cases = CASES[:: max(1, len(CASES) // 400)]
    expected = [fairmines.mine_positions(c["server_seed"], c["client_seed"], c["nonce"], c["mines"]) for c in cases]
    assert expected == [c["positions"] for c in cases]

    def job(offset: int) -> list[list[int]]:
        # Each thread walks the cases from another starting point, so different rounds overlap.
        order = cases[offset:] + cases[:offset]
        got = [fairmines.mine_positions(c["server_seed"], c["client_seed"], c["nonce"], c["mines"]) for c in order]
        return got[len(cases) - offset :] + got[: len(cases) - offset]

    for got in all_at_once([partial(job, i * 7 % len(cases)) for i in range(THREADS)]):
        assert got == expected


def test_mine_positions_batch_from_many_threads() -> None:
    jobs_args = [(S if i % 2 else "s", C if i % 3 else "c", range(i * 500, i * 500 + 6000), 1 + i % 24) for i in range(THREADS)]
    expected = [fairmines.mine_positions_batch(*args).tolist() for args in jobs_args]
    spot = jobs_args[5]
    assert expected[5][17] == fairmines.mine_positions(spot[0], spot[1], spot[2][17], spot[3])
    got = all_at_once([partial(lambda a: fairmines.mine_positions_batch(*a).tolist(), args) for args in jobs_args])
    assert got == expected


def play(server: str, client: str, first_nonce: int, rounds: int) -> list[str]:
    """Plays `rounds` rounds on one seed pair with a fixed strategy; returns their records as JSON."""
    pair = fairmines.SeedPair.from_parts(server, client, first_nonce)
    records = []
    for i in range(rounds):
        rtps: list[str | Fraction] = ["0.99", Fraction(97, 100), "1"]
        round_ = pair.start_round(1 + i % 24, rtps[i % 3])
        wanted = 1 + i % 5
        for tile in range(1, 26):
            if round_.is_finished or len(round_.picks) == wanted:
                break
            round_.reveal((tile * 7 + i) % 25 + 1)
        if not round_.is_finished:
            round_.cash_out()
        record = round_.record()
        assert record is not None
        assert list(round_.mine_positions or ()) == fairmines.mine_positions(server, client, record.nonce, record.mines)
        records.append(record.to_json())
    return records


def test_rounds_played_in_many_threads() -> None:
    seeds = [f"{i:064x}" for i in range(THREADS)]
    expected = [play(seed, C, 1000 * i, 60) for i, seed in enumerate(seeds)]
    got = all_at_once([partial(play, seed, C, 1000 * i, 60) for i, seed in enumerate(seeds)])
    assert got == expected
    # And every record verifies against its seed.
    for seed, records in zip(seeds, got):
        for text in records:
            assert fairmines.verify_round(fairmines.RoundRecord.from_json(text), seed).ok


def test_one_seed_pair_shared_by_many_threads_hands_out_each_nonce_once() -> None:
    pair = fairmines.SeedPair.from_parts(S, C, 0)
    per_thread = 50

    def job() -> list[tuple[int, int, list[int]]]:
        out = []
        for i in range(per_thread):
            round_ = pair.start_round(3, "0.99")
            # Lose the round on purpose (its first mine), to see the grid.
            nonce = round_.nonce
            round_.reveal(fairmines.mine_positions(S, C, nonce, 3)[0])
            out.append((nonce, i, list(round_.mine_positions or ())))
        return out

    results = [item for batch in all_at_once([job] * THREADS) for item in batch]
    nonces = sorted(nonce for nonce, _, _ in results)
    assert nonces == list(range(THREADS * per_thread))
    assert pair.public_part.nonce == THREADS * per_thread
    for nonce, _, grid in results:
        assert grid == fairmines.mine_positions(S, C, nonce, 3)


def test_a_round_shared_by_many_threads_stays_consistent() -> None:
    """Threads racing on one round: each move is whole and waits for the one before; refusals are the
    game's (a tile taken, the round over), never a refusal to wait."""
    for attempt in range(20):
        round_ = fairmines.SeedPair.from_parts(S, C, attempt).start_round(1, "1")
        outcomes: list[Any] = []
        lock = threading.Lock()

        def job(tile: int, rnd: fairmines.Round = round_) -> None:
            try:
                result: Any = rnd.reveal(tile)
            except (fairmines.TileAlreadyRevealedError, fairmines.RoundFinishedError) as err:
                result = type(err)
            with lock:
                outcomes.append(result)

        all_at_once([partial(job, t) for t in [*range(1, 26), *range(1, 26)]])
        picks = round_.picks
        assert len(set(picks)) == len(picks)
        revealed = [o for o in outcomes if isinstance(o, fairmines.Reveal)]
        assert sorted(r.tile for r in revealed) == sorted(picks)
        assert round_.is_finished or len(picks) < 24
        grid = fairmines.mine_positions(S, C, attempt, 1)
        for r in revealed:
            assert r.safe == (r.tile not in grid)
        if round_.is_finished:
            record = round_.record()
            assert record is not None and fairmines.verify_round(record, S).ok


def test_a_second_move_waits_for_the_first_with_the_interpreter_released() -> None:
    """A thread holds the round (the test build's hook, as a long move would); a move from another
    thread waits for it, and meanwhile a third thread keeps running Python code."""
    round_ = fairmines.SeedPair.from_parts(S, C, 1).start_round(3, "0.99")
    hold = getattr(round_, "_hold_for_testing", None)
    assert hold is not None, "Round._hold_for_testing is missing: build with the cargo feature testing (scripts/test-python.sh does)"
    ticks = 0
    stop = threading.Event()

    def tick() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        for move in (lambda: round_.reveal(1), round_.cash_out):
            held = threading.Event()
            held_at: list[float] = []

            def started() -> None:  # called by the holder with the round held, before it sleeps 0.5 s
                held_at.append(time.perf_counter())
                held.set()

            holder = threading.Thread(target=hold, args=(0.5, started))
            holder.start()
            assert held.wait(10)
            before = ticks
            move()  # waits for the holder to let go
            since_held, ticked = time.perf_counter() - held_at[0], ticks - before
            holder.join()
            # Not a speed: the holder lets go no sooner than 0.5 s after it took the round.
            assert since_held >= 0.5, since_held
            assert ticked > 1000, "the waiting move held the interpreter"
    finally:
        stop.set()
        ticker.join()
    assert round_.picks == (1,) and round_.outcome == "cashed_out" and round_.multiplier == Fraction(9, 8)


def test_voiding_and_rotating_while_threads_play() -> None:
    """The operator voids and rotates while players move: no move is accepted once the seed is revealed."""
    pair = fairmines.SeedPair.from_parts(S, C, 0)
    rounds = [pair.start_round(1, "1") for _ in range(THREADS)]
    rotated = threading.Event()

    def player(round_: fairmines.Round) -> tuple[list[int], bool]:
        safe = [t for t in range(1, 26) if t not in fairmines.mine_positions(S, C, round_.nonce, 1)]
        accepted: list[int] = []
        late = False
        for tile in safe:
            seed_was_public = rotated.is_set()
            try:
                round_.reveal(tile)
            except fairmines.RoundVoidedError:
                return accepted, late
            accepted.append(tile)
            late |= seed_was_public
        return accepted, late

    def operator() -> tuple[list[int], bool]:  # (the shape of a player's result, for all_at_once)
        voided = pair.void_open_rounds()
        revealed = pair.rotate()  # no round is in play now: none was started since the void
        rotated.set()
        assert revealed.server_seed == S and revealed.rounds == THREADS
        return voided, False

    jobs: list[Callable[[], tuple[list[int], bool]]] = [*(partial(player, r) for r in rounds), operator]
    results = all_at_once(jobs)
    played, (voided, _) = results[:-1], results[-1]
    assert voided == sorted(voided) and set(voided) <= set(range(THREADS))
    for round_, (accepted, late) in zip(rounds, played):
        assert not late, "a move was accepted after the server seed was revealed"
        record = round_.record()
        assert record is not None and list(record.picks) == accepted
        assert record.outcome == ("voided" if round_.nonce in voided else "cashed_out")
        assert fairmines.verify_round(record, S).ok
