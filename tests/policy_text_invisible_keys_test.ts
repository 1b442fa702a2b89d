/**
 * A policy key holding an invisible format character (a zero-width space, a bidirectional mark, a byte order mark, a
 * tag character) reads in an editor as another name: a pasted `send\u200b_email` rule would never name the
 * `send_email` the author sees, leaving it to the default. Such keys are refused, in YAML and JSONC, and `pab generate`
 * leaves such names out, so its draft still passes `pab lint`.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { PolicyError } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { draftPolicy } from "../adapters/cli/draft/draft_policy.ts";

const INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u202e", "\u2066", "\u00ad", "\u{e0041}"];

Deno.test("parsePolicy() refuses a tool key with a zero-width space in YAML and JSONC, naming it escaped", () => {
  for (
    const [text, source] of [
      ["version: 1\ntools:\n  send\u200b_email: {args: {to: {require: trusted}}}\n", "p.yaml"],
      ['{"version": 1, "tools": {"send\u200b_email": {"args": {"to": {"require": "trusted"}}}}}', "p.jsonc"],
    ]
  ) {
    assert.throws(() => parsePolicy(text, { source }), (error: unknown) => {
      assert.ok(error instanceof PolicyError);
      assert.equal(error.code, "ERR_POLICY_INVALID");
      assert.deepEqual(error.issues.map((issue) => issue.path), ["tools.send\u200b_email"]);
      assert.match(error.issues[0].message, /the key holds the invisible character U\+200B/);
      return true;
    });
  }
});

Deno.test("parsePolicy() refuses an invisible character in any key, anywhere in the policy (property)", () => {
  const name = fc.tuple(
    fc.stringMatching(/^[a-z_]{0,6}$/),
    fc.constantFrom(...INVISIBLE),
    fc.stringMatching(/^[a-z_]{0,6}$/),
  ).map((parts) => parts.join(""));
  const where = fc.constantFrom(
    (key: string) => ({ version: 1, tools: { [key]: { output: "untrusted" } } }),
    (key: string) => ({ version: 1, tools: { send: { args: { [key]: { require: "trusted" } } } } }),
    (key: string) => ({ version: 1, catalogues: { c: { key: "id", entries: { [key]: "trusted" } } } }),
  );
  fc.assert(
    fc.property(name, where, (key, policy) => {
      assert.throws(() => parsePolicy(JSON.stringify(policy(key)), { source: "p.jsonc" }), PolicyError);
    }),
    { numRuns: 200 },
  );
});

Deno.test("draftPolicy() leaves out tool and argument names with an invisible character, and the draft parses", () => {
  const yaml = draftPolicy([
    { name: "send\u200b_email", parameters: { to: "string" } },
    { name: "send_email", parameters: { "to\u2060": "string", body: "string" } },
  ], "tools.json");
  const policy = parsePolicy(yaml, { source: "draft.yaml" });
  assert.deepEqual(Object.keys(policy.tools), ["send_email"]);
  assert.deepEqual(Object.keys(policy.tools.send_email.args), ["body"]);
  assert.match(yaml, /# left out "send\\u\{200b\}_email": it holds an invisible character/);
});
