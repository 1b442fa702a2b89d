import assert from "node:assert/strict";
import { makeLabel } from "../mod.ts";
import { atMost, formatLabel, isTrust, labelsEqual, lowerTrust, meet, TRUST_LEVELS, trustRank } from "../core/mod.ts";

const WEB = makeLabel(["public", "staff", "hr", "finance"], "suspicious");
const HR_DOC = makeLabel(["hr"], "trusted");
const TOP = makeLabel(["public", "staff", "hr", "finance"], "trusted");

Deno.test("makeLabel() sorts and de-duplicates readers and freezes the label", () => {
  const label = makeLabel(["staff", "hr", "staff"], "attested");
  assert.deepEqual(label, { readers: ["hr", "staff"], trust: "attested" });
  assert.ok(Object.isFrozen(label));
  assert.ok(Object.isFrozen(label.readers));
});

Deno.test("makeLabel() rejects a trust level that does not exist", () => {
  assert.throws(
    () => makeLabel(["hr"], "trustworthy" as never),
    (error: unknown) =>
      error instanceof TypeError &&
      error.message === 'Cannot rank trust "trustworthy": expected one of suspicious, attested, trusted',
  );
});

Deno.test("meet() keeps the shared readers and the lower trust", () => {
  assert.equal(formatLabel(meet(TOP, HR_DOC)), "<hr | trusted>");
  assert.equal(formatLabel(meet(meet(TOP, HR_DOC), WEB)), "<hr | suspicious>");
  assert.equal(formatLabel(meet(HR_DOC, makeLabel(["finance"], "trusted"))), "<nobody | trusted>");
});

Deno.test("atMost() holds only when readers are a subset and trust is no higher", () => {
  assert.equal(atMost(HR_DOC, TOP), true);
  assert.equal(atMost(TOP, HR_DOC), false);
  assert.equal(atMost(WEB, TOP), true);
  assert.equal(atMost(TOP, WEB), false);
  // Incomparable: fewer readers but more trust.
  assert.equal(atMost(HR_DOC, WEB), false);
  assert.equal(atMost(WEB, HR_DOC), false);
});

Deno.test("labelsEqual() compares readers and trust, not identity", () => {
  assert.equal(labelsEqual(makeLabel(["b", "a"], "trusted"), makeLabel(["a", "b"], "trusted")), true);
  assert.equal(labelsEqual(makeLabel(["a"], "trusted"), makeLabel(["a"], "attested")), false);
  assert.equal(labelsEqual(makeLabel(["a"], "trusted"), makeLabel(["a", "b"], "trusted")), false);
});

Deno.test("formatLabel() prints readers and trust the way explanations do", () => {
  assert.equal(formatLabel(TOP), "<finance,hr,public,staff | trusted>");
  assert.equal(formatLabel(makeLabel([], "suspicious")), "<nobody | suspicious>");
});

Deno.test("trustRank() orders suspicious < attested < trusted", () => {
  assert.deepEqual(TRUST_LEVELS, ["suspicious", "attested", "trusted"]);
  assert.deepEqual(TRUST_LEVELS.map(trustRank), [0, 1, 2]);
  assert.equal(lowerTrust("trusted", "attested"), "attested");
  assert.equal(lowerTrust("suspicious", "trusted"), "suspicious");
  assert.equal(isTrust("attested"), true);
  assert.equal(isTrust("untrusted"), false);
  assert.equal(isTrust(2), false);
});
