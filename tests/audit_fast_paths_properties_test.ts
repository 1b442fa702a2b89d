/**
 * A step's long string (a tool's output, a message) is escaped once and the input's and record's texts are written
 * around it: these properties pin each fast path to what it replaces, over hostile objects (keys and strings with
 * escapes, lone surrogates, the stand-in's own text, `__proto__` and `toJSON` keys): jsonAround() to JSON.stringify
 * and canonicalJson, linkText() given the written string to linkText() without it, indexOfLong() to indexOf(), and
 * auditHash() of a text in pieces to the reference sha256 of the text whole.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson, sha256Hex } from "../core/mod.ts";
import { type AuditEvent, jsonAround, linkText } from "../adapters/audit/mod.ts";
import { indexOfLong } from "../adapters/store/_index_of_long.ts";
import { auditHash } from "../adapters/audit/_audit_hash.ts";
import { readBack } from "./_json_read_back.ts";

const AT = "2026-12-01T23:00:00.000Z";
/** The text jsonAround() stands in with, and strings that hold it or look like it. */
const STAND_INS = ["\u0000pab: a long string goes here\u0000", "pab: a long string goes here", '"\\u0000pab'];
const TEXT = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom("\ud800", "\udc00x", '"', "\\", "\n\u2028", "é€😀", "\u0000", ...STAND_INS),
);
const LONG = fc.tuple(TEXT, fc.integer({ min: 1, max: 80 })).map(([seed, times]) => (seed || "x").repeat(times));
const KEY = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom("output", "text", "__proto__", "toJSON", "0", "10", "", "\ud800", '"', ...STAND_INS),
);
const { value: VALUE } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    TEXT,
    fc.integer(),
    fc.constantFrom(null, true, -0, 1e21),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(KEY, tie("value"), { maxKeys: 4 }),
  ),
}));

/** An object holding `value` under `key` among other keys (as JSON parses it), or one that does not hold it. */
const HOLDER = fc.record({
  before: fc.dictionary(KEY, VALUE, { maxKeys: 4 }),
  after: fc.dictionary(KEY, VALUE, { maxKeys: 3 }),
  key: KEY,
  value: LONG,
  holds: fc.boolean(),
}).map(({ before, after, key, value, holds }) => {
  const object = JSON.parse(JSON.stringify({ ...before, [key]: holds ? value : `${value}!`, ...after }));
  return { object: object as Record<string, unknown>, written: { key, value, json: JSON.stringify(value) } };
});

Deno.test("jsonAround() cuts the text JSON.stringify and canonicalJson write where the string goes (property)", () => {
  let cut = 0;
  fc.assert(
    fc.property(HOLDER, ({ object, written }) => {
      for (const write of [JSON.stringify, canonicalJson]) {
        const around = jsonAround(object, written, write);
        if (around === undefined) continue;
        assert.equal(around.before + written.json + around.after, write(object));
        cut++;
      }
    }),
    { numRuns: 1000 },
  );
  assert.ok(cut > 500, `only ${cut} texts were written around the string`);
});

Deno.test("jsonAround() gives up on what it cannot cut soundly", () => {
  const value = "y".repeat(600);
  const written = { key: "output", value, json: JSON.stringify(value) };
  const around = (object: object) => jsonAround(object, written, JSON.stringify);
  assert.notEqual(around({ kind: "result", output: value }), undefined);
  assert.equal(around({ kind: "result", output: "other" }), undefined, "not the string");
  assert.equal(around({ kind: "result" }), undefined, "no such key");
  assert.equal(around(Object.create({ output: value })), undefined, "inherited");
  assert.equal(
    around(
      new (class Event {
        output = value;
      })(),
    ),
    undefined,
    "not a plain object",
  );
  assert.equal(around({ output: value, toJSON: () => "x" }), undefined, "its own JSON");
  assert.equal(around({ output: value, note: STAND_INS[0] }), undefined, "the stand-in elsewhere");
  assert.equal(around({ output: value, [STAND_INS[0]]: 1 }), undefined, "the stand-in as a key");
  const bare = Object.assign(Object.create(null), { output: value, kind: "result" });
  assert.equal(around(bare)?.before, '{"output":');
});

/** Events holding a long string under a key, beside any details, as a host writes them. */
const EVENT = HOLDER.map(({ object, written }) => ({
  event: { ...object, kind: "result", at: AT } as AuditEvent,
  written,
}));

Deno.test("linkText() given the written string writes the record it writes without it (property)", () => {
  fc.assert(
    fc.property(fc.string(), fc.option(fc.nat(), { nil: undefined }), EVENT, (stream, seq, { event, written }) => {
      const head = seq === undefined ? undefined : { seq, hash: "ab".repeat(32) };
      assert.deepEqual(linkText(stream, head, event, written), linkText(stream, head, event));
    }),
    { numRuns: 500 },
  );
});

/** A short unit of a few characters: texts repeating it hold a long piece's first characters in many places. */
const UNIT = fc.string({ unit: fc.constantFrom("a", "b", "\ud800"), minLength: 1, maxLength: 3 });
/** A text repeating a unit, with a few characters changed here and there. */
const REPEATING = fc.tuple(UNIT, fc.integer({ min: 0, max: 120 }), fc.array(fc.tuple(fc.nat(), UNIT), { maxLength: 4 }))
  .map(([unit, times, changes]) => {
    let text = unit.repeat(times);
    for (const [at, change] of changes) {
      const place = at % (text.length + 1);
      text = text.slice(0, place) + change + text.slice(place + 1);
    }
    return text;
  });

Deno.test("indexOfLong() finds what indexOf() finds (property)", () => {
  fc.assert(
    fc.property(REPEATING, REPEATING, fc.nat(), fc.nat(), (text, other, from, length) => {
      const start = from % (text.length + 1);
      const pieces = [text.slice(start, start + 30 + length % 120), other, text.slice(start) + other, other + text];
      for (const piece of pieces) assert.equal(indexOfLong(text, piece), text.indexOf(piece));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("linkText() writes what the definition writes after a head whose seq is not a whole number", () => {
  const event: AuditEvent = { kind: "decision", at: AT, note: "x" };
  for (const seq of [NaN, Infinity, -Infinity, 1.5, -1, 2 ** 53]) {
    const head = { seq, hash: "ab".repeat(32) };
    const next = seq + 1;
    const hash = sha256Hex(canonicalJson({ stream: "s", seq: next, prev: head.hash, event }));
    const linked = linkText("s", head, event);
    assert.equal(linked.hash, hash, `after seq ${seq}`);
    assert.equal(
      linked.text,
      JSON.stringify({ stream: "s", seq: next, prev: head.hash, event: readBack(canonicalJson(event)), hash }),
    );
  }
});

Deno.test("auditHash() of a text in pieces is the sha256 of the text whole, however it is cut (property)", () => {
  const pairs = fc.string({ unit: fc.constantFrom("a", "é", "😀", "\ud800", "\udc00", "\u2028") });
  fc.assert(
    fc.property(fc.oneof(pairs, fc.string({ unit: "binary" })), fc.array(fc.nat(), { maxLength: 4 }), (text, cuts) => {
      const places = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...places].map((from, i) => text.slice(from, [...places, text.length][i]));
      assert.equal(pieces.join(""), text);
      assert.equal(auditHash(...pieces), sha256Hex(text));
    }),
    { numRuns: 1000 },
  );
});
