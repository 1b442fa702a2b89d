import assert from "node:assert/strict";
import fc from "fast-check";
import { atMost, makeLabel, TRUST_LEVELS } from "../core/mod.ts";
import { compilePolicy } from "../guard/mod.ts";
import { labelFromIfc, ServerSignals } from "../adapters/mcp/mod.ts";

const policy = compilePolicy({ version: 1, readers: { groups: ["public", "staff", "hr"] } });
const groups = fc.subarray(["public", "staff", "hr"]);
const label = fc.tuple(groups, fc.constantFrom(...TRUST_LEVELS)).map(([readers, trust]) => makeLabel(readers, trust));
const meta = fc.oneof(
  fc.jsonValue(),
  fc.record({
    ifc: fc.oneof(
      fc.jsonValue(),
      fc.record({
        integrity: fc.oneof(fc.constantFrom("trusted", "untrusted", "TRUSTED", ""), fc.jsonValue()),
        confidentiality: fc.oneof(fc.array(fc.constantFrom("public", "staff", "hr", "octocat")), fc.jsonValue()),
      }, { requiredKeys: [] }),
    ),
  }),
);
const annotations = fc.oneof(
  fc.jsonValue(),
  fc.record({ readOnlyHint: fc.jsonValue(), openWorldHint: fc.jsonValue() }, { requiredKeys: [] }),
);

Deno.test("ServerSignals.labelOf() never exceeds the ceiling and only gets stricter as results arrive", () => {
  fc.assert(
    fc.property(annotations, fc.array(meta, { maxLength: 5 }), label, (hints, metas, ceiling) => {
      const signals = new ServerSignals(policy);
      signals.annotate("t", hints);
      assert.ok(atMost(signals.labelOf("t", ceiling), ceiling));
      let before: ReturnType<typeof signals.labelOf> | undefined;
      for (const m of metas) {
        const own = signals.observe("t", m);
        const after = signals.labelOf("t", ceiling);
        assert.ok(atMost(after, ceiling));
        if (own) assert.ok(atMost(after, own), "the tool's label is at most each result's own label");
        if (before) assert.ok(atMost(after, before), "a new result only makes the tool's label stricter");
        before = after;
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("ServerSignals.labelOf() meets every ifc label a tool's results carried", () => {
  const signals = new ServerSignals(policy);
  signals.annotate("t", { readOnlyHint: true, openWorldHint: true });
  const ceiling = makeLabel(["public", "staff", "hr"], "trusted");
  signals.observe("t", { ifc: { integrity: "trusted", confidentiality: ["public"] } });
  assert.deepEqual(signals.labelOf("t", ceiling), makeLabel(["public", "staff", "hr"], "trusted"));
  signals.observe("t", { ifc: { integrity: "trusted", confidentiality: ["octocat", "staff"] } });
  assert.deepEqual(signals.labelOf("t", ceiling), makeLabel(["staff"], "trusted"));
  signals.observe("t", { ifc: { integrity: "untrusted", confidentiality: ["public"] } });
  assert.deepEqual(signals.labelOf("t", ceiling), makeLabel(["staff"], "suspicious"));
  // A result without an ifc label counts with what the annotations imply (open world: suspicious).
  const other = new ServerSignals(policy);
  other.observe("u", { ifc: { integrity: "trusted", confidentiality: ["public"] } });
  other.observe("u", {});
  assert.equal(other.labelOf("u", ceiling).trust, "suspicious");
  // A label the ceiling does not allow is capped by it.
  assert.deepEqual(signals.labelOf("t", makeLabel(["hr"], "attested")), makeLabel([], "suspicious"));
});

Deno.test("labelFromIfc() reads a malformed ifc label as the strictest label", () => {
  assert.deepEqual(labelFromIfc({ ifc: "trusted" }, policy), makeLabel([], "suspicious"));
  assert.deepEqual(labelFromIfc({ ifc: { integrity: "trusted" } }, policy), makeLabel([], "trusted"));
  assert.deepEqual(
    labelFromIfc({ ifc: { confidentiality: ["public"] } }, policy),
    makeLabel(["hr", "public", "staff"], "suspicious"),
  );
});

Deno.test("ServerSignals.labelOf() reads annotations: only a read-only, closed-world tool is attested", () => {
  const ceiling = makeLabel(["public", "staff", "hr"], "trusted");
  const cases: Array<[unknown, string]> = [
    [{ readOnlyHint: true, openWorldHint: false }, "attested"],
    [{ readOnlyHint: true }, "suspicious"],
    [{ openWorldHint: false }, "suspicious"],
    [{ readOnlyHint: "yes", openWorldHint: false }, "suspicious"],
    [undefined, "suspicious"],
  ];
  for (const [hints, trust] of cases) {
    const signals = new ServerSignals(policy);
    signals.annotate("t", hints);
    assert.equal(signals.labelOf("t", ceiling).trust, trust, JSON.stringify(hints));
  }
});
