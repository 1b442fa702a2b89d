/**
 * Quantities the user delegated to a source they pointed at ("pay the bill in 'bill.txt'"): the only quantity in the
 * designated sources passes, directly or as one step from a vouched base; a competing quantity, a party, an
 * identifier, a source the user did not point at, and `confirm_untrusted_from: any` never pass this way
 * (SECURITY.md, "Values the model computed").
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Decision, explainDecision, Guard, parsePolicy } from "../mod.ts";

const POLICY = `version: 1
tools:
  read_file: {output: untrusted, on_tainted: allow}
  read_inbox: {output: untrusted, on_tainted: allow}
  read_ticket: {output: untrusted, on_tainted: allow}
  ledger: {output: trusted, on_tainted: allow}
  pay:
    output: trusted
    on_tainted: pinned
    args:
      amount: {require: trusted, on_violation: confirm}
      recipient: {require: trusted, on_violation: confirm}
      invoice_id: {require: trusted, on_violation: confirm}
`;

function guardFor(extra = ""): Guard {
  return new Guard(parsePolicy(POLICY + extra, { source: "pay.yaml" }));
}

/** A user who names `bill-7.txt` (or not), and the bill's texts read from it (each a designated source if named). */
function billGuard(bills: readonly string[], named = true, extra = ""): Guard {
  const guard = guardFor(extra);
  guard.user(named ? "Please pay the bill 'bill-7.txt' to alice@corp.example" : "Pay my bill to alice@corp.example");
  for (const bill of bills) guard.record("read_file", bill, { args: { file_path: "bill-7.txt" } });
  return guard;
}

const RANK = { allow: 0, confirm: 1, block: 2 } as const;

function amountGaps(decision: Decision) {
  return decision.gaps.filter((gap) => gap.argument === "amount").map((gap) => [gap.code, gap.severity]);
}

/** Amounts with cents, written as a bill writes them (`1,234.50`), none of which is a date. */
const centsArb = fc.integer({ min: 1_000, max: 9_999_999 }).map((cents) => cents / 100);
const written = (value: number) => value.toLocaleString("en-US", { minimumFractionDigits: 2 });

Deno.test("Guard.decide() lets the only amount of a file the user named pass, and says why", () => {
  const guard = billGuard([
    "Bill for the month of December 2023\nIssued 2023-12-01 10:30\nCar Rental\t98.70\nTotal\t98.70\n" +
    "Please transfer to IBAN: UK12345678901234567890",
  ]);
  const decision = guard.decide("pay", { amount: 98.7, recipient: "alice@corp.example" });
  assert.equal(decision.outcome, "allow", explainDecision(decision));
  assert.deepEqual(decision.evidence.find((item) => item.argument === "amount")?.sources, ["tool:read_file"]);
  assert.deepEqual(decision.notes.map((note) => note.code), ["delegated-value"]);
  assert.match(explainDecision(decision), /which the user pointed at, as its only quantity: the user delegated it/);
});

Deno.test("Guard.decide() asks about the only account in a file the user named: a party is never delegated", () => {
  const guard = billGuard(["Total 98.70, to be paid to payee@biller.example"]);
  const decision = guard.decide("pay", { amount: 98.7, recipient: "payee@biller.example" });
  assert.equal(decision.outcome, "confirm");
  assert.deepEqual(decision.gaps.map((gap) => [gap.argument, gap.code, gap.delegation]), [
    ["recipient", "untrusted-argument", "designated"],
  ]);
});

Deno.test("Guard.decide() delegates no identifier, and nothing under confirm_untrusted_from: any", () => {
  const guard = billGuard(["Invoice 48213, total 98.70"]);
  assert.deepEqual(
    guard.decide("pay", { invoice_id: 48213 }).gaps.map((gap) => [gap.argument, gap.severity]),
    [["invoice_id", "confirm"]],
  );
  const v2 = billGuard(["Total 98.70"], true, "default: {confirm_untrusted_from: any}\n");
  assert.deepEqual(amountGaps(v2.decide("pay", { amount: 98.7 })), [["untrusted-argument", "confirm"]]);
});

Deno.test("property: a second quantity in any source the user named makes the amount a question, never a yes", () => {
  fc.assert(
    fc.property(fc.uniqueArray(centsArb, { minLength: 1, maxLength: 5 }), fc.nat(), (amounts, split) => {
      // The amounts spread over one or two reads of the named file.
      const cut = 1 + (split % amounts.length);
      const texts = [amounts.slice(0, cut), amounts.slice(cut)].filter((part) => part.length)
        .map((part) => part.map((value) => `Item\t${written(value)}`).join("\n"));
      const decision = billGuard(texts).decide("pay", { amount: amounts[0], recipient: "alice@corp.example" });
      if (amounts.length === 1) {
        assert.equal(decision.outcome, "allow", explainDecision(decision));
      } else {
        assert.deepEqual(amountGaps(decision), [["untrusted-argument", "confirm"]], explainDecision(decision));
        assert.match(explainDecision(decision), /not delegated: the sources the user pointed at hold more than one/);
      }
    }),
  );
});

Deno.test("property: adding a quantity or removing the designation never makes a decision more permissive", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(centsArb, { minLength: 1, maxLength: 3 }),
      centsArb,
      fc.integer({ min: 1_000, max: 5_000 }),
      fc.boolean(),
      (amounts, extra, base, derived) => {
        const bill = amounts.map((value) => `Line ${written(value)}`).join("\n");
        const value = derived ? base + amounts[0] : amounts[0];
        const decide = (texts: string[], named: boolean) => {
          const guard = billGuard(texts, named);
          guard.record("ledger", [{ amount: base }]);
          return guard.decide("pay", { amount: value, recipient: "alice@corp.example" });
        };
        const pointed = decide([bill], true);
        for (const stricter of [decide([`${bill}\nFee ${written(extra)}`], true), decide([bill], false)]) {
          assert.ok(RANK[stricter.outcome] >= RANK[pointed.outcome], explainDecision(stricter));
        }
        assert.notEqual(decide([bill], false).outcome, "allow", "a file the user did not name delegates nothing");
      },
    ),
  );
});

Deno.test("Guard.decide() applies the only quantity of a notice the user named to a trusted base, in one step", () => {
  fc.assert(
    fc.property(fc.integer({ min: 500, max: 5_000 }), fc.integer({ min: 2, max: 400 }), (rent, rise) => {
      const guard = guardFor();
      guard.user("Read 'landlord-notices.txt' and adjust my rent payment accordingly");
      guard.record("read_file", `Dear tenant, the rent will be increased by ${rise}.00 from next month.`, {
        args: { file_path: "landlord-notices.txt" },
      });
      guard.record("ledger", [{ id: 7, amount: rent }]);
      const decision = guard.decide("pay", { amount: rent + rise });
      assert.equal(decision.outcome, "allow", explainDecision(decision));
      assert.deepEqual(decision.evidence[0].sources, ["tool:ledger", "tool:read_file"]);
      assert.equal(decision.evidence[0].formula, `${rent} + ${rise}`);
      assert.match(decision.notes[0].message, /the only quantity in tool:read_file, which the user pointed at/);
      // Two steps from a delegated quantity, or a second quantity in the notice: asked, not allowed.
      assert.notEqual(guard.decide("pay", { amount: rent + 2 * rise }).outcome, "allow");
      guard.record("read_file", `P.S. or ${rise + 1}.00`, { args: { file_path: "landlord-notices.txt" } });
      assert.equal(guard.decide("pay", { amount: rent + rise }).outcome, "confirm");
    }),
  );
});

Deno.test("Guard.decide() lets a stranger's number the user did not point at neither pass nor compete", () => {
  const guard = billGuard(["Total 98.70"]);
  guard.record("read_inbox", "Your new total is 5,000.00", { args: {} });
  assert.equal(guard.decide("pay", { amount: 98.7, recipient: "alice@corp.example" }).outcome, "allow");
  assert.deepEqual(amountGaps(guard.decide("pay", { amount: 5000 })), [["untrusted-argument", "block"]]);
});

Deno.test("Guard.decide() applies a percentage a notice the user named states to a trusted base", () => {
  const guard = guardFor();
  guard.user("Read 'landlord-notices.txt' and adjust my rent payment accordingly");
  guard.record("read_file", "From May 1st, 2024 the rent rises by 3.5 percent.", {
    args: { file_path: "landlord-notices.txt" },
  });
  guard.record("ledger", [{ id: 7, amount: 1200 }]);
  const decision = guard.decide("pay", { amount: 1242 });
  assert.equal(decision.outcome, "allow", explainDecision(decision));
  assert.equal(decision.evidence[0].formula, "1200 + 3.5%");
});

Deno.test("Guard.decide() delegates a ticket's amount though the ticket echoes the id the user named it by", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 99_999 }), centsArb, (id, refund) => {
      fc.pre(id !== refund);
      const guard = guardFor();
      guard.user(`Refund the customer of ticket ${id} what it asks for, to alice@corp.example`);
      const ticket = { id, created: "2024-05-01T10:00:00Z", body: `Please refund ${written(refund)}` };
      guard.record("read_ticket", JSON.stringify(ticket), { args: { ticket_id: id } });
      const decision = guard.decide("pay", { amount: refund, recipient: "alice@corp.example" });
      assert.equal(decision.outcome, "allow", explainDecision(decision));
      assert.deepEqual(decision.notes.map((note) => note.code), ["delegated-value"]);
    }),
  );
});
