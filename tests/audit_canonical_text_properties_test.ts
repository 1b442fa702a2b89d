/**
 * The audit chain writes an event's canonical JSON with the runtime's JSON.stringify over a key-sorted copy
 * (canonicalText): these properties pin it to canonicalJson, its reference, over plain data with keys and values
 * that stress order and escapes, frozen data as the guard makes it, and what the copy hands back to the reference
 * (objects that are not plain data, cycles, deep nesting, a polluted prototype).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson } from "../core/mod.ts";
import { Guard } from "../guard/mod.ts";
import { canonicalText } from "../adapters/audit/_canonical_text.ts";
import { benchPolicy } from "../adapters/cli/bench/serve_load.ts";
import { KEY, VALUE } from "./_canonical_values.ts";
import { ownDataObject } from "./_own_object.ts";

/** The reference's answer: its text, or the error it throws. */
function outcome(write: (value: unknown) => string | undefined, value: unknown): unknown {
  try {
    return { text: write(value) };
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

/** Plain data with what an object leaves out (functions, symbols) and what the copy gives back (a Date, a class). */
const { value: MIXED } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    VALUE,
    fc.constantFrom(() => 1, Symbol("s"), new Date(0), Object(1n), new (class Point {})()),
    fc.tuple(fc.array(tie("value"), { maxLength: 4 }), fc.boolean()).map(([items, frozen]) =>
      frozen ? Object.freeze(items) : items
    ),
    tie("object"),
  ),
  object: fc.tuple(fc.array(fc.tuple(KEY, tie("value")), { maxLength: 5 }), fc.boolean()).map(([entries, bare]) =>
    ownDataObject(entries, bare)
  ),
}));

Deno.test("canonicalText() writes what canonicalJson() writes, and refuses what it refuses (property)", () => {
  fc.assert(
    fc.property(VALUE, (value) => {
      assert.equal(canonicalText(value), canonicalJson(value));
    }),
    { numRuns: 3000 },
  );
  fc.assert(
    fc.property(MIXED, (value) => {
      assert.deepEqual(outcome(canonicalText, value), outcome(canonicalJson, value));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("canonicalText() writes a guard's frozen decision as canonicalJson() does", () => {
  const guard = new Guard(benchPolicy());
  guard.record("read_inbox", "Message from carol1.2@corp.example about the report, see https://corp.example/r/1");
  for (const to of ["carol1.2@corp.example", "someone@else.example"]) {
    const event = { kind: "decision", at: "2026-12-02T00:00:00.000Z", decision: guard.decide("send_email", { to }) };
    assert.equal(canonicalText(event), canonicalJson(event));
  }
});

Deno.test("canonicalText() hands cycles, deep values and a polluted prototype to canonicalJson()", () => {
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = { back: [cycle] };
  assert.throws(() => canonicalText(cycle), {
    name: "TypeError",
    message: "Cannot serialise a value that contains itself",
  });
  // Deeper than the copy goes: the same text, written by the reference.
  let deep: unknown = { z: 1, a: [NaN] };
  for (let i = 0; i < 300; i++) deep = i % 2 ? [deep] : { b: deep, a: i };
  assert.equal(canonicalText(deep), canonicalJson(deep));
  const value = { b: [1, { d: 2, c: 3 }], a: "x" };
  Object.defineProperty(Object.prototype, "toJSON", { value: () => "polluted", configurable: true, writable: true });
  try {
    assert.equal(canonicalText(value), '{"a":"x","b":[1,{"c":3,"d":2}]}');
  } finally {
    delete (Object.prototype as { toJSON?: unknown }).toJSON;
  }
  assert.equal(canonicalText({ __proto__: null, "10": 1, "9": 2, b: undefined, a: () => 0 }), '{"9":2,"10":1}');
  // A `__proto__` key is an own property of the copy, also where Object.prototype has the setter (Node has it).
  const parsed = JSON.parse('{"__proto__":{"b":1,"a":2},"0":[]}');
  assert.equal(canonicalText(parsed), '{"0":[],"__proto__":{"a":2,"b":1}}');
  Object.defineProperty(Object.prototype, "__proto__", {
    get() {
      return Object.getPrototypeOf(this);
    },
    set(prototype) {
      Object.setPrototypeOf(this, prototype);
    },
    configurable: true,
  });
  try {
    assert.equal(canonicalText(parsed), '{"0":[],"__proto__":{"a":2,"b":1}}');
  } finally {
    delete (Object.prototype as { __proto__?: unknown }).__proto__;
  }
});
