/**
 * YAML aliases cannot make a policy more work than a policy written out: a policy whose anchors alias anchors (a
 * "billion laughs" bomb) is refused with ERR_POLICY_INVALID when they expand it past a million values or its own
 * length, wherever the bomb sits (even under `prerequisite.args`, which takes any value and which the planner walks
 * for every blocked call); a policy that reuses anchors within that stays as it was.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { PolicyError } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

/** A policy whose prerequisite arguments hold `levels` anchors, each a list of `width` aliases of the one before. */
function bomb(levels: number, width: number): string {
  const lines = [`        a0: &a0 [${Array(width).fill('"{{to}}"').join(", ")}]`];
  for (let i = 1; i < levels; i++) lines.push(`        a${i}: &a${i} [${Array(width).fill(`*a${i - 1}`).join(", ")}]`);
  return [
    "version: 1",
    "tools:",
    "  file_preclearance:",
    "    effects: [legal.precleared]",
    "    prerequisite:",
    "      args:",
    ...lines,
    "  send_terms:",
    "    requires_prior: [legal.precleared]",
    "",
  ].join("\n");
}

Deno.test("parsePolicy() refuses a policy whose aliases expand to 10^30 values, naming the cause", () => {
  assert.throws(() => parsePolicy(bomb(30, 10), { source: "p.yaml" }), (error: unknown) => {
    assert.ok(error instanceof PolicyError);
    assert.equal(error.code, "ERR_POLICY_INVALID");
    assert.deepEqual(error.issues.map((issue) => issue.path), ["(top level)"]);
    assert.match(error.issues[0].message, /its YAML aliases expand it to more than 1,000,000 values/);
    return true;
  });
});

Deno.test("parsePolicy() keeps a policy that reuses an anchor within the limit", () => {
  const policy = parsePolicy(bomb(3, 10), { source: "p.yaml" });
  assert.equal((policy.tools.file_preclearance.prerequisite?.args.a2 as unknown[]).length, 10);
});

Deno.test("parsePolicy() refuses every alias bomb far past the limit and keeps every one far below it (property)", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 2, max: 10 }), (levels, width) => {
      const values = width ** levels;
      if (values > 1e4 && values < 1e8) return;
      const read = () => parsePolicy(bomb(levels, width), { source: "p.yaml" });
      if (values >= 1e8) assert.throws(read, PolicyError);
      else read();
    }),
    { numRuns: 200 },
  );
});
