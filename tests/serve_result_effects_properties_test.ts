/**
 * `resultEffects()` against what `SessionHost.result` computed before it: the
 * same keys and commit for any call (ran or not, failed or not), and for a
 * call that only records, the same refusal `makeToolCall` gives.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeToolCall, planEffects } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { assertCallShape, resultEffects } from "../adapters/serve/result_effects.ts";

function thrown(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

Deno.test("assertCallShape() refuses exactly the calls makeToolCall refuses, with its error (property)", () => {
  const tool = fc.oneof(fc.string({ maxLength: 6 }), fc.anything());
  const args = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.anything());
  fc.assert(
    fc.property(tool, args, (tool, args) => {
      assert.equal(thrown(() => assertCallShape(tool, args)), thrown(() => makeToolCall(tool, args)));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("resultEffects() gives the keys and commit the host computed with the call's fingerprint (property)", () => {
  const policy = parsePolicy(
    "version: 1\ntools:\n  publish: {once: release.sent}\n  send: {effects: ['mail.{to}']}\n  read: {output: untrusted}\n",
    { source: "p.yaml" },
  );
  const committed = fc.uniqueArray(fc.constantFrom("release.sent", "mail.a", "mail.b"), { maxLength: 3 });
  const call = fc.record({
    tool: fc.constantFrom("publish", "send", "read", "unknown", ""),
    args: fc.oneof(fc.record({ to: fc.constantFrom("a", "b") }), fc.constant({}), fc.constant([] as unknown)),
    ran: fc.option(fc.boolean(), { nil: undefined }),
    error: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }),
  });
  fc.assert(
    fc.property(call, committed, (call, done) => {
      const effects = { committed: () => new Set(done) };
      // The reference: the host's code before, which fingerprinted every call.
      const reference = () => {
        const toolCall = makeToolCall(call.tool, call.args);
        const keys = call.ran && call.error === undefined
          ? planEffects(policy, toolCall, effects.committed()).commit
          : [];
        const commit = { ledger: "s_1", keys, holder: `result:${toolCall.fingerprint}` };
        return { keys, commit: keys.length ? commit : undefined };
      };
      const expected = thrown(reference) ?? reference();
      const actual = thrown(() => resultEffects(policy, "s_1", call, effects)) ??
        resultEffects(policy, "s_1", call, effects);
      assert.deepEqual(
        typeof actual === "string" ? actual : { keys: actual.keys, commit: actual.commit },
        expected,
      );
    }),
    { numRuns: 1000 },
  );
});
