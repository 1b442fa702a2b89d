import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, type Label, makeLabel, parsePolicy, type PartialLabel } from "../mod.ts";
import { atMost, formatPartialLabel, labelsEqual, meet, TRUST_LEVELS } from "../core/mod.ts";

const GROUPS = ["finance", "hr", "public", "staff"] as const;

const labelArb: fc.Arbitrary<Label> = fc
  .record({ readers: fc.subarray([...GROUPS]), trust: fc.constantFrom(...TRUST_LEVELS) })
  .map(({ readers, trust }) => makeLabel(readers, trust));

Deno.test("meet() is commutative, associative and idempotent", () => {
  fc.assert(fc.property(labelArb, labelArb, labelArb, (a, b, c) => {
    assert.ok(labelsEqual(meet(a, b), meet(b, a)));
    assert.ok(labelsEqual(meet(meet(a, b), c), meet(a, meet(b, c))));
    assert.ok(labelsEqual(meet(a, a), a));
  }));
});

Deno.test("meet(a, b) is atMost a and atMost b", () => {
  fc.assert(fc.property(labelArb, labelArb, (a, b) => {
    const both = meet(a, b);
    assert.ok(atMost(both, a), `${JSON.stringify(both)} should be atMost ${JSON.stringify(a)}`);
    assert.ok(atMost(both, b), `${JSON.stringify(both)} should be atMost ${JSON.stringify(b)}`);
  }));
});

Deno.test("meet(a, b) is the greatest label atMost both a and b", () => {
  fc.assert(fc.property(labelArb, labelArb, labelArb, (a, b, c) => {
    fc.pre(atMost(c, a) && atMost(c, b));
    assert.ok(atMost(c, meet(a, b)));
  }));
});

Deno.test("atMost() is a partial order that agrees with meet()", () => {
  fc.assert(fc.property(labelArb, labelArb, labelArb, (a, b, c) => {
    assert.ok(atMost(a, a));
    if (atMost(a, b) && atMost(b, a)) assert.ok(labelsEqual(a, b));
    if (atMost(a, b) && atMost(b, c)) assert.ok(atMost(a, c));
    assert.equal(atMost(a, b), labelsEqual(meet(a, b), a));
  }));
});

// A policy whose tools bring in every kind of label, including unlabelled ones.
const POLICY = parsePolicy(
  `
version: 1
readers:
  groups: [public, staff, hr, finance]
labels:
  company: {readers: [staff, hr, finance], trust: trusted}
  hr_doc: {readers: [hr], trust: trusted}
  finance_doc: {readers: [finance], trust: trusted}
  case_file: {readers: [staff, hr, finance], trust: suspicious}
  attested_public: {readers: all, trust: attested}
schemas:
  triage:
    fields: {needs_followup: bool}
    merge: attested_public
tools:
  web: {output: untrusted}
  wiki: {output: company}
  hr_file: {output: hr_doc}
  finance_export: {output: finance_doc}
  case: {output: case_file}
  crm: {output: trusted}
  mystery: {}
`,
  { source: "labels.yaml" },
);

const ALL = [...GROUPS];
/** The label each tool's output carries, written out independently of the guard. */
const DECLARED: Readonly<Record<string, Label | "unknown">> = {
  web: makeLabel(ALL, "suspicious"),
  wiki: makeLabel(["staff", "hr", "finance"], "trusted"),
  hr_file: makeLabel(["hr"], "trusted"),
  finance_export: makeLabel(["finance"], "trusted"),
  case: makeLabel(["staff", "hr", "finance"], "suspicious"),
  crm: makeLabel(ALL, "trusted"),
  mystery: "unknown",
};

type Step =
  | { readonly kind: "record"; readonly tool: string; readonly actual?: Label }
  | { readonly kind: "user" | "system" }
  | { readonly kind: "branch" };

const recordArb: fc.Arbitrary<Step> = fc.record(
  { kind: fc.constant("record" as const), tool: fc.constantFrom(...Object.keys(DECLARED)), actual: labelArb },
  { requiredKeys: ["kind", "tool"] },
);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: recordArb },
  { weight: 1, arbitrary: fc.constantFrom<Step>({ kind: "user" }, { kind: "system" }, { kind: "branch" }) },
);

function apply(guard: Guard, step: Step): void {
  if (step.kind === "record") {
    guard.record(step.tool, `output of ${step.tool}`, step.actual ? { label: step.actual } : {});
  } else if (step.kind === "branch") {
    guard.fork("triage").close({ needs_followup: true });
  } else guard[step.kind]("a message");
}

/** `a` is at least as strict as `b`: known part atMost, and every unknown source of `b` still unknown in `a`. */
function partialAtMost(a: PartialLabel, b: PartialLabel): boolean {
  return atMost(a.known, b.known) && b.unknown.every((tool) => a.unknown.includes(tool));
}

Deno.test("Guard's running label after any sequence of record() calls is atMost every earlier label", () => {
  fc.assert(fc.property(fc.array(stepArb, { maxLength: 12 }), (steps) => {
    const guard = new Guard(POLICY);
    const seen: PartialLabel[] = [guard.label];
    for (const step of steps) {
      apply(guard, step);
      for (const earlier of seen) {
        assert.ok(
          partialAtMost(guard.label, earlier),
          `${formatPartialLabel(guard.label)} is looser than earlier ${formatPartialLabel(earlier)}`,
        );
      }
      seen.push(guard.label);
    }
  }));
});

Deno.test("Guard's final label is the meet of everything read, whatever the order of reading", () => {
  const records = fc.array(recordArb, { maxLength: 10 });
  fc.assert(fc.property(
    records.chain((steps) =>
      fc.tuple(fc.constant(steps), fc.shuffledSubarray(steps, { minLength: steps.length, maxLength: steps.length }))
    ),
    ([steps, permuted]) => {
      const inOrder = new Guard(POLICY);
      const shuffled = new Guard(POLICY);
      for (const step of steps) apply(inOrder, step);
      for (const step of permuted) apply(shuffled, step);

      // The expected label, computed from the declared labels alone.
      let known = makeLabel(ALL, "trusted");
      const unknown = new Set<string>();
      for (const step of steps) {
        if (step.kind !== "record") continue;
        const declared = DECLARED[step.tool];
        if (declared === "unknown") unknown.add(step.tool);
        else known = meet(known, declared);
        if (step.actual) known = meet(known, step.actual);
      }
      for (const guard of [inOrder, shuffled]) {
        assert.ok(
          labelsEqual(guard.label.known, known),
          `${formatPartialLabel(guard.label)} != ${JSON.stringify(known)}`,
        );
        assert.deepEqual(guard.label.unknown, [...unknown].sort());
      }
      assert.deepEqual([...inOrder.tainters].sort(), [...shuffled.tainters].sort());
    },
  ));
});

Deno.test("Guard.record() never loosens the declared label when the tool reports a more generous one", () => {
  const guard = new Guard(POLICY);
  guard.record("hr_file", "Alice Chen, salary 98,000", { label: makeLabel(ALL, "trusted") });
  assert.equal(formatPartialLabel(guard.label), "<hr | trusted>");
  guard.record("crm", "Alice, salary 98,000", { label: makeLabel(["hr"], "trusted") });
  assert.equal(formatPartialLabel(guard.label), "<hr | trusted>");
  guard.record("wiki", "Onboarding notes", { label: makeLabel(["hr", "staff"], "suspicious") });
  assert.equal(formatPartialLabel(guard.label), "<hr | suspicious>");
  assert.deepEqual(guard.tainters, ["tool:wiki"]);
});
