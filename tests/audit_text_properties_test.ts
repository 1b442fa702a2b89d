/**
 * linkText() hashes an event's canonical JSON and writes the record's text around it by hand, in one go: these
 * properties pin that text to the definition, JSON.stringify of {stream, seq, prev, event, hash} with the event as its
 * canonical JSON reads back and the hash the sha256 (the audited reference, `@noble/hashes`) of the canonical JSON of
 * the other four, over many events: real decisions, nested details, integer-like keys, lone surrogates, -0, NaN.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { canonicalJson, sha256Hex } from "../core/mod.ts";
import { type AuditEvent, GENESIS, hashRecord, linkRecord, linkText } from "../adapters/audit/mod.ts";
import { MemoryStore } from "../adapters/store/mod.ts";
import { Guard } from "../guard/mod.ts";
import { benchPolicy } from "../adapters/cli/bench/serve_load.ts";
import { readBack } from "./_json_read_back.ts";

const AT = "2026-12-01T10:00:00.000Z";

/** The record as the chain defines it. */
function definedRecord(stream: string, head: { seq: number; hash: string } | undefined, event: AuditEvent) {
  const seq = head ? head.seq + 1 : 0;
  const prev = head ? head.hash : GENESIS;
  const plain = readBack(canonicalJson(event)) as AuditEvent;
  return { stream, seq, prev, event: plain, hash: sha256Hex(canonicalJson({ stream, seq, prev, event: plain })) };
}

const KEY = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.nat().map(String),
  fc.constantFrom("__proto__", "", "0", "1", "9", "10", "01", "-1", "4294967294", "4294967295", "kind", "at"),
  fc.constantFrom("\\", '"', "\ud800", "a\udc00", "\u2028", "\u001b[31m", "é"),
);
const TEXT = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("\ud800", "é€😀", "\u0000"));
const { value: VALUE } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    TEXT,
    fc.double(),
    fc.constantFrom(-0, 1e21, NaN, -Infinity),
    fc.integer(),
    fc.bigInt(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(KEY, tie("value"), { maxKeys: 5 }),
  ),
}));

/** A guard's real decision on a call after a recorded output, as the session host audits it. */
const DECISION = fc.tuple(TEXT, fc.constantFrom("user0@corp.example", "carol@corp.example"), fc.boolean()).map(
  ([output, to, told]): AuditEvent => {
    const guard = new Guard(benchPolicy());
    guard.user(told ? `Write to ${to}` : "Write to the team");
    guard.record("read_inbox", `${output} from ${to}`);
    return { kind: "decision", decision: guard.decide("send_email", { to }), at: AT };
  },
);
const DETAILED = fc.record({ detail: fc.dictionary(KEY, VALUE, { maxKeys: 6 }), output: TEXT }).map(
  ({ detail, output }): AuditEvent => ({ ...detail, kind: "result", at: AT, output }),
);
const EVENT = fc.oneof(DETAILED, DECISION);

Deno.test("linkText() writes JSON.stringify of the defined record, with its hash, for any event", () => {
  fc.assert(
    fc.property(fc.string(), fc.array(EVENT, { minLength: 1, maxLength: 4 }), (stream, events) => {
      let head: { seq: number; hash: string } | undefined;
      for (const event of events) {
        const defined = definedRecord(stream, head, event);
        const linked = linkText(stream, head, event);
        assert.equal(linked.text, JSON.stringify(defined));
        assert.equal(linked.hash, defined.hash);
        assert.equal(linked.seq, defined.seq);
        assert.equal(hashRecord(defined), defined.hash);
        assert.deepEqual(readBack(linked.text), defined);
        head = linked;
      }
    }),
    { numRuns: 500 },
  );
});

Deno.test("linkRecord() and a memory store keep the records linkText() writes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(EVENT, { minLength: 1, maxLength: 4 }), async (events) => {
      const store = new MemoryStore();
      const returned = await store.appendAuditEvents("s", events);
      let head: { seq: number; hash: string } | undefined;
      const texts = events.map((event) => {
        const linked = linkText("s", head, event);
        assert.equal(linkRecord("s", head, event).hash, linked.hash);
        head = linked;
        return linked.text;
      });
      // What the store returns is its texts read back by JSON.parse: compared by the fields no key can change.
      const fields = (record: { seq: number; prev: string; hash: string }) => [record.seq, record.prev, record.hash];
      const expected = texts.map((text) => fields(readBack(text) as { seq: number; prev: string; hash: string }));
      assert.deepEqual((await store.audit("s")).map(fields), expected);
      assert.deepEqual(returned.map(fields), expected);
    }),
    { numRuns: 100 },
  );
});

Deno.test("linkText() keeps an event's escaped key as given after the engine has parsed a key made of a backslash", () => {
  // V8's JSON.parse (Deno 2.9.6; V8 issue 521080746, nodejs/node#63785) reads an object's last key, when escaped, as "\\" once it has parsed an object with
  // the same keys before it and then a "\\" key: the record must not depend on it (the event is hashed and kept as
  // given, never read back first).
  for (const key of ["\ud800", "\udfff", "b\n", "a\u0007", "b\\"]) {
    JSON.parse('{"a":0,"\\\\":0}');
    const event: AuditEvent = { kind: "message", at: AT, detail: { a: 1, [key]: 2 } };
    const linked = linkText("s", undefined, event);
    const record = readBack(linked.text) as { event: { detail: Record<string, number> } };
    assert.deepEqual(Object.keys(record.event.detail), ["a", key]);
    assert.equal(linked.hash, sha256Hex(canonicalJson({ stream: "s", seq: 0, prev: GENESIS, event })));
  }
});

Deno.test("linkText() follows the definition's own steps for what its types rule out", () => {
  const event: AuditEvent = { kind: "message", at: AT, n: NaN };
  for (const [stream, head] of [[5, undefined], ["s", { seq: 1, hash: 7 }], [["s"], { seq: NaN, hash: "h" }]]) {
    const linked = linkText(stream as string, head as { seq: number; hash: string }, event);
    assert.equal(
      linked.text,
      JSON.stringify(definedRecord(stream as string, head as { seq: number; hash: string }, event)),
    );
  }
  assert.throws(() => linkText("s", undefined, undefined as unknown as AuditEvent), SyntaxError);
});
