"""Python client for ``pab serve``: sessions, decisions, two-step proposals, rulings and the audit log.

Standard library only. See :class:`PabClient`.
"""

from .client import PabClient, PabSession
from .errors import PabError, PabProtocolError, PabServerError, PabUnreachableError
from .types import DecideResult, Decision, Gap, ProposeResult, Recovery, RecoveryStep, Reservation, Ruling

__all__ = [
    "PabClient",
    "PabSession",
    "PabError",
    "PabServerError",
    "PabUnreachableError",
    "PabProtocolError",
    "Decision",
    "DecideResult",
    "Gap",
    "ProposeResult",
    "Recovery",
    "RecoveryStep",
    "Reservation",
    "Ruling",
]
