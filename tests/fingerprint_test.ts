import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, parsePolicy } from "../mod.ts";
import { canonicalJson, fingerprintCall } from "../core/mod.ts";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("canonicalJson() sorts keys at every depth and drops insignificant space", () => {
  assert.equal(canonicalJson({ b: 1, a: [true, null, { d: "x", c: 2 }] }), '{"a":[true,null,{"c":2,"d":"x"}],"b":1}');
  assert.equal(canonicalJson({ a: undefined, f: () => 1, b: [undefined] }), '{"b":[null]}');
  assert.equal(canonicalJson("text"), '"text"');
});

Deno.test("canonicalJson() refuses a value that contains itself", () => {
  const looped: Record<string, unknown> = { to: "alice@corp.example" };
  looped.self = looped;
  assert.throws(
    () => canonicalJson(looped),
    (error: unknown) => error instanceof TypeError && error.message === "Cannot serialise a value that contains itself",
  );
  // The same object twice, side by side, is not a cycle.
  const shared = { x: 1 };
  assert.equal(canonicalJson({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}');
});

Deno.test("canonicalJson() refuses objects that are not plain data", () => {
  for (
    const [value, name] of [
      [new Date(0), "Date"],
      [new Map([["to", "eve@attacker.example"]]), "Map"],
      [new String("eve@attacker.example"), "String"],
    ] as const
  ) {
    assert.throws(
      () => canonicalJson({ to: value }),
      (error: unknown) =>
        error instanceof TypeError && error.message === `Cannot serialise a ${name} object: expected plain JSON data`,
    );
  }
  assert.equal(canonicalJson(Object.assign(Object.create(null), { b: 1, a: 2 })), '{"a":2,"b":1}');
});

Deno.test("fingerprintCall() is the sha256 of the canonical JSON of {tool, args}", async () => {
  const args = { to: "alice@corp.example", body: "Hi" };
  const expected = await sha256Hex('{"args":{"body":"Hi","to":"alice@corp.example"},"tool":"send_email"}');
  assert.equal(fingerprintCall("send_email", args), expected);
  assert.match(expected, /^[0-9a-f]{64}$/);
});

Deno.test("fingerprintCall() does not depend on key order", () => {
  fc.assert(fc.property(
    fc.dictionary(fc.string(), fc.jsonValue()).chain((args) =>
      fc.tuple(
        fc.constant(args),
        fc.shuffledSubarray(Object.keys(args), { minLength: Object.keys(args).length }),
      )
    ),
    ([args, order]) => {
      const reordered = Object.fromEntries(order.map((key) => [key, args[key]]));
      assert.equal(fingerprintCall("tool", reordered), fingerprintCall("tool", args));
    },
  ));
});

Deno.test("fingerprintCall() changes when any argument or the tool changes", () => {
  fc.assert(fc.property(
    fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
    fc.jsonValue(),
    fc.nat(),
    (args, replacement, pick) => {
      const keys = Object.keys(args);
      const key = keys[pick % keys.length];
      fc.pre(canonicalJson(replacement) !== canonicalJson(args[key]));
      const changed = { ...args, [key]: replacement };
      assert.notEqual(fingerprintCall("tool", changed), fingerprintCall("tool", args));
      assert.notEqual(fingerprintCall("other_tool", args), fingerprintCall("tool", args));
      const { [key]: _, ...removed } = args;
      assert.notEqual(fingerprintCall("tool", removed), fingerprintCall("tool", args));
    },
  ));
});

Deno.test("fingerprintCall() tells apart values that only a non-canonical encoding would confuse", () => {
  const pairs: Array<[unknown, unknown]> = [
    [{ amount: 120 }, { amount: "120" }],
    [{ to: ["a", "b"] }, { to: ["b", "a"] }],
    [{ to: "a" }, { to: ["a"] }],
    [{ note: null }, {}],
    [{ a: { b: 1 } }, { "a.b": 1 }],
  ];
  for (const [a, b] of pairs) assert.notEqual(fingerprintCall("t", a), fingerprintCall("t", b), canonicalJson(a));
});

Deno.test("Guard.decide() fingerprints the exact call it judged", () => {
  const guard = new Guard(parsePolicy("version: 1\ntools:\n  send_email: {output: trusted}\n"));
  const decision = guard.decide("send_email", { to: "alice@corp.example", body: "Hi" });
  assert.equal(decision.fingerprint, fingerprintCall("send_email", { body: "Hi", to: "alice@corp.example" }));
});

Deno.test("fingerprintCall() never lets __proto__, constructor or prototype keys make two different calls share a fingerprint", () => {
  const key = fc.constantFrom("__proto__", "constructor", "prototype", "a", "toString");
  const json = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 3 }),
      tie("object"),
    ),
    object: fc.array(fc.tuple(key, tie("value")), { maxLength: 3 }),
  }));
  /** Build an object with own properties, as JSON.parse does (so "__proto__" is an ordinary key). */
  const build = (value: unknown): unknown => {
    if (Array.isArray(value) && value.every((item) => Array.isArray(item) && item.length === 2)) {
      const object: Record<string, unknown> = {};
      for (const [k, v] of value as Array<[string, unknown]>) {
        Object.defineProperty(object, k, { value: build(v), enumerable: true, configurable: true, writable: true });
      }
      return object;
    }
    return Array.isArray(value) ? value.map(build) : value;
  };
  fc.assert(
    fc.property(json.object, json.object, (a, b) => {
      const [x, y] = [build(a), build(b)];
      const same = JSON.stringify(sortedEntries(x)) === JSON.stringify(sortedEntries(y));
      assert.equal(fingerprintCall("t", x) === fingerprintCall("t", y), same);
    }),
  );
  assert.notEqual(fingerprintCall("t", JSON.parse('{"__proto__": {"to": "x"}}')), fingerprintCall("t", {}));
  assert.equal(canonicalJson(JSON.parse('{"__proto__": 1}')), '{"__proto__":1}');
});

/** A value with every object's own entries sorted, for comparing what two values hold. */
function sortedEntries(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedEntries);
  if (value && typeof value === "object") {
    return Object.keys(value).sort().map((key) => [key, sortedEntries((value as Record<string, unknown>)[key])]);
  }
  return value;
}
