/**
 * What a store keeps for sessions that ended is bounded: the in-memory store keeps the chains (last record and
 * head) of the last `ENDED_CHAINS` ended sessions and forgets older ones whole; a ledger's effects stay for good
 * once something was written to them, and sessions sharing a ledger share its effects.
 */
import assert from "node:assert/strict";
import { ENDED_CHAINS, KvStore, MemoryStore, openStore } from "../adapters/store/mod.ts";

const AT = "2026-12-01T18:00:00.000Z";

Deno.test("MemoryStore keeps the chains of the last ENDED_CHAINS ended sessions and forgets older ones whole", async () => {
  const store = new MemoryStore();
  const ended = ENDED_CHAINS + 25;
  for (let i = 0; i < ended; i++) {
    const id = `s${i}`;
    await store.createSession({ id, ledger: id, created: AT }, [{ kind: "session", at: AT }]);
    await store.appendInput(id, 0, { kind: "user", text: "hi" }, [{ kind: "message", at: AT }]);
    await store.appendAuditEvents(id, [{ kind: "session", at: AT, ended: "deleted" }]);
    await store.deleteSession(id);
  }
  await store.createSession({ id: "live", ledger: "live", created: AT }, [{ kind: "session", at: AT }]);
  const heads = await store.heads();
  assert.equal(heads.size, ENDED_CHAINS + 1);
  assert.equal(heads.has("s0"), false);
  assert.equal(heads.has("s24"), false);
  assert.deepEqual(heads.get("s25"), { seq: 2, hash: (await store.audit("s25"))[0].hash });
  assert.deepEqual((await store.audit("s25")).map((record) => record.event.ended), ["deleted"]);
  assert.equal((await store.audit()).length, ENDED_CHAINS + 1);
});

Deno.test("MemoryStore keeps an ended session's chain whole while a reservation of it is open", async () => {
  const store = new MemoryStore();
  await store.createSession({ id: "open", ledger: "open", created: AT }, [{ kind: "session", at: AT }]);
  assert.equal(await store.effects("open").reserve(["k"], "h"), true);
  const record = {
    id: "r1",
    session: "open",
    holder: "h",
    tool: "t",
    args: {},
    fingerprint: "f",
    effects: ["k"],
    keys: ["k"],
    checks: [],
  };
  assert.equal(await store.saveReservation(record, { audit: [{ kind: "reservation", at: AT }] }), true);
  for (let i = 0; i <= ENDED_CHAINS; i++) {
    await store.createSession({ id: `s${i}`, ledger: `s${i}`, created: AT }, [{ kind: "session", at: AT }]);
    await store.deleteSession(`s${i}`);
  }
  await store.deleteSession("open");
  assert.equal((await store.audit("open")).length, 2);
  assert.equal(await store.finishReservation("open", "r1", { outcome: "commit" }), "finished");
  assert.equal(store.effects("open").committed().has("k"), true);
});

for (
  const [name, open] of [
    ["MemoryStore", () => openStore(":memory:")],
    ["KvStore", async () => new KvStore(await Deno.openKv(":memory:"), "kv in memory")],
  ] as const
) {
  Deno.test(`${name}.effects() gives sessions of one ledger one object, and a written ledger keeps its effects`, async () => {
    const store = await open();
    try {
      const first = store.effects("shared");
      assert.equal(store.effects("shared"), first);
      assert.equal(await first.reserve(["release.sent"], "h1"), true);
      await first.commit(["release.sent"], "h1");
      const later = store.effects("shared");
      await later.refresh();
      assert.equal(later.committed().has("release.sent"), true);
      assert.equal(await later.reserve(["release.sent"], "h2"), false);
    } finally {
      store.close();
    }
  });
}
