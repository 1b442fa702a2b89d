/**
 * `writeAuditEvents(stream, events, { expectInputs })` writes only while session `stream` holds no input at that
 * position, on both stores: true and the events chained, or false and nothing written; on Deno KV the check is in the
 * audit's own atomic write, so it holds against an append committed in the same group of writes or by another handle.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import type { AuditEvent } from "../adapters/audit/mod.ts";
import { KvStore, MemoryStore, type PabStore } from "../adapters/store/mod.ts";

const AT = "2026-12-02T01:00:00.000Z";
const decision = (n: number): AuditEvent => ({ kind: "decision", at: AT, n } as unknown as AuditEvent);
const message = (n: number): AuditEvent => ({ kind: "message", at: AT, n } as unknown as AuditEvent);

Deno.test("writeAuditEvents() with expectInputs writes only while the session holds no input at that position", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.nat(6)), { minLength: 1, maxLength: 12 }), async (steps) => {
      for (
        const store of [new MemoryStore(), new KvStore(await Deno.openKv(":memory:"), "kv in memory")] as PabStore[]
      ) {
        try {
          await store.createSession({ id: "s", ledger: "s", created: AT });
          let inputs = 0;
          let chained = 0;
          for (const [append, expectInputs] of steps) {
            if (append) {
              assert.equal(await store.appendInput("s", inputs, { kind: "user", text: `hi ${inputs}` }), true);
              inputs++;
              continue;
            }
            const written = await store.writeAuditEvents("s", [decision(chained)], { expectInputs });
            assert.equal(written, expectInputs >= inputs);
            if (written) chained++;
            assert.equal((await store.audit("s")).length, chained);
          }
        } finally {
          store.close();
        }
      }
    }),
    { numRuns: 60 },
  );
});

Deno.test("writeAuditEvents() with expectInputs on Deno KV holds against an append committed with it or by another handle", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_checked_audit_" });
  try {
    for (let round = 0; round < 30; round++) {
      const path = `${dir}/${round}.kv`;
      const first = new KvStore(await Deno.openKv(path), "first");
      const second = new KvStore(await Deno.openKv(path), "second");
      try {
        await first.createSession({ id: "s", ledger: "s", created: AT });
        // The same handle (one group committer) every other round, two handles of the file in the others.
        const appender = round % 2 ? first : second;
        const [, written] = await Promise.all([
          appender.appendInput("s", 0, { kind: "user", text: "hi" }, [message(0)]),
          first.writeAuditEvents("s", [decision(0)], { expectInputs: 0 }),
        ]);
        const kinds = (await first.audit("s")).map((record) => record.event.kind);
        // Written only when it landed before the input: its record then comes first.
        assert.deepEqual(kinds, written ? ["decision", "message"] : ["message"]);
      } finally {
        first.close();
        second.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
