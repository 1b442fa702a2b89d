/**
 * canonicalJson() is the text that call fingerprints and audit hashes rest on: equal values give equal text whatever
 * the order of their keys, the text reads back as the value, and its order of keys (array indices first, in numeric
 * order, then the others sorted) is pinned, so a rewrite that changed any of it would change every stored hash.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson } from "../core/mod.ts";
import { readBack } from "./_json_read_back.ts";

/** The same value with every object's keys inserted in another order. */
function reordered(value: unknown, flip: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => reordered(item, flip));
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  const copy: Record<string, unknown> = {};
  for (const key of flip ? keys.reverse() : keys) {
    Object.defineProperty(copy, key, {
      value: reordered((value as Record<string, unknown>)[key], flip),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

const key = fc.oneof(
  fc.string(),
  fc.nat().map(String),
  fc.constantFrom("__proto__", "", "0", "01", "-1", "9", "10", "4294967294", "4294967295", "\ud800", "\u2028"),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.string({ unit: "binary" }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((number) => !Object.is(number, -0)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(key, tie("value"), { maxKeys: 5 }),
  ),
})).value;

Deno.test("canonicalJson() gives equal text for equal values in any key order, and the text reads back as the value", () => {
  fc.assert(
    fc.property(json, (value) => {
      const text = canonicalJson(value);
      assert.equal(canonicalJson(reordered(value, true)), text);
      // Read back by the JSON grammar: V8's JSON.parse can misread an escaped key (tests/audit_text_properties_test.ts).
      assert.equal(canonicalJson(readBack(text)), text);
      assert.deepEqual(readBack(text), readBack(JSON.stringify(value)));
    }),
    { numRuns: 1000 },
  );
});

Deno.test("canonicalJson() lists array-index keys first in numeric order, then the others sorted", () => {
  const input = JSON.parse('{"b":1,"10":2,"9":3,"4294967295":4,"4294967294":5,"01":6,"__proto__":7,"":8}');
  assert.equal(
    canonicalJson(input),
    '{"9":3,"10":2,"4294967294":5,"":8,"01":6,"4294967295":4,"__proto__":7,"b":1}',
  );
  assert.equal(
    canonicalJson({ b: [undefined, () => 1], a: { d: undefined, c: 2n, e: NaN, f: -Infinity } }),
    '{"a":{"c":"2","e":"NaN","f":"-Infinity"},"b":[null,null]}',
  );
});

Deno.test("canonicalJson() refuses a value inside itself and objects that are not plain data", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  assert.throws(() => canonicalJson(cycle), {
    name: "TypeError",
    message: "Cannot serialise a value that contains itself",
  });
  for (const [bad, name] of [[[new Date(0)], "Date"], [{ when: new Map() }, "Map"], [Object(1), "Number"]] as const) {
    assert.throws(() => canonicalJson(bad), {
      name: "TypeError",
      message: `Cannot serialise a ${name} object: expected plain JSON data`,
    });
  }
  const shared = { x: 1 };
  assert.equal(canonicalJson({ a: shared, b: [shared] }), '{"a":{"x":1},"b":[{"x":1}]}');
});
