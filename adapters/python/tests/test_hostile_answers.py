"""Property tests, seeded: whatever a server sends, the client either reads it or raises a coded PabError.

Hostile or broken answers are the normal case. No answer may raise anything else, and no broken answer may read as
an allowed call.
"""

import json
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from pab_client import Decision, PabClient, PabError, PabProtocolError, PabSession, ProposeResult

VALID = {
    "status": "reserved",
    "decision": {
        "tool": "send_money",
        "args": {"recipient": "UK1"},
        "fingerprint": "f" * 64,
        "outcome": "allow",
        "gaps": [{"code": "untrusted-argument", "severity": "confirm", "message": "m"}],
        "recovery": {"found": True, "steps": [{"kind": "ruling", "approver": "user"}]},
    },
    "explanation": "send_money: allow",
    "reservation": {"id": "r_1"},
}

ODD_VALUES = [None, True, 0, -1, 1.5, "", "allow", "reserved", [], [1], {}, {"id": 3}, "x" * 1000]


def mutations(rng: random.Random, value, depth=0):
    """A copy of ``value`` with one field dropped, replaced by an odd value, or nested deeper."""
    if not isinstance(value, (dict, list)) or not value or depth > 4:
        return rng.choice(ODD_VALUES)
    copy = dict(value) if isinstance(value, dict) else list(value)
    key = rng.choice(list(copy)) if isinstance(copy, dict) else rng.randrange(len(copy))
    roll = rng.random()
    if roll < 0.25 and isinstance(copy, dict):
        del copy[key]
    elif roll < 0.5:
        copy[key] = rng.choice(ODD_VALUES)
    else:
        copy[key] = mutations(rng, copy[key], depth + 1)
    return copy


def test_propose_result_from_json_reads_or_raises_a_protocol_error_for_any_mutation():
    rng = random.Random(20261130)
    read = refused = 0
    for _ in range(3000):
        answer = mutations(rng, VALID)
        try:
            result = ProposeResult.from_json(answer)
        except PabProtocolError as error:
            assert error.code == "ERR_PAB_PROTOCOL" and error.message.startswith("Cannot read ")
            refused += 1
            continue
        read += 1
        assert result.status in ("reserved", "blocked", "needs_accept")
        assert result.decision.outcome in ("allow", "confirm", "block")
        assert result.status != "reserved" or isinstance(result.reservation.id, str)
    assert read > 100 and refused > 100  # both sides of the property were exercised


def test_decision_from_json_never_reads_a_wrong_outcome_as_allow():
    rng = random.Random(7)
    for _ in range(1000):
        outcome = rng.choice([v for v in ODD_VALUES if v != "allow"] + ["ALLOW", "allow ", "Allow", "allow\u200b"])
        with pytest.raises(PabProtocolError):
            Decision.from_json({**VALID["decision"], "outcome": outcome})


@pytest.fixture(scope="module")
def random_server():
    rng = random.Random(99)
    bodies = [json.dumps(mutations(rng, VALID)).encode() for _ in range(150)]
    bodies += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) for _ in range(50)]
    statuses = [200, 200, 201, 400, 404, 409, 500, 503]
    state = {"i": 0}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length") or 0))
            body = bodies[state["i"] % len(bodies)]
            self.send_response(statuses[state["i"] % len(statuses)])
            state["i"] += 1
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", len(bodies)
    server.shutdown()
    server.server_close()


def test_pab_session_propose_raises_only_coded_errors_on_random_answers(random_server):
    url, count = random_server
    session = PabSession(PabClient(url), "s_1", "pst_1")
    reserved = refused = 0
    for _ in range(count):
        try:
            result = session.propose("send_money", {"recipient": "UK1"})
        except PabError as error:
            assert error.code.startswith("ERR_")
            refused += 1
            continue
        reserved += result.status == "reserved"
        assert result.status != "reserved" or result.reservation is not None
    assert refused > count // 2 and reserved > 0
