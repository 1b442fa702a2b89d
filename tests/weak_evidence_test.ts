import assert from "node:assert/strict";
import { weakEvidence } from "../harvest/mod.ts";

Deno.test("weakEvidence() says why short, small or common values are weak evidence", () => {
  assert.equal(weakEvidence("1"), "at most two characters");
  assert.equal(weakEvidence(" o k "), "at most two characters");
  assert.equal(weakEvidence("999"), "a number below 1000");
  assert.equal(weakEvidence("$12.50"), "a number below 1000");
  assert.equal(weakEvidence("-5"), "at most two characters");
  assert.equal(weakEvidence("YES"), "a common word");
  assert.equal(weakEvidence("tomorrow"), "a common word");
  assert.equal(weakEvidence("Alice"), "a single short word");
});

Deno.test("weakEvidence() finds nothing weak in addresses, large amounts and longer text", () => {
  for (const strong of ["1000", "1,000.00", "USD 1,000", "eve@x.example", "DE89370400440532013000", "Alice Smith"]) {
    assert.equal(weakEvidence(strong), undefined, strong);
  }
  assert.equal(weakEvidence("Christopher"), undefined);
});
