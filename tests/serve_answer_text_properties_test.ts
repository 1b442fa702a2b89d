/**
 * `answerText()` against `JSON.stringify`: the same text for any value (frozen
 * or not, with `toJSON`, getters, holes, members JSON leaves out), every time,
 * however the value's unfrozen parts change between answers.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { answerText } from "../adapters/serve/answer_text.ts";

/** Freeze `value` and, where `deep`, what it holds. */
function freeze(value: unknown, deep: boolean): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (deep) { for (const member of Object.values(value)) freeze(member, deep); }
  return Object.freeze(value);
}

/** Values an answer may hold, and the odd ones JSON.stringify treats specially. */
const { member } = fc.letrec((tie) => ({
  member: fc.oneof(
    { depthSize: "small" },
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(undefined, () => 1, Symbol("s"), new Date(0), Object.create(null), { toJSON: () => "x" }),
    fc.constantFrom({ toJSON: 5 }, [1, , 3], {
      get g() {
        return 2;
      },
    }, new String("s")),
    fc.array(tie("member"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "1", "__proto__", "toJSON"), tie("member"), { maxKeys: 3 }),
    fc.tuple(tie("member"), fc.constantFrom("none", "shallow", "deep")).map(([value, how]) =>
      how === "none" ? value : freeze(structuredCloneOr(value), how === "deep")
    ),
  ),
}));

/** A copy to freeze (the shared constants above stay unfrozen), or the value when it cannot be cloned. */
function structuredCloneOr(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}

Deno.test("answerText() writes what JSON.stringify writes, for any value, frozen or not (property)", () => {
  fc.assert(
    fc.property(member, (value) => {
      const answer = { decision: value, nested: { value }, shown: "x" };
      for (const each of [value, answer, answer, value]) assert.equal(answerText(each), JSON.stringify(each));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("answerText() writes a changed value anew: only what can never change is kept (property)", () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }), fc.string({ maxLength: 4 }), (list, more) => {
      // Not frozen, though it holds a frozen array: written anew after each change.
      const label = { readers: Object.freeze([...list]), trust: "trusted" };
      const answer = { decision: { labelBefore: label } };
      assert.equal(answerText(answer), JSON.stringify(answer));
      label.readers = Object.freeze([...list, more]);
      label.trust = more;
      assert.equal(answerText(answer), JSON.stringify(answer));
    }),
  );
});

Deno.test("answerText() writes a guard's decisions as JSON.stringify does, label after label (property)", () => {
  const policy = parsePolicy(
    "version: 1\ntools:\n  read: {output: untrusted, on_tainted: allow}\n  send: {args: {to: {require: trusted}}}\n",
  );
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), fc.emailAddress()), { minLength: 1, maxLength: 6 }), (steps) => {
      const guard = new Guard(policy);
      for (const [user, address] of steps) {
        if (user) guard.user(`write to ${address}`);
        else guard.record("read", `mail from ${address}`);
        const decision = guard.decide("send", { to: address });
        const answer = { decision, explanation: "x", shown: "y" };
        assert.equal(answerText(answer), JSON.stringify(answer));
      }
    }),
    { numRuns: 200 },
  );
});
