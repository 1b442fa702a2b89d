import assert from "node:assert/strict";
import fc from "fast-check";
import { CompactPairs } from "../harvest/compact_pairs.ts";

Deno.test("CompactPairs gives back every pair appended, small, at the edges of its widths or kept aside, across its blocks", () => {
  const valueArb = fc.oneof(
    fc.integer({ min: 0, max: 70 }),
    fc.integer({ min: 65_530, max: 65_540 }),
    fc.integer({ min: 0xff_0000 - 5, max: 0xff_0000 + 5 }),
    fc.integer({ min: 0xfe_fff0, max: 0xff_ffff + 5 }),
    fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  );
  fc.assert(
    fc.property(
      fc.array(fc.tuple(valueArb, valueArb), { maxLength: 3000 }),
      fc.integer({ min: 0, max: 140_000 }),
      (pairs, padding) => {
        const cells = new CompactPairs();
        // Padding first, so that the pairs land in the first block, across its growth, or in later blocks.
        for (let at = 0; at < padding; at++) cells.append(at, at % 7, at % 5);
        pairs.forEach(([first, second], k) => cells.append(padding + k, first, second));
        assert.equal(cells.length, padding + pairs.length);
        pairs.forEach(([first, second], k) => {
          assert.equal(cells.first(padding + k), first);
          assert.equal(cells.second(padding + k), second);
        });
        for (let at = 0; at < padding; at += 997) {
          assert.deepEqual([cells.first(at), cells.second(at)], [at % 7, at % 5]);
        }
      },
    ),
    { numRuns: 60 },
  );
});
