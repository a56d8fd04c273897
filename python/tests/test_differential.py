"""The extension against the pure-Python hashlib implementation of ALGORITHM.md, on random inputs."""

from __future__ import annotations

import os
import random

import numpy as np

import fairmines
import spec_reference as ref
from conftest import CASES, WORKED

# FAIRMINES_SEED reproduces a failing run; the seed is in every assertion message.
SEED = int(os.environ.get("FAIRMINES_SEED", random.SystemRandom().randrange(2**32)))
ROUNDS = int(os.environ.get("FAIRMINES_ROUNDS", "3000"))

ALPHABET = "0123456789abcdef:ABC xyz-_é中文😀\u0000\n\\\"'"


def random_text(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return rng.randbytes(32).hex()
    if kind == 1:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 200)))
    if kind == 2:
        # Any code point but the lone surrogates, which have no UTF-8 form.
        return "".join(chr(rng.choice([rng.randrange(0xD800), rng.randrange(0xE000, 0x110000)])) for _ in range(rng.randrange(0, 40)))
    return ""


def random_nonce(rng: random.Random) -> int:
    return rng.choice([rng.randrange(1000), rng.randrange(2**53), rng.randrange(2**64), 2**64 - 1, 2**53 - 1, 2**53])


def test_the_reference_itself_on_the_worked_example_and_the_vectors() -> None:
    w = WORKED
    assert ref.commitment(w["server_seed"]) == w["commitment"]
    assert ref.play(w["server_seed"], w["client_seed"], w["nonce"], w["mines"]).positions == w["positions"]
    for case in CASES:
        played = ref.play(case["server_seed"], case["client_seed"], case["nonce"], case["mines"])
        assert (played.draw_order, played.positions, played.words_used, played.rejected) == (
            case["draw_order"],
            case["positions"],
            case["words_used"],
            case["rejected"],
        ), case["id"]


def test_random_rounds_agree_with_the_reference() -> None:
    rng = random.Random(SEED)
    for i in range(ROUNDS):
        server, client = random_text(rng), random_text(rng)
        nonce, mines = random_nonce(rng), rng.randint(1, 24)
        where = f"FAIRMINES_SEED={SEED} round {i}: {server!r} {client!r} {nonce} {mines}"
        played = ref.play(server, client, nonce, mines)
        assert fairmines.commitment(server) == ref.commitment(server), where
        assert fairmines.round_signature(server, client, nonce) == ref.round_signature(server, client, nonce), where
        assert fairmines.draw_order(server, client, nonce, mines) == played.draw_order, where
        assert fairmines.mine_positions(server, client, nonce, mines) == played.positions, where
        verdict = fairmines.verify(server, client, nonce, mines, positions=played.positions, commitment=ref.commitment(server))
        assert verdict and verdict.words_used == played.words_used, where


def test_random_batches_agree_with_the_reference() -> None:
    rng = random.Random(SEED ^ 0x5EED)
    for i in range(20):
        server, client, mines = random_text(rng), random_text(rng), rng.randint(1, 24)
        start = random_nonce(rng) % (2**64 - 300)
        nonces = [random_nonce(rng) for _ in range(50)]
        where = f"FAIRMINES_SEED={SEED} batch {i}"
        as_range = fairmines.mine_positions_batch(server, client, range(start, start + 250), mines)
        assert as_range.tolist() == [ref.play(server, client, n, mines).positions for n in range(start, start + 250)], where
        as_array = fairmines.mine_positions_batch(server, client, np.array(nonces, dtype=np.uint64), mines)
        assert as_array.tolist() == [ref.play(server, client, n, mines).positions for n in nonces], where
