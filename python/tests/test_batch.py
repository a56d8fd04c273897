"""mine_positions_batch: the vectors in every accepted form of `nonces`, big batches, the GIL."""

from __future__ import annotations

import threading
from collections import defaultdict
from typing import Any

import numpy as np
import pytest

import fairmines
from conftest import CASES, WORKED


def _groups() -> dict[tuple[str, str, int], list[dict[str, Any]]]:
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for case in CASES:
        groups[(case["server_seed"], case["client_seed"], case["mines"])].append(case)
    return groups


GROUPS = _groups()


@pytest.mark.parametrize("form", ["list", "tuple", "uint64", "int64", "object-array", "generator"])
def test_every_vector_through_the_batch(form: str) -> None:
    checked = 0
    for (server, client, mines), cases in GROUPS.items():
        nonces = [case["nonce"] for case in cases]
        arg: Any = {
            "list": nonces,
            "tuple": tuple(nonces),
            "uint64": np.array(nonces, dtype=np.uint64),
            "int64": np.array(nonces, dtype=np.int64),
            "object-array": np.array(nonces, dtype=object),
            "generator": (n for n in nonces),
        }[form]
        out = fairmines.mine_positions_batch(server, client, arg, mines)
        assert out.dtype == np.uint8 and out.shape == (len(cases), mines)
        assert out.tolist() == [case["positions"] for case in cases]
        checked += len(cases)
    assert checked == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_every_vector_as_a_range(case: dict[str, Any]) -> None:
    server, client, nonce, mines = case["server_seed"], case["client_seed"], case["nonce"], case["mines"]
    start = max(0, nonce - 2)
    out = fairmines.mine_positions_batch(server, client, range(start, nonce + 3), mines)
    assert out.shape == (nonce + 3 - start, mines)
    assert out[nonce - start].tolist() == case["positions"]
    for row, n in zip(out, range(start, nonce + 3)):
        assert row.tolist() == fairmines.mine_positions(server, client, n, mines)


def test_a_batch_spread_over_threads_equals_single_rounds() -> None:
    # More than 2 x 2048 rounds, so the core splits the work over threads (on a multi-core machine).
    w = WORKED
    out = fairmines.mine_positions_batch(w["server_seed"], w["client_seed"], range(10_000), 24)
    assert out.shape == (10_000, 24)
    for n in list(range(0, 10_000, 97)) + [4095, 4096, 4097, 9999]:
        assert out[n].tolist() == fairmines.mine_positions(w["server_seed"], w["client_seed"], n, 24)
    # Unordered nonces as a list, including the largest one.
    nonces = [2**64 - 1, 5, 2**53 + 1, 0, 5]
    listed = fairmines.mine_positions_batch("s", "c", nonces, 7)
    assert listed.tolist() == [fairmines.mine_positions("s", "c", n, 7) for n in nonces]


def test_ranges_with_steps_and_at_the_top_of_u64() -> None:
    top = fairmines.mine_positions_batch("s", "c", range(2**64 - 3, 2**64), 4)
    assert top.tolist() == [fairmines.mine_positions("s", "c", n, 4) for n in range(2**64 - 3, 2**64)]
    for r in [range(10, 0, -3), range(0, 30, 7), range(5, 5), range(7, 3)]:
        out = fairmines.mine_positions_batch("s", "c", r, 2)
        assert out.shape == (len(r), 2)
        assert out.tolist() == [fairmines.mine_positions("s", "c", n, 2) for n in r]


def test_empty_batches_have_the_right_shape() -> None:
    empties: list[Any] = [[], range(0), np.array([], dtype=np.uint64)]
    for empty in empties:
        out = fairmines.mine_positions_batch("s", "c", empty, 5)
        assert out.shape == (0, 5) and out.dtype == np.uint8


def test_other_integer_dtypes_and_strided_arrays() -> None:
    base = np.arange(40, dtype=np.int64)
    expected = [fairmines.mine_positions("s", "c", int(n), 3) for n in base[::3]]
    assert fairmines.mine_positions_batch("s", "c", base[::3], 3).tolist() == expected
    for dtype in (np.uint8, np.int16, np.uint32, np.int32):
        assert fairmines.mine_positions_batch("s", "c", base[::3].astype(dtype), 3).tolist() == expected


def test_the_result_is_an_ordinary_writable_array() -> None:
    out = fairmines.mine_positions_batch("s", "c", range(3), 2)
    assert out.flags.c_contiguous and out.flags.writeable
    out[0, 0] = 0  # owned by the caller, no aliasing of anything else
    assert fairmines.mine_positions_batch("s", "c", range(3), 2)[0, 0] != 0


def batch_blocks() -> Any:
    """The test build's count of the blocks (65,536 rounds) that the batches of this process have finished."""
    blocks = getattr(fairmines._native, "_batch_blocks_for_testing", None)
    assert blocks is not None, "_batch_blocks_for_testing is missing: build with the cargo feature testing (scripts/test-python.sh does)"
    return blocks


def test_the_batch_releases_the_gil() -> None:
    """While a batch runs in another thread, this one runs Python code and sees the batch partly done:
    holding the GIL from call to return, the batch would let it see only none or all of its blocks."""
    w = WORKED
    blocks = batch_blocks()
    start = blocks()
    thread = threading.Thread(
        target=fairmines.mine_positions_batch, args=(w["server_seed"], w["client_seed"], range(2_000_000), 1)
    )
    seen = set()
    thread.start()
    while thread.is_alive():
        seen.add(blocks() - start)
    thread.join()
    total = blocks() - start
    assert total == -(-2_000_000 // 65_536)
    assert any(0 < done < total for done in seen), f"saw only {sorted(seen)} of {total} blocks"


def test_ctrl_c_during_a_batch_is_a_keyboard_interrupt_at_once() -> None:
    """Ctrl-C during mine_positions_batch must be seen at once: it was seen only once the whole batch was done, and in a
    process's first batch it surfaced as pyo3_runtime.PanicException (numpy's C API, first fetched after
    the batch, ran Python code with the interrupt pending). Now the batch runs in blocks with Ctrl-C looked
    for in between, and numpy's API is fetched before it. Run in a process of its own: its first batch."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(
        """
        import os, signal, threading
        import numpy  # imported before, so that the interrupt falls in the batch itself
        import fairmines

        blocks = fairmines._native._batch_blocks_for_testing
        at_send = []

        def interrupt():
            while blocks() < 2:  # once the batch has run a while
                pass
            at_send.append(blocks())
            os.kill(os.getpid(), signal.SIGINT)

        # The interrupted batch is this process's first: 458 blocks of 65,536 rounds, seconds of work.
        threading.Thread(target=interrupt).start()
        try:
            fairmines.mine_positions_batch("s", "c", range(30_000_000), 24)
            print("finished", blocks(), 0)
        except KeyboardInterrupt:
            print("KeyboardInterrupt", at_send[0], blocks())
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and "PanicException" not in result.stderr, result.stderr
    outcome, at_send, at_raise = result.stdout.split()
    assert outcome == "KeyboardInterrupt", result.stdout
    # Not a time: the batch stops at the end of the block it is in when the signal comes (one more may
    # finish between the count read and the kill), far from its 458th.
    assert int(at_raise) < 458 and int(at_raise) - int(at_send) <= 2, f"sent after {at_send} blocks, raised after {at_raise}"
