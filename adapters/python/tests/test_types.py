"""The typed views reject answers that do not follow the contract, so a malformed answer never reads as a yes."""

import pytest

from pab_client import Decision, PabProtocolError, ProposeResult, Ruling

DECISION = {
    "tool": "send_money",
    "args": {"recipient": "UK1"},
    "fingerprint": "f" * 64,
    "outcome": "confirm",
    "gaps": [{"code": "untrusted-argument", "severity": "confirm", "message": "m", "sources": ["tool:read_file"]}],
    "recovery": {"found": True, "steps": [{"kind": "ruling", "approver": "user", "covers": ["untrusted-argument"]}]},
    "notes": [],
}


def test_decision_from_json_reads_outcome_gaps_and_recovery():
    decision = Decision.from_json(DECISION)
    assert decision.outcome == "confirm" and not decision.allowed
    assert decision.gaps[0].code == "untrusted-argument" and decision.gaps[0].sources == ("tool:read_file",)
    assert decision.recovery is not None and decision.recovery.steps[0].approver == "user"
    assert decision.raw["notes"] == []


@pytest.mark.parametrize(
    "broken, message",
    [
        ({**DECISION, "outcome": "yes"}, "\"outcome\" must be one of ['allow', 'confirm', 'block'], got 'yes'"),
        ({**DECISION, "outcome": None}, "\"outcome\" must be one of"),
        ({k: v for k, v in DECISION.items() if k != "fingerprint"}, '"fingerprint" must be a string, got NoneType'),
        ({**DECISION, "gaps": "none"}, '"gaps" must be a list, got str'),
        ({**DECISION, "gaps": [{"code": 1}]}, '"code" must be a string, got int'),
        ({**DECISION, "args": []}, '"args" must be an object'),
        ({**DECISION, "recovery": {"steps": []}}, '"found" must be a boolean'),
        ([DECISION], "expected an object, got list"),
    ],
)
def test_decision_from_json_rejects_every_malformed_field(broken, message):
    with pytest.raises(PabProtocolError) as caught:
        Decision.from_json(broken)
    assert caught.value.code == "ERR_PAB_PROTOCOL"
    assert message in caught.value.message
    assert caught.value.message.startswith("Cannot read ")


def test_propose_result_from_json_refuses_reserved_without_reservation():
    with pytest.raises(PabProtocolError) as caught:
        ProposeResult.from_json({"status": "reserved", "decision": {**DECISION, "outcome": "allow"}, "explanation": ""})
    assert caught.value.code == "ERR_PAB_PROTOCOL"
    assert caught.value.message == 'Cannot read a propose answer: status "reserved" comes without a "reservation"'


def test_propose_result_from_json_rejects_unknown_status():
    with pytest.raises(PabProtocolError, match="\"status\" must be one of"):
        ProposeResult.from_json({"status": "done", "decision": DECISION, "explanation": ""})


def test_propose_result_from_json_reads_a_reservation():
    result = ProposeResult.from_json(
        {
            "status": "reserved",
            "decision": {**DECISION, "outcome": "allow"},
            "explanation": "ok",
            "reservation": {"id": "r1", "tool": "x"},
        }
    )
    assert result.reservation is not None and result.reservation.id == "r1" and result.reservation.raw["tool"] == "x"


def test_ruling_from_json_needs_an_id():
    assert Ruling.from_json({"id": "user#1", "approver": "user"}).approver == "user"
    with pytest.raises(PabProtocolError, match='"id" must be a string'):
        Ruling.from_json({"approver": "user"})
