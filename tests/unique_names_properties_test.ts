/** uniqueNames() keeps each name once, at its first place: what a Set of the names lists (its definition). */
import assert from "node:assert/strict";
import fc from "fast-check";
import { uniqueNames } from "../guard/source.ts";

Deno.test("uniqueNames() lists each source name once, in the order a Set of the names lists them", () => {
  const name = fc.oneof(fc.constantFrom("user", "system", "tool:a", "tool:b", ""), fc.string({ maxLength: 3 }));
  fc.assert(
    fc.property(fc.array(name, { maxLength: 30 }), (names) => {
      assert.deepEqual(uniqueNames(names.map((text) => ({ name: text }))), [...new Set(names)]);
    }),
    { numRuns: 1000 },
  );
});
