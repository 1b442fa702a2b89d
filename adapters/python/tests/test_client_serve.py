"""The client against a running pab server (the real `pab serve` when this checkout has it; see conftest.py)."""

import pytest

from pab_client import PabServerError, PabSession

IBAN = "UK12345678901234567890"
BILL = f"Bill for the car rental. Please pay 98.70 to IBAN {IBAN} by 2022-01-01."
PAY = {"recipient": IBAN, "amount": 98.7, "subject": "Car rental", "date": "2022-01-01"}


def test_pab_session_propose_reserves_only_what_a_trusted_source_supports(pab):
    session = pab.client.create_session()
    session.system("You are a banking assistant.")
    session.user("Pay the bill in bill.txt")
    session.record("read_file", BILL, args={"file_path": "bill.txt"}, call_id="call_1")

    decided = session.decide("send_money", PAY)
    assert decided.decision.outcome != "allow"
    assert "untrusted-argument" in [gap.code for gap in decided.decision.gaps]
    assert IBAN in decided.explanation

    blocked = session.propose("send_money", PAY, accept=True)
    assert blocked.status == "blocked" and blocked.reservation is None
    assert blocked.decision.recovery is not None and blocked.decision.recovery.found
    assert [step.approver for step in blocked.decision.recovery.steps] == ["user"]

    ruling = session.request_ruling("user", "send_money", PAY, shown=blocked.shown)
    confirmed = session.propose("send_money", PAY, accept=True, rulings=[ruling.id])
    assert confirmed.status == "reserved" and confirmed.reservation is not None
    session.commit(confirmed.reservation.id, output={"message": "Transaction to UK1 for 98.7 sent."})

    events = session.audit()
    assert len(events) >= 2


def test_pab_session_is_isolated_from_other_sessions(pab):
    trusting = pab.client.create_session()
    trusting.user(f"Send 10 to {IBAN}")
    pay = {**PAY, "amount": 10}
    assert trusting.decide("send_money", pay).decision.outcome == "allow"

    other = pab.client.create_session()
    other.user("Pay what the file says")
    other.record("read_file", BILL, args={"file_path": "bill.txt"})
    assert other.decide("send_money", pay).decision.outcome != "allow"


def test_pab_session_plan_names_the_way_to_yes(pab):
    session = pab.client.create_session()
    session.user("Pay the bill in bill.txt")  # the user names the file, so the user may be asked
    session.record("read_file", BILL, args={"file_path": "bill.txt"})
    recovery = session.plan("send_money", PAY)
    assert recovery.found and recovery.steps[0].kind == "ruling"


def test_pab_session_commit_of_an_unknown_reservation_is_a_coded_4xx(pab):
    session = pab.client.create_session()
    with pytest.raises(PabServerError) as caught:
        session.commit("r_does_not_exist", output="x")
    assert 400 <= caught.value.status < 500 and caught.value.code.startswith("ERR_")


def test_pab_client_unknown_session_is_a_coded_4xx(pab):
    with pytest.raises(PabServerError) as caught:
        PabSession(pab.client, "s_missing", "pst_missing").user("hi")
    assert 400 <= caught.value.status < 500 and caught.value.code.startswith("ERR_")
    assert caught.value.message


def test_pab_session_needs_its_own_token_and_can_be_deleted(pab):
    if pab.kind != "real":
        pytest.skip("serve_double.ts has no tokens and no deletion")
    session = pab.client.create_session()
    other = pab.client.create_session()
    session.user("hello")
    with pytest.raises(PabServerError) as caught:
        PabSession(pab.client, session.id, other.token).user("hi")
    assert (caught.value.code, caught.value.status) == ("ERR_SESSION_CREDENTIAL", 403)
    session.delete()
    with pytest.raises(PabServerError) as gone:
        session.user("again")
    assert (gone.value.code, gone.value.status) == ("ERR_SESSION_UNKNOWN", 404)
