# Type stubs of the extension module fairmines._native (bindings/python/src), written by hand: the types
# are the stub's own; every docstring and signature is the module's, and python/tests/test_stub.py fails
# when one differs (mypy.stubtest, in scripts/test-python.sh, checks the names and signatures too).
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, ClassVar, Literal, NoReturn, SupportsIndex, final

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = [
    "BufferTooSmallError",
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
    "Reveal",
    "RevealedSeedPair",
    "RngFailedError",
    "Round",
    "RoundFinishedError",
    "RoundNotInPlayError",
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

# A number for the core's rules: an int (or __index__ object, such as a numpy integer) of any size, or a
# float, which counts only when it is an integer exactly.
_Number = SupportsIndex | float

# --- errors: one class per kind of the core (fairmines::ErrorKind::ALL), in code order ----------

class FairminesError(ValueError):
    """Base class of every error raised by fairmines for a bad value (a ValueError).

    `code` is the core's stable error number (0 on this base class), `argument` the name of the argument
    at fault, if any.
    """

    code: int
    argument: str | None

class InvalidMinesError(FairminesError):
    """The mine count is not a whole number from 1 to 24."""

class InvalidNonceError(FairminesError, OverflowError):
    """A nonce is not a whole number from 0 to 2^64 - 1."""

class InvalidTileError(FairminesError):
    """A tile is not between 1 and 25, or a list of tiles cannot be a board."""

class InvalidHexError(FairminesError):
    """A digest or server seed is not 64 hexadecimal characters."""

class InvalidUtf8Error(FairminesError, UnicodeError):
    """A string is not valid UTF-8 (or, from UTF-16, holds a lone surrogate)."""

class StreamExhaustedError(FairminesError):
    """A finite word source ran out before every mine was placed."""

class RngFailedError(FairminesError):
    """The operating system's random number generator failed."""

class BufferTooSmallError(FairminesError):
    """An output buffer is too small for the result."""

class TileAlreadyRevealedError(FairminesError):
    """The tile was already revealed in this round."""

class RoundFinishedError(FairminesError):
    """The round has finished (a mine, or a cash-out): no more moves."""

class NothingToCashOutError(FairminesError):
    """A cash-out before the first safe pick."""

class InvalidRtpError(FairminesError):
    """A return-to-player factor that is not a fraction in (0, 1]."""

class InvalidPicksError(FairminesError):
    """A number of safe picks that the round cannot have."""

class InvalidNumberError(FairminesError):
    """A number that does not parse or is out of range (a ratio, decimal places)."""

class InvalidStateError(FairminesError):
    """Saved state or a round record that does not parse or does not hold together."""

class RoundsInPlayError(FairminesError):
    """The seed pair has rounds in play, so its server seed cannot be revealed."""

class RoundVoidedError(FairminesError):
    """The round was voided so its server seed could be revealed: no more moves."""

class RoundNotInPlayError(FairminesError):
    """No round of the seed pair to go on with at that nonce: none in play, one saved without its picks, or one already handed out."""

# --- rounds from their seeds ------------------------------------------------------------------

def commitment(server_seed: str) -> str:
    """The commitment shown before play: lowercase hex of SHA3-256 of the server seed's UTF-8 text.

    The seed's text is hashed (for a generated seed, its 64 hex characters), not the bytes it encodes.
    """

def round_signature(server_seed: str, client_seed: str, nonce: _Number) -> str:
    """The round signature: lowercase hex of SHA3-256(``server_seed:client_seed:nonce``).

    ``nonce`` is an integer in 0..2**64; it is written in decimal.
    """

def mine_positions(server_seed: str, client_seed: str, nonce: _Number, mines: _Number) -> list[int]:
    """The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).

    ``mines`` is 1..24. Raises ``InvalidMinesError``/``InvalidNonceError`` (both ``ValueError``) for
    values out of range (a float counts only when it is an integer) and ``TypeError`` for arguments of
    the wrong type.
    """

def draw_order(server_seed: str, client_seed: str, nonce: _Number, mines: _Number) -> list[int]:
    """The tile indices of a round in the order they were drawn: 0-based, unsorted."""

def verify(
    server_seed: str,
    client_seed: str,
    nonce: _Number,
    mines: _Number,
    commitment: str | None = None,
    positions: Iterable[_Number] | None = None,
) -> Verification:
    """Recomputes a finished round from its seeds and checks what the operator published.

    ``commitment`` (64 hex characters, either case) and ``positions`` (the declared mine positions,
    1-based, any order) are optional: only what is given is checked. The result's ``verdict``
    is ``"ok"`` when at least one check was asked for and every one holds, ``"mismatch"`` when one
    fails, ``"unchecked"`` when nothing was given to check; it is true only when ``"ok"``. Its repr
    says what differs. An unknown keyword (a misspelt ``commitment``) is a ``TypeError``.
    """

def generate_server_seed() -> ServerSeed:
    """A fresh server seed: 32 bytes from the operating system's CSPRNG as 64 lowercase hex characters.

    Publish ``seed.commitment`` before play; ``seed.reveal()`` only once the seed pair is rotated out.
    """

def mine_positions_batch(
    server_seed: str,
    client_seed: str,
    nonces: range | Iterable[_Number] | npt.NDArray[np.integer[Any]],
    mines: _Number,
) -> npt.NDArray[np.uint8]:
    """The sorted 1-based mine positions of many rounds of one seed pair, as a numpy array.

    ``nonces`` is a ``range``, a sequence of ints or a one-dimensional numpy integer array. Returns a
    ``uint8`` array of shape ``(len(nonces), mines)``: row ``i`` is ``mine_positions(..., nonces[i],
    mines)``. Runs on every core with the GIL released. Needs numpy (``ImportError`` without it). One batch
    writes at most 4 GiB (``len(nonces) * mines <= 2**32``); a larger one raises ``InvalidNumberError``
    naming ``nonces``: split it.
    """

_Verdict = Literal["ok", "mismatch", "unchecked"]

@final
class Verification:
    """The result of ``verify``: everything recomputed from the seeds, and each requested check.

    ``verdict`` is ``"ok"``, ``"mismatch"`` or ``"unchecked"`` (nothing was given to check: the round
    was only recomputed). True (``bool(v)``, ``v.ok``) only when ``"ok"``. A check that was not asked
    for (no ``positions`` or no ``commitment`` given) is ``None``.
    """

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
        """``"ok"`` (at least one check was asked for, and every one holds), ``"mismatch"`` (one
        fails) or ``"unchecked"`` (nothing was given to check).
        """
    @property
    def ok(self) -> bool:
        """True when at least one check was asked for and every one holds (``verdict == "ok"``);
        False when nothing was checked.
        """
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class ServerSeed:
    """A server seed from ``generate_server_seed()``. Its repr and str show the commitment only.

    ``reveal()`` (or ``.hex``) gives the 64 hex characters; publish them only once the seed pair
    has been rotated out. The seed cannot be pickled or copied (that would write it out).
    """

    def reveal(self) -> str:
        """The seed's 64 lowercase hex characters: the text players verify rounds with."""
    @property
    def hex(self) -> str:
        """The seed's 64 lowercase hex characters (same as ``reveal()``)."""
    @property
    def commitment(self) -> str:
        """The commitment to publish before play: SHA3-256 of the seed's text (lowercase hex)."""
    def __reduce__(self) -> NoReturn: ...

# --- the game ---------------------------------------------------------------------------------

# An exact number: "0.99", "99/100", Fraction(99, 100), Decimal("0.99") or 1 (never a float).
_ExactNumber = str | Fraction | Decimal | int
_Outcome = Literal["lost", "cashed_out", "voided"]

@final
class SeedPair:
    """The operator's state of one player's seed pair: a secret server seed with its public commitment,
    the player's client seed, the nonce of the next round and the rounds still in play.

    ``SeedPair(client_seed)`` draws a fresh server seed from the OS CSPRNG; ``SeedPair.from_parts``
    restores one from its parts. The repr never shows the server seed; ``to_state_json()`` (for the
    operator's storage) does. Safe to share between threads: methods take turns, and rounds started
    from several threads at once get distinct nonces.

    The server seed is revealed only when no round can move: ``rotate`` and ``set_client_seed`` raise
    ``RoundsInPlayError`` while a round started from the pair is in play (``open_rounds()``). Finish
    those rounds, or end them with ``void_open_rounds()``: a voided round refuses every later move
    (``RoundVoidedError``) and its record's outcome is ``"voided"``.

    The state (``to_state_json()``) holds every round in play with its picks, and each move changes it:
    store it after every move. After a restart, ``SeedPair.from_state_json(stored).round(nonce)`` goes
    on with each round in play exactly where it was.
    """

    def __new__(cls, client_seed: str) -> SeedPair: ...
    @staticmethod
    def from_parts(server_seed: str | ServerSeed, client_seed: str, nonce: _Number | None = None) -> SeedPair:
        """A pair from parts the operator already has: the server seed (a ``ServerSeed`` or its 64
        lowercase hex characters), the client seed and the nonce of the next round.
        """
    @staticmethod
    def from_state_json(state: str) -> SeedPair:
        """Restores a pair from ``to_state_json()``; each round in play comes back with ``round(nonce)``.
        ``InvalidStateError`` (argument ``state``, the message naming the field) when the text does not
        parse or does not hold together (the commitment is not the seed's, an unknown field, a round at a
        nonce not below ``nonce`` or listed twice, picks repeated, off the board or on a mine); nothing is
        restored then.

        States written before rounds were saved whole (``"open_rounds": [nonces]``) restore too, but
        their rounds can only be voided. The restored pair does not reach the rounds of the pair the
        state was saved from, so keep one live copy of a seed pair (restore after a restart, not beside
        the original).
        """
    @property
    def public_part(self) -> PublicSeedPair:
        """What the player may see now: the commitment, the client seed and the nonce of the next round."""
    def start_round(self, mines: _Number, rtp: _ExactNumber) -> Round:
        """Starts a round with the current nonce, then increments the nonce. The grid is fixed now.

        ``mines`` is 1..24; ``rtp`` the return-to-player factor in (0, 1] as ``str`` (``"0.99"``,
        ``"99/100"``), ``Fraction``, ``Decimal`` or ``int`` — not ``float``.
        """
    def round(self, nonce: _Number) -> Round:
        """The round in play at ``nonce``, to go on with after a restart: a pair restored with
        ``from_state_json`` gives back each of its rounds, and every later move, record and payout is the
        same as if the process had never stopped.

        ``RoundNotInPlayError`` (argument ``nonce``) when no round at ``nonce`` is in play (never
        started, finished or voided), when it was restored from a state that kept only its nonce (it can
        only be voided), or when this pair has handed it out already and that ``Round`` is still alive.
        """
    def open_rounds(self) -> list[int]:
        """The nonces of the rounds in play, ascending: started from this pair and neither finished nor
        voided (including those held by the state the pair was restored from).
        """
    def void_open_rounds(self) -> list[int]:
        """Voids every round in play and returns their nonces, ascending. A voided round refuses every
        later move (``RoundVoidedError``) and its record's outcome is ``"voided"``, with no multiplier
        (the stake is returned). Afterwards the pair can rotate.
        """
    def rotate(self, client_seed: str | None = None) -> RevealedSeedPair:
        """Ends this pair and starts a new one (fresh server seed, new commitment, nonce 0), with a new
        client seed if one is given. Returns the old pair, whose server seed may now be published.

        Raises ``RoundsInPlayError`` (and changes nothing) while a round of the pair is in play: finish
        the rounds, or ``void_open_rounds()`` first.
        """
    def set_client_seed(self, client_seed: str) -> RevealedSeedPair:
        """A new client seed always starts a new pair, revealing the old server seed: the same as
        ``rotate(client_seed)``, and refused the same way (``RoundsInPlayError``) while a round is in play.
        """
    def to_state_json(self) -> str:
        """The full state as JSON, for the operator's own storage: the secret server seed, its commitment,
        the client seed, the next nonce and every round in play with its mines, RTP and picks so far.

        A move changes it at once: store it after every start, reveal, cash-out, void and rotation, where
        only the service can read it (it holds the server seed: encrypt it or keep it in a private
        store). ``from_state_json`` and ``round(nonce)`` go on from there after a restart.
        """
    def __reduce__(self) -> NoReturn: ...

@final
class Round:
    """One round in play. The grid is fixed when the round starts; each pick is checked against it.

    Made by ``SeedPair.start_round``, or by ``SeedPair.round(nonce)`` to go on with one after a restart
    (each move is written into the pair's state at once). ``mine_positions`` is None until the round
    has finished (or was voided by its seed pair, ``SeedPair.void_open_rounds``). Safe to share between
    threads: a move (``reveal``, ``cash_out``) made while another thread is moving waits for it, as
    reading does.
    """

    def reveal(self, tile: _Number) -> Reveal:
        """Reveals ``tile`` (1..25). Returns a ``Reveal``: safe (with the multiplier now reached) or a
        mine (the round is lost). Raises ``InvalidTileError``, ``TileAlreadyRevealedError``,
        ``RoundFinishedError`` or ``RoundVoidedError``.
        """
    def cash_out(self) -> Fraction:
        """Ends the round and returns the multiplier to pay (exact). Needs at least one safe pick
        (``NothingToCashOutError``); ``RoundFinishedError`` once the round has ended, ``RoundVoidedError``
        once its seed pair voided it.
        """
    def record(self) -> RoundRecord | None:
        """The public record, once the round has finished (or was voided); None while it is in play."""
    @property
    def mine_positions(self) -> tuple[int, ...] | None:
        """The mine positions (sorted, 1-based) once the round has finished; None while it is in play."""
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
        """``"lost"``, ``"cashed_out"`` or ``"voided"`` once the round has ended; None while it is in play."""
    @property
    def safe_picks(self) -> int:
        """Safe tiles revealed so far."""
    @property
    def multiplier(self) -> Fraction | None:
        """What a cash-out pays now (or paid), exact; None before the first safe pick, after a mine and once
        voided.
        """
    @property
    def commitment(self) -> str:
        """The commitment of the seed pair the round was played with (lowercase hex)."""
    @property
    def client_seed(self) -> str:
        """The client seed."""
    @property
    def rtp(self) -> Fraction:
        """The return-to-player factor of the multipliers, exact."""

@final
class Reveal:
    """What ``Round.reveal`` found: a safe tile (with the multiplier a cash-out would now pay) or a mine."""

    @property
    def tile(self) -> int:
        """The tile revealed (1-based)."""
    @property
    def safe(self) -> bool:
        """True for a safe tile, False for a mine (the round is then lost)."""
    @property
    def safe_picks(self) -> int:
        """Safe tiles revealed in the round so far."""
    @property
    def multiplier(self) -> Fraction | None:
        """What a cash-out pays now (exact; paid, when the last safe tile finished the round), or None
        after a mine.
        """
    @property
    def finished(self) -> bool:
        """Whether the round has now ended: a mine, or the last safe tile (which pays out)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class RoundRecord:
    """The public record of a finished round, as the operator publishes it; ``verify_round`` replays it.

    ``Round.record()`` makes one; so do ``RoundRecord.from_json`` and the constructor, for a player
    checking what an operator published. ``rtp`` and ``multiplier`` are exact (``Fraction``; given as
    ``str``, ``Fraction``, ``Decimal`` or ``int``), ``outcome`` is ``"lost"``, ``"cashed_out"`` or
    ``"voided"``.
    """

    def __new__(
        cls,
        commitment: str,
        client_seed: str,
        nonce: _Number,
        mines: _Number,
        rtp: _ExactNumber,
        picks: Iterable[_Number],
        outcome: _Outcome,
        multiplier: _ExactNumber | None = None,
    ) -> RoundRecord: ...
    @staticmethod
    def from_json(json: str) -> RoundRecord:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``record``) when it does not."""
    def to_json(self) -> str:
        """As JSON, the form operators publish: ratios as ``"num/den"`` strings, outcome
        ``"lost"``/``"cashed_out"``/``"voided"``, multiplier null when lost or voided.
        """
    @property
    def commitment(self) -> str:
        """The commitment of the seed pair, shown before play (lowercase hex)."""
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
        """The return-to-player factor the multipliers were computed with, exact."""
    @property
    def picks(self) -> tuple[int, ...]:
        """The tiles picked, in order (1-based)."""
    @property
    def outcome(self) -> _Outcome:
        """``"lost"``, ``"cashed_out"`` or ``"voided"``."""
    @property
    def multiplier(self) -> Fraction | None:
        """The multiplier paid (exact), None when lost or voided."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], RoundRecord], tuple[str]]: ...

def verify_round(record: RoundRecord, server_seed: str) -> RoundVerification:
    """Replays a finished round from its record and the server seed revealed after rotation.

    Returns a ``RoundVerification`` that says what differs, if anything does. A voided record holds
    when its picks are all safe and leave a safe tile unopened; it pays nothing. Raises only for a
    record that cannot describe a round (``InvalidMinesError``, ``InvalidTileError`` for its picks).
    """

@final
class RoundVerification:
    """The result of ``verify_round``: the replay of the record, and each way the record differs from it.

    True (``bool(v)``, ``v.ok``) when the record is exactly what the seeds and picks give.
    """

    @property
    def ok(self) -> bool:
        """True when the record is exactly what the seeds and picks give (no differences)."""
    @property
    def commitment_ok(self) -> bool:
        """Whether SHA3-256 of the revealed server seed is the record's commitment."""
    @property
    def mine_positions(self) -> tuple[int, ...]:
        """Where the mines were (sorted, 1-based)."""
    @property
    def expected_outcome(self) -> _Outcome:
        """The outcome the picks lead to: ``"lost"``, ``"cashed_out"``, or ``"voided"`` for a voided
        record whose picks are all safe and leave a safe tile unopened.
        """
    @property
    def expected_multiplier(self) -> Fraction | None:
        """The multiplier the picks lead to (exact), None when lost or voided."""
    @property
    def differences(self) -> tuple[str, ...]:
        """Each way the record differs from the replay, in words (each starts with the field); empty when
        it holds.
        """
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class PublicSeedPair:
    """What the player sees of an active seed pair: the commitment, the client seed and the nonce of the
    next round.
    """

    def __new__(cls, commitment: str, client_seed: str, nonce: _Number) -> PublicSeedPair: ...
    @staticmethod
    def from_json(json: str) -> PublicSeedPair:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``public``) when it does not."""
    def to_json(self) -> str:
        """As JSON: ``{"commitment": hex, "client_seed": ..., "nonce": n}``."""
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
    def __reduce__(self) -> tuple[Callable[[str], PublicSeedPair], tuple[str]]: ...

@final
class RevealedSeedPair:
    """A seed pair that has been rotated out: its server seed may now be published, and every round it
    played (nonces ``0 .. rounds``) can be checked with ``verify_round``.

    The repr does not show the server seed (``.server_seed`` and ``to_json()`` do), so that logs do
    not carry seeds, revealed or not.
    """

    def __new__(cls, server_seed: str, commitment: str, client_seed: str, rounds: _Number) -> RevealedSeedPair: ...
    @staticmethod
    def from_json(json: str) -> RevealedSeedPair:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``revealed``) when it does not."""
    def to_json(self) -> str:
        """As JSON: ``{"server_seed": ..., "commitment": hex, "client_seed": ..., "rounds": n}``."""
    @property
    def server_seed(self) -> str:
        """The server seed, now public."""
    @property
    def commitment(self) -> str:
        """Its commitment, as shown before play (lowercase hex)."""
    @property
    def client_seed(self) -> str:
        """The client seed it was used with."""
    @property
    def rounds(self) -> int:
        """How many rounds it played (nonces ``0 .. rounds``)."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], RevealedSeedPair], tuple[str]]: ...

@final
class TableEntry:
    """One entry of ``payout_table``: the exact multiplier after ``safe_picks`` safe picks with ``mines``."""

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

def multiplier(mines: _Number, safe_picks: _Number, rtp: _ExactNumber) -> Fraction:
    """The multiplier after ``safe_picks`` safe picks with ``mines`` mines: C(25, k) / C(25 - m, k) x rtp,
    exact (a ``Fraction``). ``safe_picks`` is 1..25 - mines (``InvalidPicksError``).
    """

def payout_table(rtp: _ExactNumber) -> list[TableEntry]:
    """The whole table: every mine count 1..24 and every number of safe picks 1..25 - mines, in that order."""

def max_safe_picks(mines: _Number) -> int:
    """The most safe picks a round with ``mines`` mines allows: 25 - mines."""

# --- whole histories (fairmines-history): for fairmines/_history.py, which types and documents them --------

_FailureKind = Literal[
    "malformed", "commitment", "positions", "duplicate_nonce", "nonce_gap", "play", "nonce_past_end"
]
_Progress = Callable[[int, int], object]

def _verify_history(
    history: object,
    /,
    *,
    format: str | None = None,
    threads: SupportsIndex | None = None,
    progress: _Progress | None = None,
    columns: Mapping[str, str] | None = None,
    delimiter: str | None = None,
    max_failures: int | None = None,
    revealed: Iterable[RevealedSeedPair] | None = None,
    multiplier_form: Literal["exact", "displayed"] | None = None,
) -> _Report:
    """``fairmines.verify_history`` (python/fairmines/_history.py) without its conversions: the crate's report."""

def _audit(
    history: object = None,
    /,
    *,
    server_seed: str | None = None,
    client_seed: str | None = None,
    nonces: range | None = None,
    mines: _Number | Iterable[_Number] | None = None,
    format: str | None = None,
    threads: SupportsIndex | None = None,
    progress: _Progress | None = None,
    columns: Mapping[str, str] | None = None,
    delimiter: str | None = None,
) -> _AuditCounts:
    """``fairmines.audit`` (python/fairmines/_history.py) without its conversions: the crate's counts."""

# The state behind ``fairmines.HistoryReport`` and ``fairmines.AuditReport`` (_reports.py), which show it.

@final
class _Report:
    """The history crate's report of ``verify_history``, behind ``fairmines.HistoryReport``."""

    kinds: ClassVar[list[_FailureKind]]
    def __new__(cls) -> _Report: ...
    @staticmethod
    def from_json(json: str) -> _Report:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not."""
    def to_json(self) -> str:
        """The report as JSON (summary, failures, and each seed pair's nonces for ``merge``)."""
    def merge(self, other: _Report) -> _Report:
        """The report of this part and ``other`` together."""
    def __len__(self) -> int: ...
    @property
    def ok(self) -> bool:
        """Whether the history checks out."""
    def summary_text(self) -> str:
        """The counts in one line of words (the core's ``Summary::text``)."""
    def summary(self) -> str:
        """The summary as JSON."""
    def failures(self) -> list[dict[str, Any]]:
        """Every failure, as a dict of its fields."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@final
class _AuditCounts:
    """The history crate's counts of ``audit``, behind ``fairmines.AuditReport``."""

    def __new__(cls) -> _AuditCounts: ...
    @staticmethod
    def from_json(json: str) -> _AuditCounts:
        """Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``json``) when it does not."""
    def to_json(self) -> str:
        """The counts as JSON."""
    def merge(self, other: _AuditCounts) -> _AuditCounts:
        """These counts and ``other``'s added up."""
    def report(self) -> str:
        """The tests over the counts (the crate's ``AuditReport``), as JSON."""
    def only(self, mines: _Number) -> _AuditCounts:
        """The counts of one mine count only (for its heatmap)."""
    def heatmap_text(self) -> str:
        """The heatmap as text."""
    def heatmap_svg(self, title: str | None = None) -> str:
        """The heatmap as SVG."""
    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
