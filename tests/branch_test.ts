import assert from "node:assert/strict";
import fc from "fast-check";
import { formatLabel, knownLabel, type Label, makeLabel, meet } from "../core/mod.ts";
import { Branch } from "../guard/mod.ts";

const READERS = ["public", "staff", "hr", "legal"];
const TRUSTS = ["trusted", "attested", "suspicious"] as const;
const top = () => knownLabel(makeLabel(READERS, "trusted"));
const newBranch = () => new Branch({ name: "main", label: top(), sources: [], counter: { rulings: 0, children: 0 } });

Deno.test("Branch.restrict() gives the meet of every label it was given, however often each recurs", () => {
  const labelArb = fc.record({
    readers: fc.subarray(READERS),
    trust: fc.constantFrom(...TRUSTS),
  }).map(({ readers, trust }) => makeLabel(readers, trust));
  fc.assert(
    fc.property(
      fc.array(labelArb, { minLength: 1, maxLength: 5 }),
      fc.array(fc.nat(), { maxLength: 30 }),
      (labels, picks) => {
        const branch = newBranch();
        let expected: Label = top().known;
        for (const pick of picks) {
          const label = labels[pick % labels.length];
          branch.restrict({ known: label, unknown: [] });
          expected = meet(expected, label);
          assert.equal(formatLabel(branch.label.known), formatLabel(expected));
        }
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("Branch.restrict() meets a label that is not frozen again each time, so changing it cannot be missed", () => {
  const branch = newBranch();
  const label = { readers: ["public", "staff", "hr", "legal"], trust: "trusted" } as unknown as Label;
  branch.restrict({ known: label, unknown: [] });
  (label as { trust: string }).trust = "suspicious";
  (label.readers as string[]).splice(0, 2);
  branch.restrict({ known: label, unknown: [] });
  assert.equal(formatLabel(branch.label.known), "<hr,legal | suspicious>");
});
