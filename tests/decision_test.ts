/** Decisions and gaps are plain JSON; one function explains them; gap kinds are one table. */
import assert from "node:assert/strict";
import { knownLabel, makeLabel } from "../core/mod.ts";
import {
  type Decision,
  explainDecision,
  GAP_CODES,
  GAP_KINDS,
  gapKey,
  makeDecision,
  WAIVABLE_GAP_CODES,
} from "../guard/mod.ts";

const LABEL = knownLabel(makeLabel(["public"], "trusted"));
const BASE = {
  tool: "send_email",
  args: { to: "eve@attacker.example" },
  fingerprint: "f".repeat(64),
  branch: "main",
  waived: [],
  notes: [],
  evidence: [],
  labelBefore: LABEL,
  labelAfter: LABEL,
};

Deno.test("makeDecision() derives the outcome from the open gaps", () => {
  assert.equal(makeDecision({ ...BASE, gaps: [] }).outcome, "allow");
  assert.equal(
    makeDecision({ ...BASE, gaps: [{ code: "tainted-context", severity: "confirm", message: "m" }] }).outcome,
    "confirm",
  );
  assert.equal(
    makeDecision({
      ...BASE,
      gaps: [
        { code: "tainted-context", severity: "confirm", message: "m" },
        { code: "recipient", severity: "block", message: "r" },
      ],
    }).outcome,
    "block",
  );
});

Deno.test("a decision is plain, frozen JSON: a copy through JSON is equal and explains the same", () => {
  const decision: Decision = makeDecision({
    ...BASE,
    gaps: [{ code: "invented-argument", severity: "block", message: "to='eve@attacker.example' appears in no input" }],
    notes: [{ code: "unknown-tool", message: "n" }],
    recovery: { found: false, reason: "none" },
  });
  assert.ok(Object.isFrozen(decision));
  const copy = JSON.parse(JSON.stringify(decision));
  assert.deepEqual(copy, decision);
  assert.equal(explainDecision(copy), explainDecision(decision));
  assert.equal(Object.getOwnPropertyNames(decision).includes("explain"), false);
  assert.equal(
    explainDecision(decision),
    "send_email: block\n- [invented-argument] to='eve@attacker.example' appears in no input\n  note [unknown-tool]: n\nway to yes: none in this policy: none",
  );
});

Deno.test("GAP_KINDS is the one table of gap kinds: guard-error alone cannot be waived", () => {
  assert.deepEqual(GAP_CODES, Object.keys(GAP_KINDS));
  assert.deepEqual(GAP_CODES.filter((code) => !WAIVABLE_GAP_CODES.includes(code)), ["guard-error"]);
});

Deno.test("gapKey() identifies a gap by everything but its severity", () => {
  const gap = { code: "recipient" as const, severity: "block" as const, message: "m", group: "public" };
  assert.equal(gapKey(gap), gapKey({ ...gap, severity: "confirm" }));
  assert.notEqual(gapKey(gap), gapKey({ ...gap, group: "staff" }));
  assert.equal(gapKey({ ...gap }), gapKey({ group: "public", message: "m", severity: "block", code: "recipient" }));
});
