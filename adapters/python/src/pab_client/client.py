"""A small client for the ``pab serve`` HTTP JSON API (standard library only).

>>> client = PabClient("http://localhost:8787")      # doctest: +SKIP
>>> session = client.create_session()                 # doctest: +SKIP
>>> session.user("Pay the bill in bill.txt")          # doctest: +SKIP
>>> result = session.propose("send_money", {"recipient": "DE89..."})  # doctest: +SKIP
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Literal, Mapping, Sequence

from .errors import PabProtocolError, PabServerError, PabUnreachableError
from .types import DecideResult, ProposeResult, Recovery, Ruling

__all__ = ["PabClient", "PabSession", "SESSION_TOKEN_HEADER"]

SESSION_TOKEN_HEADER = "pab-session-token"
"""The header that carries a session's token."""

Json = Any


class PabClient:
    """Talks to one ``pab serve``. Bad options are rejected here, not at the first request."""

    def __init__(self, base_url: str, *, token: str | None = None, timeout: float = 30.0) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise ValueError(f'Cannot use pab server URL "{base_url}": expected http://HOST:PORT')
        if not timeout > 0:
            raise ValueError(f"Cannot use timeout {timeout!r}: it must be a positive number of seconds")
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(
        self,
        method: Literal["GET", "POST", "DELETE"],
        path: str,
        body: Json = None,
        *,
        session_token: str | None = None,
    ) -> Json:
        """Send one request and return the decoded JSON answer; raise a coded error otherwise.

        A POST always declares its body ``application/json`` (``pab serve`` refuses any other type);
        ``session_token`` is sent in the ``pab-session-token`` header that every call on a session needs.
        """
        data = None if body is None else json.dumps(body, allow_nan=False).encode("utf-8")
        if method == "POST" and data is None:
            data = b"{}"
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.token is not None:
            headers["authorization"] = f"Bearer {self.token}"
        if session_token is not None:
            headers[SESSION_TOKEN_HEADER] = session_token
        request = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        where = f"{method} {path}"
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return _decode(response.read(), where)
        except urllib.error.HTTPError as error:
            raise _server_error(error, where) from None
        except (urllib.error.URLError, socket.timeout, ConnectionError) as error:
            reason = getattr(error, "reason", error)
            raise PabUnreachableError(f"Cannot reach pab at {self.base_url} for {where}: {reason}") from None

    def health(self) -> Mapping[str, Any]:
        """``GET /v1/health``: ``{"ok": true, "version": ...}``."""
        answer = self.request("GET", "/v1/health")
        if not isinstance(answer, dict) or answer.get("ok") is not True:
            raise PabProtocolError(f"Cannot read the health answer: expected {{\"ok\": true}}, got {answer!r}")
        return answer

    def create_session(self) -> PabSession:
        """``POST /v1/sessions``: a new, isolated session, and the token every later call on it needs."""
        answer = self.request("POST", "/v1/sessions", {})
        if (
            not isinstance(answer, dict)
            or not isinstance(answer.get("session"), str)
            or not isinstance(answer.get("token"), str)
        ):
            raise PabProtocolError(
                f'Cannot read the new session: expected {{"session": "s_...", "token": "pst_..."}}, got {answer!r}'
            )
        return PabSession(self, answer["session"], answer["token"])


class PabSession:
    """One session on the server: what the agent read, and the calls it proposes.

    ``token`` is the session's credential: the server binds the session to it, so keep it secret.
    """

    def __init__(self, client: PabClient, session_id: str, token: str) -> None:
        self.client = client
        self.id = session_id
        self.token = token

    def _path(self, action: str | None = None) -> str:
        base = f"/v1/sessions/{urllib.parse.quote(self.id, safe='')}"
        return base if action is None else f"{base}/{action}"

    def delete(self) -> None:
        """``DELETE /v1/sessions/ID``: end the session (its recorded text goes; its audit chain stays)."""
        self.client.request("DELETE", self._path(), session_token=self.token)

    def _post(self, action: str, body: Json) -> Json:
        answer = self.client.request("POST", self._path(action), body, session_token=self.token)
        if not isinstance(answer, dict):
            raise PabProtocolError(f"Cannot read the answer to {action}: expected an object, got {answer!r}")
        return answer

    def system(self, text: str) -> None:
        """Record a system message (trusted)."""
        self._post("messages", {"role": "system", "content": text})

    def user(self, text: str) -> None:
        """Record a user message (trusted)."""
        self._post("messages", {"role": "user", "content": text})

    def record(
        self,
        tool: str,
        output: Json,
        *,
        args: Mapping[str, Json] | None = None,
        call_id: str | None = None,
        error: str | None = None,
    ) -> None:
        """Record a tool's output (for tools that ran without ``propose``)."""
        body: dict[str, Json] = {"tool": tool, "output": output}
        if args is not None:
            body["args"] = dict(args)
        if call_id is not None:
            body["callId"] = call_id
        if error is not None:
            body["error"] = error
        self._post("results", body)

    def decide(self, tool: str, args: Mapping[str, Json]) -> DecideResult:
        """Ask what pab would say about a call, without reserving anything."""
        return DecideResult.from_json(self._post("decide", {"tool": tool, "args": dict(args)}))

    def propose(
        self,
        tool: str,
        args: Mapping[str, Json],
        *,
        accept: bool | None = None,
        rulings: Sequence[str] = (),
    ) -> ProposeResult:
        """Decide and, if allowed, reserve the call. Run the tool only when ``status == "reserved"``."""
        body: dict[str, Json] = {"tool": tool, "args": dict(args)}
        if accept is not None:
            body["accept"] = accept
        if rulings:
            body["rulings"] = list(rulings)
        return ProposeResult.from_json(self._post("propose", body))

    def commit(self, reservation: str, *, output: Json = None, error: str | None = None) -> None:
        """Finish a reserved call with the tool's output, or with the error text it failed with."""
        body: dict[str, Json] = {"reservation": reservation}
        if error is not None:
            body["error"] = error
        else:
            body["output"] = output
        self._post("commit", body)

    def request_ruling(
        self, approver: str, tool: str, args: Mapping[str, Json], *, shown: str | None = None
    ) -> Ruling:
        """Ask ``approver`` (``"user"`` = the user's confirmation) for a ruling on this exact call.

        For the user's confirmation, pass ``shown``: the ``shown`` digest of the decision the user saw (from
        ``decide`` or ``propose``). The server refuses it when the call's gaps or the label changed since.
        """
        body: dict[str, Json] = {"approver": approver, "tool": tool, "args": dict(args)}
        if shown is not None:
            body["shown"] = shown
        answer = self._post("rulings", body)
        return Ruling.from_json(answer.get("ruling"))

    def plan(self, tool: str, args: Mapping[str, Json]) -> Recovery:
        """The way to yes for a call."""
        return Recovery.from_json(self._post("plan", {"tool": tool, "args": dict(args)}).get("recovery"))

    def audit(self) -> list[Json]:
        """The session's audit events, oldest first."""
        answer = self.client.request("GET", self._path("audit"), session_token=self.token)
        if not isinstance(answer, dict) or not isinstance(answer.get("events"), list):
            raise PabProtocolError(f'Cannot read the audit answer: expected {{"events": [...]}}, got {answer!r}')
        return answer["events"]


def _decode(raw: bytes, where: str) -> Json:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise PabProtocolError(f"Cannot read the answer to {where}: not JSON: {error}") from None


def _server_error(error: urllib.error.HTTPError, where: str) -> PabServerError | PabProtocolError:
    try:
        body = json.loads(error.read().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, OSError):
        body = None
    coded = body.get("error") if isinstance(body, dict) else None
    if isinstance(coded, dict) and isinstance(coded.get("code"), str) and isinstance(coded.get("message"), str):
        return PabServerError(coded["code"], coded["message"], error.code)
    return PabProtocolError(f"Cannot read the answer to {where}: status {error.code} without a coded error")
