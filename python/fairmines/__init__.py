"""Provably fair Mines (Cloudbet): commitments, round signatures, mine placement and verification.

Every function is implemented in Rust (the ``fairmines`` crate) and re-exported here from the
extension module ``fairmines._native``::

    >>> import fairmines
    >>> fairmines.mine_positions(
    ...     "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
    ...     "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817",
    ...     1,
    ...     3,
    ... )
    [7, 10, 19]

Bad values raise a subclass of :class:`FairminesError` (a ``ValueError``) whose message starts with
the name of the argument; arguments of the wrong type raise ``TypeError``.
"""

from ._native import (
    BufferSizeError,
    FairminesError,
    InvalidHexError,
    InvalidMinesError,
    InvalidNonceError,
    InvalidTileError,
    InvalidUtf8Error,
    RngError,
    ServerSeed,
    StreamExhaustedError,
    Verification,
    __version__,
    commitment,
    draw_order,
    generate_server_seed,
    mine_positions,
    mine_positions_batch,
    round_signature,
    verify,
)

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
