# Type stubs of the extension module fairmines._native (bindings/python/src). Written by hand and
# checked against the built module by `mypy.stubtest` in scripts/test-python.sh.
from collections.abc import Iterable
from typing import Any, ClassVar, NoReturn, SupportsIndex, final

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = [
    "BufferSizeError",
    "FairminesError",
    "InvalidHexError",
    "InvalidMinesError",
    "InvalidNonceError",
    "InvalidTileError",
    "InvalidUtf8Error",
    "RngError",
    "ServerSeed",
    "StreamExhaustedError",
    "Verification",
    "__version__",
    "commitment",
    "draw_order",
    "generate_server_seed",
    "mine_positions",
    "mine_positions_batch",
    "round_signature",
    "verify",
]

class FairminesError(ValueError):
    """Base class of every error raised by fairmines for a bad value (a ValueError)."""

    code: int
    """The core's stable error number (0 for an error raised outside the core)."""
    argument: str | None
    """The name of the argument at fault, if any."""

class InvalidMinesError(FairminesError):
    """The mine count is not an integer in 1..24. Code 1."""

class InvalidNonceError(FairminesError, OverflowError):
    """A nonce is not an integer in 0..2**64 (also an OverflowError). Code 2."""

class InvalidTileError(FairminesError):
    """A declared tile is outside 1..25, or the list cannot be a board. Code 3."""

class InvalidHexError(FairminesError):
    """A digest (commitment) is not 64 hexadecimal characters. Code 4."""

class InvalidUtf8Error(FairminesError, UnicodeError):
    """A string cannot be encoded as UTF-8 (it holds a lone surrogate). Code 5."""

class StreamExhaustedError(FairminesError):
    """A finite word source ran out (never raised by this module's functions). Code 6."""

class RngError(FairminesError):
    """The operating system's random number generator failed. Code 7."""

class BufferSizeError(FairminesError):
    """An output buffer of the wrong size (never raised by this module's functions). Code 8."""

def commitment(server_seed: str) -> str:
    """Lowercase hex of SHA3-256 of the server seed's UTF-8 text."""

def round_signature(server_seed: str, client_seed: str, nonce: SupportsIndex) -> str:
    """Lowercase hex of SHA3-256(``server_seed:client_seed:nonce``); nonce in 0..2**64."""

def mine_positions(server_seed: str, client_seed: str, nonce: SupportsIndex, mines: SupportsIndex) -> list[int]:
    """The mine positions of a round: sorted, 1-based (1 = top-left, 25 = bottom-right); mines in 1..24."""

def draw_order(server_seed: str, client_seed: str, nonce: SupportsIndex, mines: SupportsIndex) -> list[int]:
    """The tile indices of a round in the order they were drawn: 0-based, unsorted."""

def verify(
    server_seed: str,
    client_seed: str,
    nonce: SupportsIndex,
    mines: SupportsIndex,
    positions: Iterable[SupportsIndex] | None = None,
    commitment: str | None = None,
) -> Verification:
    """Recomputes a finished round and checks the declared positions and commitment, if given."""

def generate_server_seed() -> ServerSeed:
    """A fresh server seed from the operating system's CSPRNG (64 lowercase hex characters)."""

def mine_positions_batch(
    server_seed: str,
    client_seed: str,
    nonces: range | Iterable[SupportsIndex] | npt.NDArray[np.integer[Any]],
    mines: SupportsIndex,
) -> npt.NDArray[np.uint8]:
    """The mine positions of many rounds, shape ``(len(nonces), mines)``; needs numpy."""

@final
class Verification:
    """The result of ``verify``: everything recomputed from the seeds, and each requested check."""

    @property
    def commitment(self) -> str:
        """SHA3-256 of the revealed server seed (lowercase hex)."""
    @property
    def signature(self) -> str:
        """The recomputed round signature (lowercase hex)."""
    @property
    def positions(self) -> tuple[int, ...]:
        """The recomputed mine positions: sorted, 1-based."""
    @property
    def draw_order(self) -> tuple[int, ...]:
        """The recomputed draw order: 0-based, unsorted."""
    @property
    def words_used(self) -> int:
        """Words read from the SHAKE256 stream: the mine count plus the rejected draws."""
    @property
    def nonce(self) -> int:
        """The round's nonce."""
    @property
    def mines(self) -> int:
        """The round's mine count."""
    @property
    def declared_commitment(self) -> str | None:
        """The commitment that was checked (lowercase hex), or None."""
    @property
    def declared_positions(self) -> tuple[int, ...] | None:
        """The positions that were checked (sorted), or None."""
    @property
    def commitment_ok(self) -> bool | None:
        """Whether the commitment matches the seed; None if no commitment was given."""
    @property
    def positions_ok(self) -> bool | None:
        """Whether the declared positions are the recomputed ones; None if none were given."""
    @property
    def ok(self) -> bool:
        """True when every check that was asked for holds (and when none was)."""
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class ServerSeed:
    """A server seed from ``generate_server_seed()``; its repr and str show the commitment only."""

    def reveal(self) -> str:
        """The seed's 64 lowercase hex characters."""
    @property
    def hex(self) -> str:
        """The seed's 64 lowercase hex characters (same as ``reveal()``)."""
    @property
    def commitment(self) -> str:
        """The commitment to publish before play (lowercase hex)."""
    def __reduce__(self) -> NoReturn:
        """Always raises TypeError: pickling or copying would write out the secret seed."""
