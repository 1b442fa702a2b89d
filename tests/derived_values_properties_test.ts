/**
 * Values the model computed: a value one or two steps from changes the user stated (a sum, a difference, a
 * percentage, a date and an offset) has its base's provenance; nothing else is vouched, and what passes stays
 * inside the reach SECURITY.md states (`t ± u`, `u - t`, `u% of t`, `t ± u%`, two steps with two changes,
 * `d ± u days or weeks`).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, explainDecision, Guard } from "../guard/mod.ts";

const POLICY = compilePolicy({
  version: 1,
  tools: {
    ledger: { output: "trusted" },
    file: { output: "untrusted" },
    pay: { args: { amount: { require: "trusted" }, day: { require: "trusted" } } },
  },
});

const amountArb = fc.integer({ min: 1000, max: 99_999 });
const changeArb = fc.integer({ min: 2, max: 999 });

/** The user's words, a trusted tool's output, and (tainting the context, which the checks here ignore) a stranger's. */
function guardWith(user: string, trusted: unknown, untrusted = "nothing here"): Guard {
  const guard = new Guard(POLICY);
  guard.user(user);
  guard.record("ledger", trusted);
  guard.record("file", untrusted);
  return guard;
}

Deno.test("Guard.decide() vouches a value one step from a trusted base and a change in the user's words", () => {
  fc.assert(
    fc.property(amountArb, changeArb, fc.boolean(), (base, change, up) => {
      const guard = guardWith(`Change the rent by ${change} please`, [{ id: "rent", amount: base }]);
      const value = up ? base + change : base - change;
      const decision = guard.decide("pay", { amount: value });
      assert.equal(decision.gaps.filter((gap) => gap.argument === "amount").length, 0, explainDecision(decision));
      assert.deepEqual(decision.evidence, [{
        argument: "amount",
        value: String(value),
        sources: ["tool:ledger", "user"],
        formula: `${base} ${up ? "+" : "-"} ${change}`,
      }]);
      assert.deepEqual(decision.notes.map((note) => note.code), ["derived-value"]);
    }),
  );
});

Deno.test("Guard.decide() never vouches a computed value whose change no user stated", () => {
  fc.assert(
    fc.property(amountArb, changeArb, (base, change) => {
      // The same two numbers, both from a trusted tool: a sum of tool values is not derived.
      const guard = guardWith("Pay the rent please", [{ amount: base }, { fee: change }]);
      const decision = guard.decide("pay", { amount: base + change });
      const amount = decision.gaps.filter((gap) => gap.argument === "amount");
      assert.deepEqual(amount.map((gap) => [gap.code, gap.severity]), [["invented-argument", "block"]]);
      assert.equal(decision.outcome, "block");
    }),
  );
});

Deno.test("Guard.decide() gives a computed value its base's provenance: a base only strangers wrote is untrusted", () => {
  fc.assert(
    fc.property(amountArb, changeArb, (base, change) => {
      const guard = guardWith(`Add ${change} to it`, [{ id: 1 }], `Total due: ${base}`);
      const decision = guard.decide("pay", { amount: base + change });
      const amount = decision.gaps.filter((gap) => gap.argument === "amount");
      assert.deepEqual(amount.map((gap) => [gap.code, gap.sources]), [["untrusted-argument", ["tool:file"]]]);
      assert.match(amount[0].message, new RegExp(`is ${base} \\+ ${change}, and its base '${base}'`));
      assert.deepEqual(decision.evidence, []);
    }),
  );
});

Deno.test("Guard.decide() moves a trusted date by an offset the user stated, in days or weeks", () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }),
      fc.integer({ min: 1, max: 30 }),
      fc.boolean(),
      (start, offset, weeks) => {
        const day = start.toISOString().slice(0, 10);
        const guard = guardWith(`Move it ${offset} ${weeks ? "weeks" : "days"} later`, [{ due: `${day} 10:00` }]);
        const moved = new Date(start.getTime() + offset * (weeks ? 7 : 1) * 86_400_000).toISOString().slice(0, 10);
        const decision = guard.decide("pay", { day: `${moved} 10:00` });
        assert.deepEqual(decision.gaps.filter((gap) => gap.argument), [], explainDecision(decision));
        assert.match(
          decision.evidence[0].formula ?? "",
          new RegExp(`^${day} 10:00 \\+ ${offset} ${weeks ? "week" : "day"}`),
        );
        // Another time of day is another value: it is not derived from the base.
        assert.equal(guard.decide("pay", { day: `${moved} 11:00` }).outcome, "block");
      },
    ),
  );
});

Deno.test("Guard.decide() lets through no computed value outside one or two steps of t ± u, u - t, t * n, t / n", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 100, max: 5000 }), { minLength: 1, maxLength: 6 }),
      fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 0, max: 11_000 }),
      (tools, changes, value) => {
        const guard = guardWith(`Adjust by ${changes.join(" or ")}`, tools.map((n) => ({ n })));
        const decision = guard.decide("pay", { amount: value });
        if (decision.outcome === "block") return;
        const stated = [...tools, ...changes];
        const reach = new Set(stated);
        // A count from 2 to 12 also multiplies and divides.
        const step = (t: number, u: number) => [t + u, t - u, u - t, ...(u >= 2 && u <= 12 ? [t * u, t / u] : [])];
        for (const t of stated) {
          for (const u of changes) for (const next of step(t, u)) reach.add(next);
          // Two steps use two different changes, among the first four the user stated.
          for (const [i, u1] of changes.slice(0, 4).entries()) {
            for (const [j, u2] of changes.slice(0, 4).entries()) {
              if (i === j) continue;
              for (const middle of step(t, u1)) for (const next of step(middle, u2)) reach.add(next);
            }
          }
        }
        assert.ok(
          [...reach].some((r) => Math.abs(r - value) <= 0.005),
          `${value} passed: ${explainDecision(decision)}`,
        );
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("Guard.decide() does no arithmetic on identifiers", () => {
  const policy = compilePolicy({
    version: 1,
    tools: { ledger: { output: "trusted" }, open: { args: { file_id: { require: "trusted" } } } },
  });
  const guard = new Guard(policy);
  guard.user("Open the file two after 4000, that is 4000 + 2");
  guard.record("ledger", [{ file_id: 4000 }]);
  assert.deepEqual(guard.decide("open", { file_id: 4002 }).gaps.map((gap) => gap.code), ["invented-argument"]);
  assert.equal(guard.decide("open", { file_id: 4000 }).outcome, "allow");
});

Deno.test("Guard.decide() vouches a percentage of a trusted amount plus a fee, both in the user's words, to the cent", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 10_000, max: 999_999 }).map((cents) => cents / 100),
      // From 5%: a smaller rate leaves more bases than the rounding window looks up (SECURITY.md).
      fc.integer({ min: 10, max: 60 }).map((halves) => halves / 2),
      fc.integer({ min: 1, max: 9_999 }).map((cents) => cents / 100),
      (paid, rate, fee) => {
        fc.pre(rate !== fee && paid !== fee && paid !== rate);
        const guard = guardWith(`Send them ${rate}% of the amount we paid + a fee of ${fee}`, [{ amount: paid }]);
        const value = Math.round((paid * rate / 100 + fee) * 100) / 100;
        const decision = guard.decide("pay", { amount: value });
        assert.deepEqual(decision.gaps.filter((gap) => gap.argument === "amount"), [], explainDecision(decision));
        assert.ok(decision.evidence[0].formula, explainDecision(decision));
        assert.deepEqual(decision.notes.map((note) => note.code), ["derived-value"]);
      },
    ),
  );
});

Deno.test("Guard.decide() scales a base only by a number the user wrote as a percentage", () => {
  const guard = guardWith("Send them 19.5 of it, and a fee of 5.29", [{ amount: 1000 }]);
  assert.equal(guard.decide("pay", { amount: 200.29 }).outcome, "block");
  const percent = guardWith("Send them 19.5% of it, and a fee of 5.29", [{ amount: 1000 }]);
  const decision = percent.decide("pay", { amount: 200.29 });
  assert.equal(decision.evidence[0].formula, "(19.5% of 1000) + 5.29", explainDecision(decision));
});

Deno.test("Guard.decide() divides a trusted amount by a count the user stated, and multiplies by it", () => {
  const guard = guardWith("Split the dinner bill 4 ways and send my share; also pay the 12 tickets", [
    { amount: 123.45 },
    { price: 17.5 },
  ]);
  const share = guard.decide("pay", { amount: 30.86 });
  assert.equal(share.evidence[0]?.formula, "123.45 / 4", explainDecision(share));
  assert.equal(guard.decide("pay", { amount: 210 }).evidence[0]?.formula, "17.5 * 12");
  // A count above 12 is not one: 13 times is not derived.
  assert.equal(guardWith("13 of them", [{ price: 17.5 }]).decide("pay", { amount: 227.5 }).outcome, "block");
});
