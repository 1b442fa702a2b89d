/**
 * Blank values fail closed: a value with no token in it (empty, whitespace, invisible characters, or a
 * mix) is vouched by no source, whatever the sources say, for every kind of rule that asks for one.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { compilePolicy, explainDecision, Guard } from "../guard/mod.ts";

const BLANK_CHARS = [" ", "\t", "\n", "\r", "\u00A0", "\u3000", "\u2028", "\u200B", "\u200D", "\uFEFF", "\u00AD"];
const blankArb = fc.array(fc.constantFrom(...BLANK_CHARS), { maxLength: 6 }).map((chars) => chars.join(""));
const ruleArb = fc.record({
  require: fc.constantFrom("trusted", "attested", undefined),
  allow: fc.constantFrom(undefined, ["alice@corp.example"]),
  on_violation: fc.constantFrom("block", "confirm"),
}).filter((rule) => rule.require !== undefined || rule.allow !== undefined);

function guardWith(rule: Record<string, unknown>): Guard {
  const args = { to: Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined)) };
  const guard = new Guard(compilePolicy({ version: 1, tools: { send_email: { args } } }));
  // Trusted text full of blanks: if any source could vouch for a blank value, this one would.
  guard.user(`Write to alice@corp.example ${BLANK_CHARS.join(" x ")} `);
  return guard;
}

Deno.test("Guard.decide() never passes a blank value for an argument whose rule asks for a source or an allow list", () => {
  fc.assert(
    fc.property(blankArb, ruleArb, fc.boolean(), (blank, rule, inList) => {
      const guard = guardWith(rule);
      const decision = guard.decide("send_email", { to: inList ? [blank] : blank });
      assert.notEqual(decision.outcome, "allow", explainDecision(decision));
      const path = inList ? "to[0]" : "to";
      assert.deepEqual(decision.gaps.map((gap) => [gap.code, gap.severity, gap.argument, gap.value]), [
        [rule.require ? "invented-argument" : "not-allowed", rule.on_violation, path, blank],
      ]);
      assert.deepEqual(decision.evidence, []);
      // The explanation shows what the reader could not see.
      assert.doesNotMatch(decision.gaps[0].message, /[\u200B\u200D\uFEFF\u00AD\n\r\t\u2028]/);
    }),
    { numRuns: 300, examples: [["", { require: "trusted", allow: undefined, on_violation: "block" }, false]] },
  );
});

Deno.test("Guard.decide() passes a blank value that the allow list names, and an argument left out", () => {
  fc.assert(
    fc.property(blankArb, fc.constantFrom("trusted", undefined), (blank, require) => {
      const guard = guardWith({ require, allow: [blank.trim() || blank, "alice@corp.example"] });
      const decision = guard.decide("send_email", { to: blank });
      assert.equal(decision.outcome, "allow", explainDecision(decision));
      assert.deepEqual(decision.evidence, [{ argument: "to", value: blank, sources: [] }]);
      assert.equal(guard.decide("send_email", {}).outcome, "allow");
      assert.equal(guard.decide("send_email", { to: "alice@corp.example" }).outcome, "allow");
    }),
  );
});
