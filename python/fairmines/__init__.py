"""Provably fair Mines (Cloudbet): commitments, round signatures, mine placement, verification, and the
game itself (seed pairs, rounds, exact payouts, round replay).

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

Bad values and refused moves raise a subclass of :class:`FairminesError` (a ``ValueError``) whose
message starts with the name of the argument; arguments of the wrong type raise ``TypeError``.
"""

from ._native import (
    BufferSizeError,
    ConcurrentUseError,
    FairminesError,
    InvalidHexError,
    InvalidMinesError,
    InvalidNonceError,
    InvalidNumberError,
    InvalidPicksError,
    InvalidRtpError,
    InvalidStateError,
    InvalidTileError,
    InvalidUtf8Error,
    NothingToCashOutError,
    PublicSeedPair,
    RevealedSeedPair,
    Reveal,
    RngError,
    Round,
    RoundFinishedError,
    RoundRecord,
    RoundVerification,
    SeedPair,
    ServerSeed,
    StreamExhaustedError,
    TableEntry,
    TileAlreadyRevealedError,
    Verification,
    __version__,
    commitment,
    draw_order,
    generate_server_seed,
    max_safe_picks,
    mine_positions,
    mine_positions_batch,
    multiplier,
    payout_table,
    round_signature,
    verify,
    verify_round,
)

__all__ = [
    "BufferSizeError",
    "ConcurrentUseError",
    "FairminesError",
    "InvalidHexError",
    "InvalidMinesError",
    "InvalidNonceError",
    "InvalidNumberError",
    "InvalidPicksError",
    "InvalidRtpError",
    "InvalidStateError",
    "InvalidTileError",
    "InvalidUtf8Error",
    "NothingToCashOutError",
    "PublicSeedPair",
    "RevealedSeedPair",
    "Reveal",
    "RngError",
    "Round",
    "RoundFinishedError",
    "RoundRecord",
    "RoundVerification",
    "SeedPair",
    "ServerSeed",
    "StreamExhaustedError",
    "TableEntry",
    "TileAlreadyRevealedError",
    "Verification",
    "__version__",
    "commitment",
    "draw_order",
    "generate_server_seed",
    "max_safe_picks",
    "mine_positions",
    "mine_positions_batch",
    "multiplier",
    "payout_table",
    "round_signature",
    "verify",
    "verify_round",
]
