/**
 * canonicalJson() writes exactly what its definition does: `JSON.stringify` of a copy of the value with every
 * object's keys sorted (undefined and functions dropped from objects, bigints and non-finite numbers as strings),
 * for any value, the odd keys (array indices, `__proto__`, lone surrogates) and odd leaves included; and it refuses
 * what the definition refuses, with the same message. Fingerprints and audit hashes rest on it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson } from "../core/mod.ts";

/** The definition: a sorted copy, then JSON.stringify. */
function definedJson(value: unknown): string {
  return JSON.stringify(sortedCopy(value, new Set()));
}

function sortedCopy(value: unknown, seen: Set<unknown>): unknown {
  if (value === null || typeof value !== "object") {
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number" && !Number.isFinite(value)) return String(value);
    return value;
  }
  if (seen.has(value)) throw new TypeError("Cannot serialise a value that contains itself");
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) {
    throw new TypeError(
      `Cannot serialise a ${value.constructor?.name ?? "non-plain"} object: expected plain JSON data`,
    );
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sortedCopy(item === undefined ? null : item, seen));
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined && typeof item !== "function") sorted[key] = sortedCopy(item, seen);
    }
    return sorted;
  } finally {
    seen.delete(value);
  }
}

const key = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.nat().map(String),
  fc.constantFrom(
    "__proto__",
    "",
    "0",
    "00",
    "01",
    "-1",
    "1.5",
    "1e3",
    "9",
    "10",
    "4294967294",
    "4294967295",
    "9007199254740993",
    "toJSON",
    "\ud800",
    "\u2028",
  ),
);
const leaf = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, () => 1, Symbol("s")),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value")),
    fc.sparseArray(tie("value"), { maxLength: 5 }),
    fc.dictionary(key, tie("value")),
    fc.dictionary(key, tie("value")).map((entries) => Object.assign(Object.create(null), entries)),
  ),
})).value;

Deno.test("canonicalJson() writes what JSON.stringify of a key-sorted copy writes, for any value", () => {
  fc.assert(
    fc.property(value, (input) => {
      assert.equal(canonicalJson(input), definedJson(input));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("canonicalJson() lists array-index keys first in numeric order, as the sorted copy did", () => {
  const input = JSON.parse('{"b":1,"10":2,"9":3,"4294967295":4,"4294967294":5,"01":6,"__proto__":7,"":8}');
  assert.equal(canonicalJson(input), definedJson(input));
  assert.equal(
    canonicalJson(input),
    '{"9":3,"10":2,"4294967294":5,"":8,"01":6,"4294967295":4,"__proto__":7,"b":1}',
  );
});

Deno.test("canonicalJson() refuses what the definition refuses, with the same message", () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  const shared = { x: 1 };
  for (const bad of [cycle, [new Date(0)], { when: new Map() }, new (class Thing {})(), Object(1)]) {
    assert.throws(() => canonicalJson(bad), (error: Error) => {
      assert.throws(() => definedJson(bad), { name: error.name, message: error.message });
      return error instanceof TypeError;
    });
  }
  // A value met twice, not inside itself, is fine.
  assert.equal(canonicalJson({ a: shared, b: [shared] }), '{"a":{"x":1},"b":[{"x":1}]}');
  for (const top of [undefined, () => 1, Symbol("s")]) assert.equal(canonicalJson(top), definedJson(top));
});
