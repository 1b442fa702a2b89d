/**
 * canonicalJson()'s fast paths (ancestors in a list for the first 32
 * levels and a Set below, keys already in order written without sorting) against the walk they replaced
 * (tests/_canonical_json_reference.ts): the same text, the same error, the same reads in the same order, over random
 * values with hostile keys and texts, shared (not cyclic) objects, cycles, and nesting past the list's 32 levels.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ownDataObject } from "./_own_object.ts";
import { canonicalJson } from "../core/mod.ts";
import { referenceText } from "./_canonical_json_reference.ts";

/** Texts that stress the quoting: every escape, lone and paired surrogates, the 64-unit boundary, long ASCII. */
const TEXT = fc.oneof(
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.constantFrom("\ud800", "a\udc00b", "😀", "\u0000", "\u001f", "\u007f", '"', "\\", "\u2028", "é€", ""),
  fc.tuple(fc.nat({ max: 70 }), fc.constantFrom("", '"', "\n", "\ud800", "é")).map(([n, tail]) => "x".repeat(n) + tail),
  fc.string({ minLength: 60, maxLength: 200 }),
);

/** Keys: array indices and near-indices, prototype names, escapes, and plain words in any order. */
const KEY = fc.oneof(
  TEXT,
  fc.nat().map(String),
  fc.constantFrom("__proto__", "constructor", "toJSON", "0", "1", "10", "01", "-0", "1.5", "4294967294", "4294967295"),
  fc.constantFrom("a", "b", "ab", "B", "_", "z", "aa"),
);

const { value: VALUE } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 5 },
    TEXT,
    fc.double(),
    fc.constantFrom(-0, NaN, Infinity, 1e21, null, undefined, true, false),
    fc.bigInt(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.sparseArray(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc.tuple(fc.array(fc.tuple(KEY, tie("value")), { maxLength: 6 }), fc.boolean()).map(([entries, bare]) =>
    ownDataObject(entries, bare)
  ),
}));

/** A value wrapped `depth` levels deep, in arrays or objects, with `shared` placed twice at one level (not a cycle). */
const DEEP = fc.record({
  inner: VALUE,
  depth: fc.nat({ max: 90 }),
  keys: fc.array(KEY, { minLength: 1, maxLength: 6 }),
  shared: fc.nat({ max: 90 }),
});

function wrap(
  { inner, depth, keys, shared }: { inner: unknown; depth: number; keys: string[]; shared: number },
): unknown {
  let value = inner;
  const twice = { twice: inner };
  for (let level = 0; level < depth; level++) {
    const key = keys[level % keys.length];
    const item = level === shared ? [value, twice, twice] : value;
    value = level % 3 === 0 ? [item] : Object.defineProperty({}, key, { value: item, enumerable: true });
  }
  return value;
}

/** The text, or the error's name and message. */
function outcome(write: (value: unknown) => string | undefined, value: unknown): string | undefined {
  try {
    return write(value);
  } catch (error) {
    return `throws ${(error as Error).name}: ${(error as Error).message}`;
  }
}

const reference = (value: unknown) => referenceText(value, new Set());

Deno.test("canonicalJson() writes the reference walk's text for random values with hostile keys and texts", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      assert.equal(outcome(canonicalJson, value), outcome(reference, value));
    }),
    { numRuns: 3000 },
  );
});

Deno.test("canonicalJson() writes the reference walk's text for values nested past 32 levels, shared objects included", () => {
  fc.assert(
    fc.property(DEEP, (deep) => {
      const value = wrap(deep);
      assert.equal(outcome(canonicalJson, value), outcome(reference, value));
    }),
    { numRuns: 500 },
  );
});

Deno.test("canonicalJson() refuses a cycle at any depth, above or below the list's 32 levels, as the reference does", () => {
  fc.assert(
    fc.property(fc.nat({ max: 80 }), fc.nat({ max: 80 }), (top, length) => {
      const root: unknown[] = [];
      let at = root;
      const chain: unknown[][] = [root];
      for (let level = 0; level < top + length; level++) {
        const next: unknown[] = [{ sibling: "x" }];
        at.push(next);
        chain.push(next);
        at = next;
      }
      at.push({ back: chain[top] });
      const expected = "throws TypeError: Cannot serialise a value that contains itself";
      assert.equal(outcome(canonicalJson, root), expected);
      assert.equal(outcome(reference, root), expected);
    }),
    { numRuns: 200 },
  );
});

Deno.test("canonicalJson() reads each property once, in the reference walk's order, and stops at the same throw", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(KEY, fc.oneof(TEXT, fc.constant("throw"))), { maxLength: 8 }), (entries) => {
      const reads: string[][] = [[], []];
      let run = 0;
      const object: Record<string, unknown> = {};
      for (const [key, item] of entries) {
        Object.defineProperty(object, key, {
          get() {
            reads[run].push(key);
            if (item === "throw") throw new RangeError(`getter ${key}`);
            return { [key]: item };
          },
          enumerable: true,
          configurable: true,
        });
      }
      const fast = outcome(canonicalJson, object);
      run = 1;
      assert.equal(fast, outcome(reference, object));
      assert.deepEqual(reads[0], reads[1]);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("canonicalJson() stops at a cycle after the reads the reference makes, at any depth", () => {
  fc.assert(
    fc.property(fc.nat({ max: 70 }), fc.nat({ max: 70 }), (top, length) => {
      const reads = [0, 0];
      let run = 0;
      const levels: Record<string, unknown>[] = [];
      for (let level = 0; level <= top + length; level++) {
        levels.push(Object.defineProperty({}, "next", {
          get: () => (reads[run]++, level < top + length ? levels[level + 1] : levels[top]),
          enumerable: true,
        }));
      }
      const fast = outcome(canonicalJson, levels[0]);
      run = 1;
      assert.equal(fast, outcome(reference, levels[0]));
      assert.deepEqual(reads[0], reads[1]);
    }),
    { numRuns: 200 },
  );
});
