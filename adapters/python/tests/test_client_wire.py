"""The client against a server that misbehaves on purpose: every failure becomes a coded error."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pab_agentdojo.serve_process import free_port
from pab_client import PabClient, PabProtocolError, PabServerError, PabSession, PabUnreachableError

ANSWERS = {
    "/v1/health": (200, b'{"ok": true, "version": "x"}'),
    "/v1/sessions": (201, b'{"session": "s_1", "token": "pst_1"}'),
    "/v1/sessions/s_1/decide": (
        400,
        b'{"error": {"code": "ERR_REQUEST_INVALID", "message": "Cannot read the request: \\"tool\\" must be a string"}}',
    ),
    "/v1/sessions/s_1/plan": (200, b"<html>not json</html>"),
    "/v1/sessions/s_1/propose": (502, b"Bad gateway"),
    "/v1/sessions/s_1/messages": (200, b"[1, 2]"),
}


@pytest.fixture(scope="module")
def crafted():
    seen = []
    sent = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _answer(self):
            length = int(self.headers.get("content-length") or 0)
            seen.append((self.command, self.path, self.headers.get("authorization"), self.rfile.read(length)))
            sent.append((self.headers.get("content-type"), self.headers.get("pab-session-token")))
            status, body = ANSWERS.get(self.path, (404, b'{"error": {"code": "ERR_NOT_FOUND", "message": "no"}}'))
            self.send_response(status)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_DELETE = _answer

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen, sent
    server.shutdown()
    server.server_close()


def test_pab_client_rejects_bad_options_when_made():
    with pytest.raises(ValueError, match='Cannot use pab server URL "localhost:8787": expected http://HOST:PORT'):
        PabClient("localhost:8787")
    with pytest.raises(ValueError, match="Cannot use timeout 0"):
        PabClient("http://localhost:1", timeout=0)


def test_pab_client_sends_json_and_the_token(crafted):
    url, seen, sent = crafted
    client = PabClient(url, token="secret-token-123")
    assert client.health()["version"] == "x"
    session = client.create_session()
    assert (session.id, session.token) == ("s_1", "pst_1")
    method, path, auth, body = seen[-1]
    assert (method, path, auth, json.loads(body)) == ("POST", "/v1/sessions", "Bearer secret-token-123", {})
    assert sent[-1][0] == "application/json"
    # Every call on the session carries its token, and a POST always declares JSON.
    with pytest.raises(PabProtocolError):
        session.user("hello")
    assert seen[-1][:2] == ("POST", "/v1/sessions/s_1/messages") and sent[-1] == ("application/json", "pst_1")
    with pytest.raises(PabServerError):
        session.delete()
    assert seen[-1][:2] == ("DELETE", "/v1/sessions/s_1") and sent[-1] == (None, "pst_1")


def test_pab_session_keeps_the_servers_code_and_status(crafted):
    url, *_ = crafted
    with pytest.raises(PabServerError) as caught:
        PabClient(url).create_session().decide("send_money", {})
    assert (caught.value.code, caught.value.status) == ("ERR_REQUEST_INVALID", 400)
    assert caught.value.message == 'Cannot read the request: "tool" must be a string'


def test_pab_session_turns_answers_off_the_contract_into_protocol_errors(crafted):
    url, *_ = crafted
    session = PabClient(url).create_session()
    with pytest.raises(PabProtocolError, match=r"Cannot read the answer to POST /v1/sessions/s_1/plan: not JSON"):
        session.plan("x", {})
    with pytest.raises(PabProtocolError, match=r"status 502 without a coded error"):
        session.propose("x", {})
    with pytest.raises(PabProtocolError, match=r"Cannot read the answer to messages: expected an object, got \[1, 2\]"):
        session.user("hello")


def test_pab_session_quotes_the_session_id_into_the_path(crafted):
    url, seen, _ = crafted
    with pytest.raises(PabServerError) as caught:
        PabSession(PabClient(url), "../x y", "pst_x").user("hi")
    assert caught.value.code == "ERR_NOT_FOUND"
    assert seen[-1][1] == "/v1/sessions/..%2Fx%20y/messages"


def test_pab_client_says_when_nothing_listens():
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(PabUnreachableError) as caught:
        PabClient(url, timeout=2).health()
    assert caught.value.code == "ERR_PAB_UNREACHABLE"
    assert caught.value.message.startswith(f"Cannot reach pab at {url} for GET /v1/health: ")
