"""Typed views of what ``pab serve`` sends back: decisions, rulings, reservations and propose results.

Each ``from_json`` checks the fields the client relies on and raises
:class:`~pab_client.errors.PabProtocolError` when one is missing or of the
wrong type, so a malformed answer never reads as an allowed call. Fields the
client does not model stay available in ``raw``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, cast

from .errors import PabProtocolError

__all__ = [
    "Outcome",
    "ProposeStatus",
    "Gap",
    "RecoveryStep",
    "Recovery",
    "Decision",
    "DecideResult",
    "Reservation",
    "ProposeResult",
    "Ruling",
]

Outcome = Literal["allow", "confirm", "block"]
ProposeStatus = Literal["reserved", "blocked", "needs_accept"]

_OUTCOMES = ("allow", "confirm", "block")
_STATUSES = ("reserved", "blocked", "needs_accept")


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise PabProtocolError(f"Cannot read {where}: expected an object, got {type(value).__name__}")
    return cast(Mapping[str, Any], value)


def _text(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise PabProtocolError(f'Cannot read {where}: "{key}" must be a string, got {type(value).__name__}')
    return value


def _optional_text(data: Mapping[str, Any], key: str, where: str) -> str | None:
    return None if data.get(key) is None else _text(data, key, where)


def _texts(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise PabProtocolError(f'Cannot read {where}: "{key}" must be a list of strings')
    return tuple(value)


def _list(data: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise PabProtocolError(f'Cannot read {where}: "{key}" must be a list, got {type(value).__name__}')
    return value


@dataclass(frozen=True)
class Gap:
    """One reason a call is not allowed outright."""

    code: str
    severity: str
    message: str
    argument: str | None = None
    value: str | None = None
    sources: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, value: Any) -> Gap:
        data = _object(value, "a gap")
        return cls(
            code=_text(data, "code", "a gap"),
            severity=_text(data, "severity", "a gap"),
            message=_text(data, "message", "a gap"),
            argument=_optional_text(data, "argument", "a gap"),
            value=_optional_text(data, "value", "a gap"),
            sources=_texts(data, "sources", "a gap"),
        )


@dataclass(frozen=True)
class RecoveryStep:
    """One step of a way to yes: ``ruling`` (ask ``approver``), ``run`` a prerequisite, ``accept`` or ``fork``."""

    kind: str
    raw: Mapping[str, Any]

    @property
    def approver(self) -> str | None:
        """For a ``ruling`` step: who is asked (``user`` for the user's confirmation)."""
        value = self.raw.get("approver")
        return value if isinstance(value, str) else None

    @classmethod
    def from_json(cls, value: Any) -> RecoveryStep:
        data = _object(value, "a recovery step")
        return cls(kind=_text(data, "kind", "a recovery step"), raw=dict(data))


@dataclass(frozen=True)
class Recovery:
    """The way to yes: its steps when ``found``, otherwise the ``reason`` there is none."""

    found: bool
    steps: tuple[RecoveryStep, ...] = ()
    reason: str | None = None

    @classmethod
    def from_json(cls, value: Any) -> Recovery:
        data = _object(value, "a recovery")
        found = data.get("found")
        if not isinstance(found, bool):
            raise PabProtocolError('Cannot read a recovery: "found" must be a boolean')
        steps = tuple(RecoveryStep.from_json(step) for step in _list(data, "steps", "a recovery"))
        return cls(found=found, steps=steps, reason=_optional_text(data, "reason", "a recovery"))


@dataclass(frozen=True)
class Decision:
    """pab's verdict on one exact call (plain data, as the server sent it)."""

    tool: str
    args: Mapping[str, Any]
    fingerprint: str
    outcome: Outcome
    gaps: tuple[Gap, ...]
    recovery: Recovery | None
    raw: Mapping[str, Any] = field(repr=False)

    @property
    def allowed(self) -> bool:
        """Whether the call may run as it is."""
        return self.outcome == "allow"

    @classmethod
    def from_json(cls, value: Any) -> Decision:
        data = _object(value, "a decision")
        outcome = data.get("outcome")
        if outcome not in _OUTCOMES:
            raise PabProtocolError(
                f'Cannot read a decision: "outcome" must be one of {list(_OUTCOMES)}, got {outcome!r}'
            )
        args = data.get("args", {})
        if not isinstance(args, dict):
            raise PabProtocolError('Cannot read a decision: "args" must be an object')
        recovery = data.get("recovery")
        return cls(
            tool=_text(data, "tool", "a decision"),
            args=args,
            fingerprint=_text(data, "fingerprint", "a decision"),
            outcome=cast(Outcome, outcome),
            gaps=tuple(Gap.from_json(gap) for gap in _list(data, "gaps", "a decision")),
            recovery=None if recovery is None else Recovery.from_json(recovery),
            raw=dict(data),
        )


@dataclass(frozen=True)
class DecideResult:
    """The answer to ``decide``: the decision and pab's own rendering of it."""

    decision: Decision
    explanation: str
    shown: str | None = None
    """The digest of what this decision showed: pass it to ``request_ruling("user", ..., shown=...)``."""

    @classmethod
    def from_json(cls, value: Any) -> DecideResult:
        data = _object(value, "a decide answer")
        return cls(
            Decision.from_json(data.get("decision")),
            _text(data, "explanation", "a decide answer"),
            _optional_text(data, "shown", "a decide answer"),
        )


@dataclass(frozen=True)
class Reservation:
    """A reserved call: the caller runs the tool, then commits its output with ``id``."""

    id: str
    raw: Mapping[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, value: Any) -> Reservation:
        data = _object(value, "a reservation")
        return cls(id=_text(data, "id", "a reservation"), raw=dict(data))


@dataclass(frozen=True)
class ProposeResult:
    """The answer to ``propose``. Only ``reserved`` lets the caller run the tool."""

    status: ProposeStatus
    decision: Decision
    explanation: str
    reservation: Reservation | None
    options: tuple[RecoveryStep, ...] = ()
    shown: str | None = None
    """The digest of what this decision showed: pass it to ``request_ruling("user", ..., shown=...)``."""

    @classmethod
    def from_json(cls, value: Any) -> ProposeResult:
        data = _object(value, "a propose answer")
        status = data.get("status")
        if status not in _STATUSES:
            raise PabProtocolError(
                f'Cannot read a propose answer: "status" must be one of {list(_STATUSES)}, got {status!r}'
            )
        reservation = data.get("reservation")
        if status == "reserved" and reservation is None:
            raise PabProtocolError('Cannot read a propose answer: status "reserved" comes without a "reservation"')
        return cls(
            status=cast(ProposeStatus, status),
            decision=Decision.from_json(data.get("decision")),
            explanation=_text(data, "explanation", "a propose answer"),
            reservation=None if reservation is None else Reservation.from_json(reservation),
            options=tuple(RecoveryStep.from_json(step) for step in _list(data, "options", "a propose answer")),
            shown=_optional_text(data, "shown", "a propose answer"),
        )


@dataclass(frozen=True)
class Ruling:
    """An approver's ruling on one exact call; pass its ``id`` to ``propose(rulings=...)``."""

    id: str
    approver: str | None
    tool: str | None
    raw: Mapping[str, Any] = field(repr=False)

    @classmethod
    def from_json(cls, value: Any) -> Ruling:
        data = _object(value, "a ruling")
        return cls(
            id=_text(data, "id", "a ruling"),
            approver=_optional_text(data, "approver", "a ruling"),
            tool=_optional_text(data, "tool", "a ruling"),
            raw=dict(data),
        )
