/**
 * A JSONC policy nested past any policy's shape is refused with a coded error at its place, as YAML's own limit
 * refuses it: never a crash of the parser's recursion. Brackets inside strings and comments do not count.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { PolicyError } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

function nested(open: string, close: string, depth: number): string {
  return `{"version": 1, "x": ${open.repeat(depth)}1${close.repeat(depth)}}`;
}

Deno.test("parsePolicy() refuses a JSONC policy nested 200,000 deep with ERR_POLICY_INVALID at its place", () => {
  for (const [open, close] of [["[", "]"], ['{"a":', "}"]]) {
    assert.throws(() => parsePolicy(nested(open, close, 200_000), { source: "p.jsonc" }), (error: unknown) => {
      assert.ok(error instanceof PolicyError, String(error));
      assert.equal(error.code, "ERR_POLICY_INVALID");
      assert.match(error.issues[0].path, /^line 1, column \d+$/);
      assert.match(error.issues[0].message, /nesting deeper than 100 levels/);
      return true;
    });
  }
});

Deno.test("parsePolicy() does not count brackets inside JSONC strings and comments", () => {
  const brackets = "[".repeat(5000);
  const policy = parsePolicy(
    `{"version": 1, /* ${brackets} */ "tools": {"t${brackets}": {"output": "untrusted"}}} // ${brackets}`,
    { source: "p.jsonc" },
  );
  assert.deepEqual(Object.keys(policy.tools), [`t${brackets}`]);
});

Deno.test("parsePolicy() answers any JSONC nesting with a policy or a PolicyError (property)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 20_000 }), fc.boolean(), (depth, objects) => {
      try {
        parsePolicy(nested(objects ? '{"a":' : "[", objects ? "}" : "]", depth), { source: "p.jsonc" });
      } catch (error) {
        assert.ok(error instanceof PolicyError, String(error));
      }
    }),
    { numRuns: 60 },
  );
});
