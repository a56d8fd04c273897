"""Provably fair Mines (Cloudbet): commitments, round signatures, mine placement, verification, and the
game itself (seed pairs, rounds, exact payouts, round replay).

Every function is implemented in Rust (the ``fairmines`` crate) and re-exported here from the
extension module ``fairmines._native`` (``verify_history`` and ``audit`` convert their inputs in
``fairmines._history``, and their reports are shown by the classes of ``fairmines._reports``)::

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

from ._history import *  # noqa: F403
from ._native import *  # noqa: F403
from ._native import __all__ as __all__  # the extension's own list of its names (type checkers read it too)
from ._reports import *  # noqa: F403

# A list of its own (the extension's stays as it is): the extension's names, then _reports.__all__ and
# _history.__all__ (as literals, which is what type checkers read; tests/test_package.py checks that they
# agree).
__all__ = [
    *__all__,
    "AuditReport", "ChiSquare", "Failure", "HistoryReport", "HistorySummary", "MineAudit", "PValue",
    "HitRate", "PayoutAudit", "PayoutGroup", "TileDeviation", "Verdict",
    "audit", "verify_history",
]  # fmt: skip
