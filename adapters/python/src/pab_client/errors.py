"""Errors of the pab client. Every error carries a stable ``code``.

Errors the server sends keep the server's own ``code`` (for example
``ERR_SESSION_UNKNOWN``); errors found on this side of the wire have codes of
their own, so a caller can tell the two apart.
"""

from __future__ import annotations

__all__ = ["PabError", "PabServerError", "PabUnreachableError", "PabProtocolError"]


class PabError(Exception):
    """Base class: every pab client error has a ``code`` and a ``message``."""

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"


class PabServerError(PabError):
    """The server answered with a coded error: ``{"error": {"code", "message"}}`` and a 4xx/5xx status."""

    status: int

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(code, message)
        self.status = status


class PabUnreachableError(PabError):
    """The server could not be reached (refused, timed out, closed the connection)."""

    CODE = "ERR_PAB_UNREACHABLE"

    def __init__(self, message: str) -> None:
        super().__init__(self.CODE, message)


class PabProtocolError(PabError):
    """The server answered, but not as the HTTP contract says (not JSON, a field missing or of the wrong type)."""

    CODE = "ERR_PAB_PROTOCOL"

    def __init__(self, message: str) -> None:
        super().__init__(self.CODE, message)
