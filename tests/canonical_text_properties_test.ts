/**
 * canonicalJson() walks for its text alone (no copy, no freeze, no paths): these properties pin it to its definition
 * (JSON.stringify of a copy whose keys were added in sorted order), show that its text is a fixed point (what it reads
 * back as has the same canonical text, and JSON.stringify writes that text again: what lets linkText() hash and keep
 * an event's text without reading it back), and that it reads and refuses exactly as canonicalCopy() does.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { VALUE } from "./_canonical_values.ts";
import { canonicalCopy, canonicalJson } from "../core/mod.ts";
import { readBack } from "./_json_read_back.ts";

/** The definition: JSON.stringify of a copy with every object's keys added in sorted order (code units). */
function defined(value: unknown): string | undefined {
  const sorted = (item: unknown): unknown => {
    if (typeof item === "bigint" || (typeof item === "number" && !Number.isFinite(item))) return String(item);
    if (item === null || typeof item !== "object") return item;
    if (Array.isArray(item)) return Array.from(item, (entry) => entry === undefined ? null : sorted(entry));
    const copy: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(item).sort()) copy[key] = sorted((item as Record<string, unknown>)[key]);
    return copy;
  };
  return JSON.stringify(sorted(value));
}

Deno.test("canonicalJson() writes what JSON.stringify writes of a copy with keys added in sorted order", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      assert.equal(canonicalJson(value), defined(value));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("canonicalJson()'s text reads back as a value with the same canonical text, which JSON.stringify writes too", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      const text = canonicalJson(value);
      fc.pre(text !== undefined);
      const plain = readBack(text);
      assert.equal(canonicalJson(plain), text);
      assert.equal(JSON.stringify(plain), text);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("canonicalCopy() writes canonicalJson's text, and both read each property once, in Object.keys order", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      assert.equal(canonicalCopy(value).json, canonicalJson(value) ?? "undefined");
    }),
    { numRuns: 1000 },
  );
  const reads: string[] = [];
  const watched = (name: string, value: unknown) => ({
    get() {
      reads.push(name);
      return value;
    },
    enumerable: true,
  });
  const inner = Object.defineProperties({}, { z: watched("inner.z", 1), "1": watched("inner.1", [2]) });
  const outer = Object.defineProperties({}, { b: watched("b", inner), a: watched("a", "x"), "0": watched("0", null) });
  const expected = '{"0":null,"a":"x","b":{"1":[2],"z":1}}';
  for (const write of [canonicalJson, (value: unknown) => canonicalCopy(value).json]) {
    reads.length = 0;
    assert.equal(write(outer), expected);
    assert.deepEqual(reads, ["0", "b", "inner.1", "inner.z", "a"]);
  }
});

Deno.test("canonicalJson() refuses cycles and non-plain objects with canonicalCopy's messages, and leaves out functions", () => {
  const cycle: unknown[] = [];
  cycle.push({ back: cycle });
  const cases: Array<[unknown, string]> = [
    [cycle, "Cannot serialise a value that contains itself"],
    [{ a: [new Date(0)] }, "Cannot serialise a Date object: expected plain JSON data"],
    [{ a: new (class Point {})() }, "Cannot serialise a Point object: expected plain JSON data"],
    [[Object(1n)], "Cannot serialise a BigInt object: expected plain JSON data"],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => canonicalJson(value), { name: "TypeError", message });
    assert.throws(() => canonicalCopy(value), { name: "TypeError", message });
  }
  assert.equal(canonicalJson({ f() {}, s: Symbol("s"), a: [() => 1, Symbol("t")], u: undefined }), '{"a":[null,null]}');
  // The same object twice is not a cycle.
  const shared = { x: 1 };
  assert.equal(canonicalJson([shared, { shared }]), '[{"x":1},{"shared":{"x":1}}]');
});

Deno.test("readBack() reads what JSON.parse reads when no key needs an escape", () => {
  const plainKey = fc.string({ maxLength: 6 }).filter((key) => JSON.stringify(key) === `"${key}"`);
  const json = fc.jsonValue().map((value) => JSON.stringify(value));
  const keyed = fc.dictionary(plainKey, fc.jsonValue({ maxDepth: 2 })).map((value) => JSON.stringify(value));
  fc.assert(
    fc.property(fc.oneof(json, keyed), (text) => {
      fc.pre(!/[{,]"[^"]*\\/.test(text));
      assert.deepEqual(readBack(text), JSON.parse(text));
      assert.equal(JSON.stringify(readBack(text)), text);
    }),
    { numRuns: 500 },
  );
});
