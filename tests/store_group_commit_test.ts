/**
 * Steps committed together stay steps: under any mix of concurrent appends (racing for one position, on several
 * sessions, with audit events) each step is written whole or not at all, each position goes to exactly one writer,
 * every input has its audit record and every chain verifies; a step that fails fails alone. Also: deleting a
 * session drops what it recorded and keeps its audit chain, in both stores.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { verifyRecords } from "../adapters/audit/mod.ts";
import { KvStore, openStore, type PabStore, type StoreError } from "../adapters/store/mod.ts";

const AT = "2026-12-01T16:00:00.000Z";

const IMPLEMENTATIONS: readonly [string, () => Promise<PabStore>][] = [
  ["MemoryStore", () => openStore(":memory:")],
  ["KvStore", async () => new KvStore(await Deno.openKv(":memory:"), "kv in memory")],
];

Deno.test("KvStore commits concurrent steps together and each stays whole, with exactly one writer per position", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_group_" });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ session: fc.integer({ min: 0, max: 3 }), rivals: fc.integer({ min: 1, max: 3 }) }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (steps) => {
          const store = await openStore(`${dir}/${crypto.randomUUID()}.kv`);
          try {
            for (let s = 0; s < 4; s++) await store.createSession({ id: `s${s}`, ledger: `s${s}`, created: AT });
            const next = [0, 0, 0, 0];
            const won: boolean[] = [];
            // Every step at once: rivals race for the same position of one session; audit events ride along.
            await Promise.all(steps.flatMap(({ session, rivals }) => {
              const seq = next[session]++;
              return Array.from({ length: rivals }, (_, rival) =>
                store.appendInput(
                  `s${session}`,
                  seq,
                  { kind: "user", text: `step ${seq} by ${rival}` },
                  [{ kind: "message", at: AT, rival }],
                ).then((ok) => void won.push(ok)));
            }));
            assert.equal(won.filter(Boolean).length, steps.length);
            const records = await store.audit();
            assert.deepEqual(verifyRecords(records).ok, true);
            for (let s = 0; s < 4; s++) {
              const inputs = await store.inputs(`s${s}`, 0);
              assert.equal(inputs.length, next[s]);
              const chain = records.filter((record) => record.stream === `s${s}`);
              for (const [seq, input] of inputs.entries()) {
                // The audit record of the winning write names its input, and its rival is that input's writer.
                const linked = chain.filter((record) => record.event.input === seq);
                assert.equal(linked.length, 1);
                assert.equal(`step ${seq} by ${linked[0].event.rival}`, (input as { text: string }).text);
              }
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 15 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KvStore fails only the step that cannot be written when it is staged with others", async () => {
  const store = new KvStore(await Deno.openKv(":memory:"), "kv in memory");
  try {
    const long = "x".repeat(3000);
    await store.createSession({ id: "good", ledger: "good", created: AT });
    const results = await Promise.allSettled([
      store.appendInput("good", 0, { kind: "user", text: "kept" }),
      // A key over Deno KV's 2 KiB key limit: this write fails, whatever it is committed with.
      store.appendInput(long, 0, { kind: "user", text: "refused" }),
      store.appendAudit("good", { kind: "message", at: AT }),
    ]);
    assert.deepEqual(results[0], { status: "fulfilled", value: true });
    assert.equal(results[1].status, "rejected");
    assert.match(((results[1] as PromiseRejectedResult).reason as StoreError).code, /^ERR_STORE_/);
    assert.equal(results[2].status, "fulfilled");
    assert.deepEqual(await store.inputs("good", 0), [{ kind: "user", text: "kept" }]);
    assert.equal((await store.audit("good")).length, 1);
  } finally {
    store.close();
  }
});

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name}.deleteSession() drops inputs, spent rulings and the record; a KV store keeps the audit chain, a memory store its last record`, async () => {
    const store = await open();
    try {
      await store.createSession({ id: "s", ledger: "s", created: AT }, [{ kind: "session", at: AT }]);
      await store.appendInput("s", 0, { kind: "user", text: "hello" }, [{ kind: "message", at: AT }]);
      assert.equal(await store.spendRuling("s", "manager#1"), true);
      await store.deleteSession("s");
      assert.deepEqual(await store.inputs("s", 0), []);
      assert.equal(await store.session("s"), undefined);
      assert.equal(await store.spendRuling("s", "manager#1"), true);
      const chain = await store.audit("s");
      if (name === "KvStore") {
        assert.equal(chain.length, 2);
        assert.equal(verifyRecords(chain).ok, true);
        // A chain that goes on after the deletion (the `session ended` event) links to the kept records.
        await store.appendAuditEvents("s", [{ kind: "session", at: AT, ended: "deleted" }]);
        assert.equal(verifyRecords(await store.audit("s")).ok, true);
      } else {
        // A memory store forgets all but the last record (nothing outside the process reads them) and keeps the head.
        assert.deepEqual(chain.map((record) => record.seq), [1]);
        await store.appendAuditEvents("s", [{ kind: "session", at: AT, ended: "deleted" }]);
        const [last, ended] = await store.audit("s");
        assert.equal(ended.seq, 2);
        assert.equal(ended.prev, last.hash);
      }
    } finally {
      store.close();
    }
  });

  Deno.test(`${name}.deleteSession() keeps a session's open reservation, its held keys and its record`, async () => {
    const store = await open();
    try {
      await store.createSession({ id: "s", ledger: "s", created: AT });
      assert.equal(await store.effects("s").reserve(["release.sent"], "s/x/main#call-1"), true);
      const record = {
        id: "r_1",
        session: "s",
        holder: "s/x/main#call-1",
        tool: "publish",
        args: {},
        fingerprint: "f",
        effects: ["release.sent"],
        keys: ["release.sent"],
        checks: [],
      };
      assert.equal(await store.saveReservation(record), true);
      await store.deleteSession("s");
      assert.deepEqual(await store.reservation("s", "r_1"), record);
      assert.equal((await store.session("s"))?.ledger, "s");
      // The `once` key is still held: nobody else can take it while the call may be running.
      assert.equal(await store.effects("s").reserve(["release.sent"], "other"), false);
      assert.equal(await store.finishReservation("s", "r_1", { outcome: "commit" }), "finished");
      await store.deleteSession("s");
      assert.equal(await store.session("s"), undefined);
    } finally {
      store.close();
    }
  });
}

Deno.test("KvStore writers on two connections to one file keep one chain whole (a head written elsewhere is read again)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_heads_" });
  try {
    const first = await openStore(`${dir}/shared.kv`);
    const second = await openStore(`${dir}/shared.kv`);
    try {
      await first.createSession({ id: "s", ledger: "s", created: AT }, [{ kind: "session", at: AT }]);
      for (let i = 0; i < 6; i++) {
        // Each writer's remembered head is stale after the other one wrote.
        const writer = i % 3 === 0 ? second : first;
        await Promise.all([
          writer.appendAudit("s", { kind: "message", at: AT, i }),
          (writer === first ? second : first).appendAuditEvents("s", [{ kind: "message", at: AT, i: -i }]),
        ]);
      }
      const chain = await second.audit("s");
      assert.equal(chain.length, 13);
      assert.deepEqual(verifyRecords(chain), { ok: true, records: 13, streams: 1 });
    } finally {
      first.close();
      second.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KvStore fails every concurrent call on a deleted store file ERR_STORE_GONE", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_gone_" });
  try {
    const store = await openStore(`${dir}/a.kv`);
    try {
      await store.createSession({ id: "s", ledger: "s", created: AT });
      await Deno.remove(`${dir}/a.kv`);
      // Writes and reads at once share looks at the file; each fails in its own words.
      const results = await Promise.allSettled(
        Array.from(
          { length: 20 },
          (_, i) => i % 2 ? store.appendInput("s", i, { kind: "user", text: `${i}` }) : store.inputs("s", 0),
        ),
      );
      for (const [i, result] of results.entries()) {
        assert.equal(result.status, "rejected");
        const error = (result as PromiseRejectedResult).reason as StoreError;
        assert.equal(error.code, "ERR_STORE_GONE");
        assert.match(error.message, i % 2 ? /^Cannot append an input in store / : /^Cannot read inputs in store /);
        assert.match(error.message, /was deleted while pab had it open/);
      }
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
