/**
 * An audit record that records an input is kept on Deno KV without the text it shares with that input, and read
 * back whole: the records are the very ones the memory store keeps (same JSON text, same hashes) for any output; a
 * missing or shortened input fails ERR_STORE_CORRUPT and a changed one fails verification, never passes; deleting
 * the session writes its records whole first, so the chain still verifies without its inputs.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { longTexts, outputsOf } from "./_shared_text_arbitraries.ts";
import { type AuditEvent, verifyRecords } from "../adapters/audit/mod.ts";
import { KvStore, openStore, type SessionInput, StoreError } from "../adapters/store/mod.ts";

const AT = "2026-12-01T16:00:00.000Z";

/** Long strings (over the sharing threshold) with any characters, lone surrogates included. */
const longText = longTexts(1200);
const output = outputsOf(longText);

const step = fc.oneof(
  fc.record({ kind: fc.constant("result" as const), tool: fc.constant("read"), args: fc.constant({}), output }),
  fc.record({ kind: fc.constantFrom("user" as const, "system" as const), text: longText }),
);

/** The events a host writes with an input: the event carries the input's text or output. */
function eventsOf(input: SessionInput): AuditEvent[] {
  if (input.kind === "result") {
    return [{ kind: "result", at: AT, tool: input.tool, args: input.args, output: input.output }];
  }
  if (input.kind === "ruling") return [{ kind: "ruling", at: AT, id: input.id }];
  return [{ kind: "ledger", at: AT }, { kind: "message", at: AT, role: input.kind, text: input.text }];
}

Deno.test("KvStore reads back records that share their input's text exactly as the memory store keeps them", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (generated) => {
      const steps = JSON.parse(JSON.stringify(generated)) as SessionInput[];
      const kv = new KvStore(await Deno.openKv(":memory:"), "kv in memory");
      const memory = await openStore(":memory:");
      try {
        for (const store of [kv, memory]) {
          for (const [seq, input] of steps.entries()) {
            assert.equal(
              await store.appendInput("s", seq, input, eventsOf(input)),
              true,
            );
          }
          await store.appendAuditEvents("s", [{ kind: "decision", at: AT }]);
        }
        const [fromKv, fromMemory] = [await kv.audit("s"), await memory.audit("s")];
        assert.equal(JSON.stringify(fromKv), JSON.stringify(fromMemory));
        assert.deepEqual(fromKv, fromMemory);
        assert.equal(verifyRecords(fromKv).ok, true);
        assert.deepEqual(await kv.inputs("s", 0), steps);
      } finally {
        kv.close();
        memory.close();
      }
    }),
    { numRuns: 60 },
  );
});

/** An output longer than one stored part (30,000 units): its record cannot be kept in the input's row, so it shares. */
const LONG = 31_000;

Deno.test("KvStore keeps a 31 KB output once: the audit record's stored part holds the rest and where the output is", async () => {
  const raw = await Deno.openKv(":memory:");
  const store = new KvStore(raw, "kv in memory");
  try {
    const input: SessionInput = { kind: "result", tool: "read", args: {}, output: "y".repeat(LONG) };
    await store.appendInput("s", 0, input, eventsOf(input));
    const part = (await raw.get<{ text: string; shared?: { after: string } }>(["pab", "audit", "s", 0, 0])).value!;
    assert.ok(part.shared, "the record refers to its input");
    assert.ok(part.text.length + part.shared.after.length < 500);
  } finally {
    store.close();
  }
});

Deno.test("KvStore fails a shared record whose input is missing or shortened with ERR_STORE_CORRUPT, and one whose input changed fails verification", async () => {
  const raw = await Deno.openKv(":memory:");
  const store = new KvStore(raw, "kv in memory");
  try {
    const input: SessionInput = { kind: "result", tool: "read", args: {}, output: "secret ".repeat(LONG / 7) };
    await store.appendInput("s", 0, input, eventsOf(input));
    assert.equal(verifyRecords(await store.audit("s")).ok, true);
    assert.ok((await raw.get(["pab", "audit", "s", 0, 0])).versionstamp, "the record is in the chain's own row");
    const key = ["pab", "in", "s", 0, 0];
    const stored = (await raw.get<{ count: number; text: string }>(key)).value!;
    await raw.set(key, { ...stored, text: stored.text.replace("secret", "public") });
    assert.equal(verifyRecords(await store.audit("s")).ok, false);
    await raw.set(key, { ...stored, text: stored.text.slice(0, 100) });
    await assert.rejects(
      store.audit("s"),
      (error) => error instanceof StoreError && error.code === "ERR_STORE_CORRUPT",
    );
    await raw.delete(key);
    await assert.rejects(store.audit(), (error) => error instanceof StoreError && error.code === "ERR_STORE_CORRUPT");
  } finally {
    store.close();
  }
});

Deno.test("KvStore.deleteSession() writes the records that share its inputs whole first: the chain verifies without them", async () => {
  const raw = await Deno.openKv(":memory:");
  const store = new KvStore(raw, "kv in memory");
  try {
    for (let seq = 0; seq < 30; seq++) {
      const input: SessionInput = { kind: "result", tool: "read", args: {}, output: `${seq} `.repeat(400 + seq * 50) };
      await store.appendInput("s", seq, input, eventsOf(input));
    }
    const before = await store.audit("s");
    await store.deleteSession("s");
    assert.deepEqual(await store.inputs("s", 0), []);
    const after = await store.audit("s");
    assert.equal(JSON.stringify(after), JSON.stringify(before));
    assert.equal(verifyRecords(after).ok, true);
    for await (const entry of raw.list<{ shared?: unknown }>({ prefix: ["pab", "audit", "s"] })) {
      assert.equal(entry.value.shared, undefined);
    }
  } finally {
    store.close();
  }
});
