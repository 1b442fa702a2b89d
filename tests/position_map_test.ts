import assert from "node:assert/strict";
import fc from "fast-check";
import { PositionMap } from "../harvest/position_map.ts";

Deno.test("PositionMap answers as a Map of the same keys and values, across its growth", () => {
  const key = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 2 ** 31 - 1 }));
  fc.assert(
    fc.property(
      fc.array(fc.tuple(key, fc.nat()), { maxLength: 2000 }),
      fc.array(key, { maxLength: 50 }),
      (sets, asks) => {
        const map = new PositionMap();
        const expected = new Map<number, number>();
        for (const [k, v] of sets) {
          map.set(k, v);
          expected.set(k, v);
        }
        assert.equal(map.size, expected.size);
        for (const k of [...expected.keys(), ...asks]) assert.equal(map.get(k), expected.get(k) ?? -1);
      },
    ),
    { numRuns: 200 },
  );
});
