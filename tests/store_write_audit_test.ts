/**
 * A step's audit events written without reading them back (`writeAuditEvents`) make the chain `appendAuditEvents`
 * makes, on both stores; and the in-memory store, which writes a step's input and record around one JSON of its long
 * string, keeps the texts the definition writes (the input's JSON, the records linkText() writes on its own) for
 * hostile inputs and events.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { longTexts, outputsOf } from "./_shared_text_arbitraries.ts";
import { type AuditEvent, linkText, verifyRecords } from "../adapters/audit/mod.ts";
import { KvStore, MemoryStore, type PabStore, type SessionInput } from "../adapters/store/mod.ts";

const AT = "2026-12-01T23:00:00.000Z";
const HOSTILE = fc.oneof(
  fc.string({ unit: "binary", maxLength: 8 }),
  fc.constantFrom("\u0000pab: a long string goes here\u0000", "__proto__", "toJSON", "output", "\ud800", '"\\'),
);
const EVENT = fc.record({
  kind: fc.constantFrom("decision" as const, "ledger" as const, "result" as const),
  at: fc.constant(AT),
  detail: fc.dictionary(HOSTILE, fc.oneof(HOSTILE, fc.integer()), { maxKeys: 3 }),
}).map((event): AuditEvent => JSON.parse(JSON.stringify(event)));

async function stores(): Promise<PabStore[]> {
  return [new MemoryStore(), new KvStore(await Deno.openKv(":memory:"), "kv in memory")];
}

Deno.test("writeAuditEvents() makes the chain appendAuditEvents() makes, on either store", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(EVENT, { maxLength: 3 }), { minLength: 1, maxLength: 4 }), async (steps) => {
      const [memory, kv] = await stores();
      const [memoryReference, kvReference] = await stores();
      try {
        for (const events of steps) {
          assert.equal(await memory.writeAuditEvents("s", events), undefined);
          assert.equal(await kv.writeAuditEvents("s", events), undefined);
          await memoryReference.appendAuditEvents("s", events);
          await kvReference.appendAuditEvents("s", events);
        }
        const expected = JSON.stringify(await memoryReference.audit("s"));
        for (const store of [memory, kv, kvReference]) assert.equal(JSON.stringify(await store.audit("s")), expected);
        assert.deepEqual(await memory.heads(), await memoryReference.heads());
        assert.deepEqual(await kv.heads(), await kvReference.heads());
      } finally {
        for (const store of [memory, kv, memoryReference, kvReference]) store.close();
      }
    }),
    { numRuns: 40 },
  );
});

/** Long strings with any characters (lone surrogates, escapes, the stand-in's own text) and outputs that hold them. */
const LONG = fc.oneof(longTexts(1500), HOSTILE.map((text) => `${text}`.padEnd(700, text || "x")));
const STEP = fc.record({
  input: fc.oneof(
    fc.record({
      kind: fc.constant("result" as const),
      tool: HOSTILE,
      args: fc.dictionary(HOSTILE, fc.oneof(HOSTILE, LONG), { maxKeys: 2 }),
      output: outputsOf(LONG),
    }),
    fc.record({ kind: fc.constantFrom("user" as const, "system" as const), text: LONG }),
  ),
  before: fc.array(EVENT, { maxLength: 2 }),
  after: fc.array(EVENT, { maxLength: 1 }),
  details: fc.dictionary(HOSTILE, HOSTILE, { maxKeys: 2 }),
});

Deno.test("MemoryStore keeps the inputs' JSON and the records linkText() writes, for hostile steps", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(STEP, { minLength: 1, maxLength: 4 }), async (generated) => {
      const steps = JSON.parse(JSON.stringify(generated)) as typeof generated;
      const store = new MemoryStore();
      const texts: string[] = [];
      let head: { seq: number; hash: string } | undefined;
      for (const [seq, { input, before, after, details }] of steps.entries()) {
        // The event that holds the input's long string, as a host writes it, among others, with details of any key.
        const holder = { ...details, ...(input as SessionInput), at: AT } as unknown as AuditEvent;
        const events = [...before, holder, ...after];
        assert.equal(await store.appendInput("s", seq, input as SessionInput, events), true);
        const linked = [...events.slice(0, -1), { ...events[events.length - 1], input: seq }];
        for (const event of linked) {
          const record = linkText("s", head, event);
          texts.push(record.text);
          head = record;
        }
      }
      const records = await store.audit("s");
      assert.equal(verifyRecords(records).ok, true);
      assert.deepEqual(records.map((record) => JSON.stringify(record)), texts);
      const inputs = await store.inputs("s", 0);
      assert.deepEqual(inputs.map((input) => JSON.stringify(input)), steps.map(({ input }) => JSON.stringify(input)));
      store.close();
    }),
    { numRuns: 150 },
  );
});
