/**
 * canonicalCopy() replaces structuredClone + canonicalJson in makeToolCall: these properties pin that it writes the
 * same canonical text as canonicalJson (so fingerprints do not change), copies what structuredClone copied, and
 * refuses, fail closed, everything the old pair refused.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { ownDataObject } from "./_own_object.ts";
import { canonicalCopy, canonicalJson, COPY_DEPTH_LIMIT, fingerprintCall } from "../core/mod.ts";
import { makeToolCall } from "../guard/mod.ts";

/** Keys that stress the canonical order and the copy: array indices, near-indices and prototype names. */
const KEY = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
  fc.constantFrom("__proto__", "constructor", "toString", "0", "1", "2", "10", "9", "01", "-1", "1.5", " 1"),
  fc.constantFrom("4294967294", "4294967295", "99999999999", "a", "B", "é", "\u{1F600}"),
);

/** Plain data as callers pass it: JSON and what canonicalJson writes specially (undefined, bigint, NaN, -0, holes). */
const { value: VALUE } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.string({ unit: "binary", maxLength: 8 }),
    fc.string({ maxLength: 8 }),
    fc.double(),
    fc.integer(),
    fc.bigInt(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.sparseArray(tie("value"), { maxLength: 6 }),
    tie("object"),
  ),
  object: fc.tuple(fc.array(fc.tuple(KEY, tie("value")), { maxLength: 5 }), fc.boolean()).map(([entries, bare]) =>
    ownDataObject(entries, bare)
  ),
}));

const ARGS = fc.dictionary(KEY, VALUE, { maxKeys: 5 }).map((entries) => {
  const args: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(entries)) {
    Object.defineProperty(args, key, { value: item, enumerable: true, configurable: true, writable: true });
  }
  return args;
});

function assertDeeplyFrozen(value: unknown, original: unknown): void {
  if (value === null || typeof value !== "object") return;
  assert.ok(Object.isFrozen(value), "every object of the copy is frozen");
  assert.notEqual(value, original, "the copy shares no object with the original");
  for (const key of Object.keys(value)) {
    assertDeeplyFrozen((value as Record<string, unknown>)[key], (original as Record<string, unknown>)[key]);
  }
}

Deno.test("canonicalCopy() writes exactly canonicalJson's text for any plain data", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      if (value === undefined) return;
      assert.equal(canonicalCopy(value).json, canonicalJson(value));
    }),
    { numRuns: 2000 },
  );
  // The order JSON.stringify gives an object built from sorted keys: array indices first, numerically.
  assert.equal(canonicalCopy({ b: 1, 10: 2, 9: 3, "01": 4, a: 5 }).json, '{"9":3,"10":2,"01":4,"a":5,"b":1}');
  assert.equal(canonicalCopy({ 4294967295: 1, 4294967294: 2 }).json, '{"4294967294":2,"4294967295":1}');
  assert.equal(canonicalCopy([1, , undefined, NaN, -0, 2n, -Infinity]).json, '[1,null,null,"NaN",0,"2","-Infinity"]');
  assert.equal(canonicalCopy(JSON.parse('{"__proto__": {"x": 1}}')).json, '{"__proto__":{"x":1}}');
  assert.equal(canonicalCopy("\ud800").json, canonicalJson("\ud800"));
});

Deno.test("canonicalCopy() copies what structuredClone copied, holes and undefined included, and freezes every part", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      const { value: copy } = canonicalCopy(value);
      assert.deepStrictEqual(copy, structuredClone(value));
      assertDeeplyFrozen(copy, value);
    }),
    { numRuns: 2000 },
  );
  const parsed = canonicalCopy(JSON.parse('{"__proto__": {"to": "x"}, "a": 1}')).value as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.deepEqual(Object.keys(parsed), ["__proto__", "a"]);
  const sparse = canonicalCopy([1, , 3]).value as unknown[];
  assert.equal(1 in sparse, false);
  assert.equal(sparse.length, 3);
});

Deno.test("makeToolCall() fingerprints exactly as fingerprintCall() does on any plain arguments", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 6 }), ARGS, (tool, args) => {
      const call = makeToolCall(tool, args);
      assert.equal(call.problem, undefined);
      assert.equal(call.fingerprint, fingerprintCall(tool, args));
      assert.deepStrictEqual(call.args, structuredClone(args));
      assertDeeplyFrozen(call.args, args);
    }),
    { numRuns: 1000 },
  );
});

Deno.test("canonicalCopy() refuses cycles and objects that are not plain data with canonicalJson's own messages", () => {
  const looped: Record<string, unknown> = { to: "x" };
  looped.self = [looped];
  class Box {
    x = 1;
  }
  const values: unknown[] = [
    looped,
    { when: new Date(0) },
    { to: new Map([["a", 1]]) },
    { to: new Set([1]) },
    { to: new String("x") },
    { to: new Uint8Array(2) },
    { to: new Box() },
    { to: new Error("x") },
    { to: [Object.create({ inherited: 1 })] },
  ];
  for (const value of values) {
    let expected = "";
    try {
      canonicalJson(value);
    } catch (error) {
      expected = (error as Error).message;
    }
    // A class instance used to pass as a plain object after structuredClone; now it is refused as the rest.
    if (!expected) expected = "Cannot serialise a Box object: expected plain JSON data";
    assert.throws(
      () => canonicalCopy(value),
      (error: unknown) => error instanceof TypeError && error.message === expected,
    );
  }
  // The same object twice, side by side, is not a cycle.
  const shared = { x: 1 };
  assert.equal(canonicalCopy({ a: shared, b: [shared] }).json, '{"a":{"x":1},"b":[{"x":1}]}');
});

Deno.test("makeToolCall() blocks every call whose arguments are not plain data, whatever part is not", () => {
  const nested = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = i % 2 ? { next: value } : [value];
    return value;
  };
  const throwing = Object.defineProperty({}, "to", {
    enumerable: true,
    get() {
      throw new Error("gotcha");
    },
  });
  const bad = fc.oneof(
    fc.constant(() => 1),
    fc.constant(Symbol("s")),
    fc.constant(new Date(0)),
    fc.constant(new Map()),
    fc.constant(new (class Box {})()),
    fc.constant(throwing),
    fc.constant(nested(COPY_DEPTH_LIMIT + 1, "x")),
    fc.constant(
      new Proxy({}, {
        ownKeys() {
          throw new Error("trap");
        },
      }),
    ),
  );
  fc.assert(fc.property(ARGS, fc.array(KEY, { minLength: 1, maxLength: 3 }), bad, (args, path, poison) => {
    // Plant the poison somewhere inside otherwise plain arguments.
    let planted: unknown = poison;
    for (const key of path.slice(1).reverse()) {
      const holder: Record<string, unknown> = {};
      Object.defineProperty(holder, key, { value: planted, enumerable: true, configurable: true, writable: true });
      planted = holder;
    }
    const poisoned = { ...args };
    Object.defineProperty(poisoned, path[0], { value: planted, enumerable: true, configurable: true, writable: true });
    const call = makeToolCall("send_email", poisoned);
    assert.equal(typeof call.problem, "string");
    assert.equal(call.fingerprint, "");
    assert.deepEqual(call.args, {});
  }));
  assert.equal(makeToolCall("t", { a: nested(1_000, "x") }).problem, undefined);
  assert.match(
    makeToolCall("t", { cb: () => 1 }).problem!,
    /^Cannot copy the arguments: The value at cb is a function/,
  );
  assert.equal(makeToolCall("t", throwing).problem, "Cannot copy the arguments: gotcha");
});

Deno.test("makeToolCall() reads each argument once, so a getter or Proxy cannot show the copy one value and the fingerprint another", () => {
  let reads = 0;
  const drifting = Object.defineProperty({}, "to", {
    enumerable: true,
    get() {
      return `user${++reads}@corp.example`;
    },
  });
  const call = makeToolCall("send_email", drifting);
  assert.equal(reads, 1);
  assert.deepEqual(call.args, { to: "user1@corp.example" });
  assert.equal(call.fingerprint, fingerprintCall("send_email", { to: "user1@corp.example" }));

  const gets = new Map<PropertyKey, number>();
  const proxy = new Proxy({ to: "a@corp.example", list: [1, 2] }, {
    get(target, key, receiver) {
      gets.set(key, (gets.get(key) ?? 0) + 1);
      const value = Reflect.get(target, key, receiver);
      return typeof value === "string" ? `${value}#${gets.get(key)}` : value;
    },
  });
  const proxied = makeToolCall("send_email", proxy);
  assert.deepEqual([...gets.values()], [1, 1]);
  assert.equal(proxied.fingerprint, fingerprintCall("send_email", proxied.args));
});
