"""A small pure-Python implementation of ALGORITHM.md on hashlib, for differential tests and the benchmark.

Written from the specification alone (no code shared with the Rust core), as slowly and plainly as
the text reads.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterator

TILES = 25


def commitment(server_seed: str) -> str:
    """Step 1: lowercase hex of SHA3-256 of the server seed's UTF-8 text."""
    return hashlib.sha3_256(server_seed.encode("utf-8")).hexdigest()


def round_signature(server_seed: str, client_seed: str, nonce: int) -> str:
    """Step 2: lowercase hex of SHA3-256(server_seed + ":" + client_seed + ":" + decimal(nonce))."""
    return hashlib.sha3_256(f"{server_seed}:{client_seed}:{nonce}".encode("utf-8")).hexdigest()


def words(signature: str) -> Iterator[int]:
    """Step 3: SHAKE256 over the signature's 64 ASCII hex characters, as big-endian u32 words.

    hashlib's SHAKE gives a fixed-length digest; the output is prefix-consistent, so a longer digest
    extends the stream (the reference pre-draws 48 words; this goes on when more are needed).
    """
    shake = hashlib.shake_256(signature.encode("ascii"))
    count, index = 48, 0
    while True:
        data = shake.digest(4 * count)
        while index < count:
            yield int.from_bytes(data[4 * index : 4 * index + 4], "big")
            index += 1
        count *= 2


@dataclass(frozen=True)
class Round:
    draw_order: list[int]
    positions: list[int]
    words_used: int
    rejected: list[dict[str, int]]


def place(signature: str, mines: int) -> Round:
    """Step 4: partial Fisher-Yates with rejection sampling over the 25 tiles."""
    available = list(range(TILES))
    draw_order: list[int] = []
    rejected: list[dict[str, int]] = []
    stream = words(signature)
    used = 0
    for draw in range(mines):
        p = len(available)
        limit = (2**32 // p) * p
        while True:
            w = next(stream)
            used += 1
            if w < limit:
                break
            rejected.append({"draw": draw, "available": p, "word_index": used - 1, "word": w})
        draw_order.append(available.pop(w % p))
    return Round(draw_order, sorted(t + 1 for t in draw_order), used, rejected)


def play(server_seed: str, client_seed: str, nonce: int, mines: int) -> Round:
    """Steps 2-4 for one round."""
    return place(round_signature(server_seed, client_seed, nonce), mines)
