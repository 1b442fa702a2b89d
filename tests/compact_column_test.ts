import assert from "node:assert/strict";
import fc from "fast-check";
import { CompactColumn } from "../harvest/compact_column.ts";

Deno.test("CompactColumn gives back every value appended, small or kept aside, across its blocks", () => {
  const valueArb = fc.oneof(
    fc.integer({ min: 0, max: 70 }),
    fc.integer({ min: 65_530, max: 65_540 }),
    fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  );
  fc.assert(
    fc.property(fc.array(valueArb, { maxLength: 3000 }), fc.integer({ min: 0, max: 140_000 }), (values, padding) => {
      const column = new CompactColumn();
      // Padding first, so that the values land in the first block, across its growth, or in later blocks.
      for (let at = 0; at < padding; at++) column.append(at, at % 7);
      values.forEach((value, k) => column.append(padding + k, value));
      assert.equal(column.length, padding + values.length);
      values.forEach((value, k) => assert.equal(column.get(padding + k), value));
      for (let at = 0; at < padding; at += 997) assert.equal(column.get(at), at % 7);
    }),
    { numRuns: 60 },
  );
});
