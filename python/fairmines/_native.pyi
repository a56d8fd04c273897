# Type stubs of the extension module fairmines._native (bindings/python/src). Written by hand and
# checked against the built module by `mypy.stubtest` in scripts/test-python.sh.
from collections.abc import Callable, Iterable, Mapping
from os import PathLike

from _typeshed import SupportsRead
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, Literal, NoReturn, SupportsIndex, final

import numpy as np
import numpy.typing as npt
import pandas as pd

__version__: str
__all__ = [
    "AuditReport",
    "BufferSizeError",
    "ChiSquare",
    "ConcurrentUseError",
    "Failure",
    "FairminesError",
    "HistoryReport",
    "HistorySummary",
    "InvalidHexError",
    "InvalidMinesError",
    "InvalidNonceError",
    "InvalidNumberError",
    "InvalidPicksError",
    "InvalidRtpError",
    "InvalidStateError",
    "InvalidTileError",
    "InvalidUtf8Error",
    "MineAudit",
    "NothingToCashOutError",
    "PublicSeedPair",
    "RevealedSeedPair",
    "Reveal",
    "RngError",
    "Round",
    "RoundFinishedError",
    "RoundRecord",
    "RoundVerification",
    "RoundVoidedError",
    "RoundsInPlayError",
    "SeedPair",
    "ServerSeed",
    "StreamExhaustedError",
    "TableEntry",
    "TileAlreadyRevealedError",
    "Verification",
    "__version__",
    "audit",
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
    "verify_history",
    "verify_round",
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
    """A tile is outside 1..25, or a list of tiles cannot be a board. Code 3."""

class InvalidHexError(FairminesError):
    """A digest (commitment) or server seed is not 64 hexadecimal characters. Code 4."""

class InvalidUtf8Error(FairminesError, UnicodeError):
    """A string cannot be encoded as UTF-8 (it holds a lone surrogate). Code 5."""

class StreamExhaustedError(FairminesError):
    """A finite word source ran out (never raised by this module's functions). Code 6."""

class RngError(FairminesError):
    """The operating system's random number generator failed. Code 7."""

class BufferSizeError(FairminesError):
    """An output buffer of the wrong size (never raised by this module's functions). Code 8."""

class TileAlreadyRevealedError(FairminesError):
    """The tile was already revealed in this round. Code 9."""

class RoundFinishedError(FairminesError):
    """The round has finished (a mine was hit or it was cashed out): no more moves. Code 10."""

class NothingToCashOutError(FairminesError):
    """A cash-out before the first safe pick. Code 11."""

class InvalidRtpError(FairminesError):
    """A return-to-player factor that is not a fraction in (0, 1]. Code 12."""

class InvalidPicksError(FairminesError):
    """A number of safe picks that a round cannot have. Code 13."""

class InvalidNumberError(FairminesError):
    """A number (an exact ratio) that does not parse. Code 14."""

class InvalidStateError(FairminesError):
    """Saved state or a round record that does not parse or does not hold together. Code 15."""

class RoundsInPlayError(FairminesError):
    """A seed pair with rounds in play cannot reveal its server seed (rotate, set_client_seed). Code 16."""

class RoundVoidedError(FairminesError):
    """The round was voided (SeedPair.void_open_rounds): no more moves. Code 17."""

class ConcurrentUseError(FairminesError, RuntimeError):
    """A move on a Round that another thread is using at that moment (also a RuntimeError). Code 0."""

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

_Verdict = Literal["ok", "mismatch", "unchecked"]

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
    def verdict(self) -> _Verdict:
        """The verdict: "ok" (every check asked for holds), "mismatch" (one fails) or "unchecked" (none asked for)."""
    @property
    def ok(self) -> bool:
        """True when at least one check was asked for and every one holds (verdict "ok")."""
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

# An exact number: "0.99", "99/100", Fraction(99, 100), Decimal("0.99") or 1 (never a float).
_ExactNumber = str | Fraction | Decimal | int
_Outcome = Literal["lost", "cashed_out", "voided"]

@final
class SeedPair:
    """The operator's state of one player's seed pair; its repr never shows the server seed."""

    def __new__(cls, client_seed: str) -> SeedPair:
        """A new pair: a fresh server seed from the OS CSPRNG, the client seed, nonce 0."""
    @staticmethod
    def from_parts(server_seed: str | ServerSeed, client_seed: str, nonce: SupportsIndex | None = None) -> SeedPair:
        """A pair from its parts (server seed: 64 lowercase hex characters); nonce 0 by default."""
    @staticmethod
    def from_state_json(state: str) -> SeedPair:
        """Restores a pair from ``to_state_json()``."""
    @property
    def public(self) -> PublicSeedPair:
        """What the player may see now."""
    def start_round(self, mines: SupportsIndex, rtp: _ExactNumber) -> Round:
        """Starts a round with the current nonce, then increments the nonce."""
    def open_rounds(self) -> list[int]:
        """The nonces of the rounds in play, ascending."""
    def void_open_rounds(self) -> list[int]:
        """Voids every round in play (they refuse every later move) and returns their nonces."""
    def rotate(self, client_seed: str | None = None) -> RevealedSeedPair:
        """Ends this pair and starts a new one; returns the old pair with its server seed.

        Raises ``RoundsInPlayError`` while a round of the pair is in play."""
    def set_client_seed(self, client_seed: str) -> RevealedSeedPair:
        """The same as ``rotate(client_seed)``."""
    def to_state_json(self) -> str:
        """The full state as JSON, for the operator's storage (contains the secret server seed)."""
    def __reduce__(self) -> NoReturn:
        """Always raises TypeError: pickling or copying would write out the secret server seed."""

@final
class Round:
    """One round in play; the grid is fixed when it starts."""

    def reveal(self, tile: SupportsIndex) -> Reveal:
        """Reveals ``tile`` (1..25): safe, with the multiplier reached, or a mine."""
    def cash_out(self) -> Fraction:
        """Ends the round and returns the multiplier to pay (exact)."""
    def record(self) -> RoundRecord | None:
        """The public record once the round has finished (or was voided); None while it is in play."""
    @property
    def mine_positions(self) -> tuple[int, ...] | None:
        """The mine positions once the round has finished (or was voided); None while it is in play."""
    @property
    def picks(self) -> tuple[int, ...]:
        """The tiles picked so far, in order."""
    @property
    def nonce(self) -> int:
        """The nonce this round used."""
    @property
    def mines(self) -> int:
        """The mine count."""
    @property
    def is_finished(self) -> bool:
        """Whether the round has ended (a mine, a cash-out, or voided)."""
    @property
    def outcome(self) -> _Outcome | None:
        """How the round ended; None while it is in play."""
    @property
    def safe_picks(self) -> int:
        """Safe tiles revealed so far."""
    @property
    def multiplier(self) -> Fraction | None:
        """What a cash-out pays now (or paid); None before the first safe pick, after a mine and once voided."""
    @property
    def commitment(self) -> str:
        """The commitment of the seed pair the round was played with."""
    @property
    def client_seed(self) -> str:
        """The client seed."""
    @property
    def rtp(self) -> Fraction:
        """The return-to-player factor of the multipliers."""
    def _hold_for_testing(self, seconds: float, started: Callable[[], object]) -> None: ...

@final
class Reveal:
    """What ``Round.reveal`` found."""

    @property
    def tile(self) -> int:
        """The tile revealed (1-based)."""
    @property
    def safe(self) -> bool:
        """True for a safe tile, False for a mine."""
    @property
    def safe_picks(self) -> int:
        """Safe picks in the round so far."""
    @property
    def multiplier(self) -> Fraction | None:
        """The multiplier reached, or None after a mine."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class RoundRecord:
    """The public record of a finished round."""

    def __new__(
        cls,
        commitment: str,
        client_seed: str,
        nonce: SupportsIndex,
        mines: SupportsIndex,
        rtp: _ExactNumber,
        picks: Iterable[SupportsIndex],
        outcome: _Outcome,
        multiplier: _ExactNumber | None = None,
    ) -> RoundRecord: ...
    @staticmethod
    def from_json(json: str) -> RoundRecord:
        """Parses ``to_json()``'s form."""
    def to_json(self) -> str:
        """As JSON, the form operators publish."""
    @property
    def commitment(self) -> str:
        """The commitment of the seed pair (lowercase hex)."""
    @property
    def client_seed(self) -> str:
        """The client seed."""
    @property
    def nonce(self) -> int:
        """The round's nonce."""
    @property
    def mines(self) -> int:
        """The mine count."""
    @property
    def rtp(self) -> Fraction:
        """The return-to-player factor."""
    @property
    def picks(self) -> tuple[int, ...]:
        """The tiles picked, in order."""
    @property
    def outcome(self) -> _Outcome:
        """How the round ended."""
    @property
    def multiplier(self) -> Fraction | None:
        """The multiplier paid, None when lost or voided."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(
        self,
    ) -> tuple[type[RoundRecord], tuple[str, str, int, int, Fraction, tuple[int, ...], _Outcome, Fraction | None]]: ...

def verify_round(record: RoundRecord, server_seed: str) -> RoundVerification:
    """Replays a finished round from its record and the revealed server seed."""

@final
class RoundVerification:
    """The result of ``verify_round``; true when the record holds."""

    @property
    def ok(self) -> bool:
        """True when the record is exactly what the seeds and picks give."""
    @property
    def commitment_ok(self) -> bool:
        """Whether SHA3-256 of the revealed server seed is the record's commitment."""
    @property
    def mine_positions(self) -> tuple[int, ...]:
        """Where the mines were (sorted, 1-based)."""
    @property
    def expected_outcome(self) -> _Outcome:
        """The outcome the picks lead to."""
    @property
    def expected_multiplier(self) -> Fraction | None:
        """The multiplier the picks lead to, None when lost or voided."""
    @property
    def differences(self) -> tuple[str, ...]:
        """Each way the record differs from the replay; empty when it holds."""
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class PublicSeedPair:
    """What the player sees of an active seed pair."""

    def __new__(cls, commitment: str, client_seed: str, nonce: SupportsIndex) -> PublicSeedPair: ...
    @staticmethod
    def from_json(json: str) -> PublicSeedPair:
        """Parses ``to_json()``'s form."""
    def to_json(self) -> str:
        """As JSON."""
    @property
    def commitment(self) -> str:
        """SHA3-256 of the secret server seed (lowercase hex)."""
    @property
    def client_seed(self) -> str:
        """The player's client seed."""
    @property
    def nonce(self) -> int:
        """The nonce of the next round."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[PublicSeedPair], tuple[str, str, int]]: ...

@final
class RevealedSeedPair:
    """A seed pair that has been rotated out; its server seed may now be published."""

    def __new__(cls, server_seed: str, commitment: str, client_seed: str, rounds: SupportsIndex) -> RevealedSeedPair: ...
    @staticmethod
    def from_json(json: str) -> RevealedSeedPair:
        """Parses ``to_json()``'s form."""
    def to_json(self) -> str:
        """As JSON."""
    @property
    def server_seed(self) -> str:
        """The server seed, now public."""
    @property
    def commitment(self) -> str:
        """Its commitment, as shown before play."""
    @property
    def client_seed(self) -> str:
        """The client seed it was used with."""
    @property
    def rounds(self) -> int:
        """How many rounds it played (nonces 0 .. rounds)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[type[RevealedSeedPair], tuple[str, str, str, int]]: ...

@final
class TableEntry:
    """One entry of ``payout_table``."""

    @property
    def mines(self) -> int:
        """Mines in the round."""
    @property
    def safe_picks(self) -> int:
        """Safe picks made."""
    @property
    def multiplier(self) -> Fraction:
        """The exact multiplier."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def multiplier(mines: SupportsIndex, safe_picks: SupportsIndex, rtp: _ExactNumber) -> Fraction:
    """C(25, k) / C(25 - mines, k) x rtp, exact; safe_picks in 1..25 - mines."""

def payout_table(rtp: _ExactNumber) -> list[TableEntry]:
    """Every (mines, safe_picks) entry, mines 1..24, safe_picks 1..25 - mines."""

def max_safe_picks(mines: SupportsIndex) -> int:
    """25 - mines."""

# --- whole histories (fairmines-history) ---------------------------------------------------------

_FailureKind = Literal["malformed", "commitment", "positions", "duplicate_nonce", "nonce_gap"]

_History = str | PathLike[str] | SupportsRead[bytes] | Iterable[Mapping[str, Any]]
_Progress = Callable[[int, int], object]

def verify_history(
    history: _History,
    /,
    *,
    format: Literal["auto", "jsonl", "csv"] | str | None = None,
    threads: SupportsIndex | None = None,
    progress: _Progress | None = None,
) -> HistoryReport:
    """Verifies a whole bet history (a path, a binary file or an iterable of dicts), on every core."""

def audit(
    history: _History | None = None,
    /,
    *,
    server_seed: str | None = None,
    client_seed: str | None = None,
    nonces: range | None = None,
    mines: SupportsIndex | Iterable[SupportsIndex] | None = None,
    format: Literal["auto", "jsonl", "csv"] | str | None = None,
    threads: SupportsIndex | None = None,
    progress: _Progress | None = None,
) -> AuditReport:
    """Mine frequency per tile per mine count and first draws, with chi-square tests; over a history
    or over a seed pair and a range of nonces."""

@final
class Failure:
    """One finding of ``verify_history``: a failing row, or a gap between rows."""

    @property
    def kind(self) -> _FailureKind: ...
    @property
    def line(self) -> int | None: ...
    @property
    def round_id(self) -> str | None: ...
    @property
    def pair_commitment(self) -> str | None: ...
    @property
    def client_seed(self) -> str | None: ...
    @property
    def nonce(self) -> int | None: ...
    @property
    def last_nonce(self) -> int | None: ...
    @property
    def field(self) -> str | None: ...
    @property
    def expected(self) -> str | None: ...
    @property
    def declared(self) -> str | None: ...
    @property
    def message(self) -> str: ...
    def to_dict(self) -> dict[str, str | int | None]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class HistorySummary:
    """The counts of ``verify_history``: ``ok + mismatched + malformed == rows_read``."""

    @property
    def rows_read(self) -> int: ...
    @property
    def ok(self) -> int: ...
    @property
    def mismatched(self) -> int: ...
    @property
    def malformed(self) -> int: ...
    @property
    def commitment_mismatches(self) -> int: ...
    @property
    def position_mismatches(self) -> int: ...
    @property
    def duplicate_nonces(self) -> int: ...
    @property
    def nonce_gaps(self) -> int: ...
    @property
    def missing_nonces(self) -> int: ...
    @property
    def seed_pairs(self) -> int: ...
    @property
    def blank_lines(self) -> int: ...
    @property
    def pairs_closed_early(self) -> int: ...
    @property
    def unterminated_last_line(self) -> bool: ...
    def to_dict(self) -> dict[str, int | bool]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class HistoryReport:
    """What ``verify_history`` found; ``merge`` combines the reports of a history's parts."""

    def __new__(cls) -> HistoryReport: ...
    @property
    def summary(self) -> HistorySummary: ...
    @property
    def ok(self) -> bool: ...
    def __bool__(self) -> bool: ...
    @property
    def failures(self) -> tuple[Failure, ...]: ...
    def merge(self, other: HistoryReport) -> HistoryReport: ...
    def to_pandas(self) -> pd.DataFrame: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> HistoryReport: ...
    def __eq__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(self) -> tuple[Callable[[str], HistoryReport], tuple[str]]: ...

@final
class ChiSquare:
    """A chi-square goodness-of-fit test against the uniform distribution."""

    @property
    def statistic(self) -> float: ...
    @property
    def degrees_of_freedom(self) -> int: ...
    @property
    def p_value(self) -> float: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class MineAudit:
    """The audit of one mine count."""

    @property
    def mines(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def tile_counts(self) -> tuple[int, ...]: ...
    @property
    def chi_square(self) -> ChiSquare | None: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class AuditReport:
    """What ``audit`` found; ``merge`` adds the counts of another part."""

    def __new__(cls) -> AuditReport: ...
    @property
    def rows_read(self) -> int: ...
    @property
    def malformed(self) -> int: ...
    @property
    def skipped(self) -> int: ...
    @property
    def by_mines(self) -> tuple[MineAudit, ...]: ...
    @property
    def first_draw_counts(self) -> tuple[int, ...]: ...
    @property
    def first_draw(self) -> ChiSquare | None: ...
    @property
    def combined(self) -> ChiSquare | None: ...
    def heatmap_text(self) -> str: ...
    def heatmap_svg(self, title: str | None = None) -> str: ...
    def merge(self, other: AuditReport) -> AuditReport: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(json: str) -> AuditReport: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(self) -> tuple[Callable[[str], AuditReport], tuple[str]]: ...
