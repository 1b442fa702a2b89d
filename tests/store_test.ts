/**
 * The store, in memory and on Deno KV (one suite for both): all-or-nothing reservations (against a model, and
 * under concurrency), holders, appends that race, large values, open
 * errors, and reservations finished by another process than the one that made them.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { KvStore, openStore, type PabStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const servePolicy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

/** Every store implementation runs the same tests. */
const IMPLEMENTATIONS: readonly [string, () => Promise<PabStore>][] = [
  ["MemoryStore", () => openStore(":memory:")],
  ["KvStore", async () => new KvStore(await Deno.openKv(":memory:"), "kv in memory")],
];

/**
 * A KV store keeps each holder's keys under a hold that its commit or release gives back (holders are unique per
 * call): keys a holder still has reserved after that are held by nobody, and a reservation that meets them releases
 * them (what an earlier pab left when it crashed). The in-memory store has no holds: its keys stay reserved.
 */
const RELEASES_UNCLAIMED: Readonly<Record<string, boolean>> = { MemoryStore: false, KvStore: true };

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name}.effects().reserve() is all-or-nothing and matches a model under any sequence of operations`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            op: fc.constantFrom("reserve", "commit", "release"),
            keys: fc.uniqueArray(fc.constantFrom("a", "b", "c", "d"), { minLength: 1, maxLength: 3 }),
            holder: fc.constantFrom("h1", "h2", "h3"),
          }),
          { maxLength: 25 },
        ),
        async (steps) => {
          const store = await open();
          const effects = store.effects("ledger");
          const model = new Map<string, { state: "reserved" | "committed"; holder: string }>();
          /** The holders whose hold is there (a reservation sets it, a commit or a release gives it back). */
          const holds = new Set<string>();
          try {
            for (const { op, keys, holder } of steps) {
              if (op === "reserve") {
                if (!keys.every((key) => !model.has(key)) && RELEASES_UNCLAIMED[name]) {
                  for (const key of keys) {
                    const entry = model.get(key);
                    if (entry?.state === "reserved" && !holds.has(entry.holder)) model.delete(key);
                  }
                }
                const free = keys.every((key) => !model.has(key));
                assert.equal(await effects.reserve(keys, holder), free);
                if (free) {
                  for (const key of keys) model.set(key, { state: "reserved", holder });
                  holds.add(holder);
                }
              } else if (op === "commit") {
                await effects.commit(keys, holder);
                holds.delete(holder);
                for (const key of keys) model.set(key, { state: "committed", holder });
              } else {
                await effects.release(keys, holder);
                holds.delete(holder);
                for (const key of keys) {
                  const entry = model.get(key);
                  if (entry?.state === "reserved" && entry.holder === holder) model.delete(key);
                }
              }
            }
            await effects.refresh();
            const committed = [...model].filter(([, entry]) => entry.state === "committed").map(([key]) => key).sort();
            assert.deepEqual([...effects.committed()].sort(), committed);
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
}

Deno.test("KvEffects.reserve() lets exactly one of 200 concurrent holders on two connections to one file win", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_store_" });
  const stores = [await openStore(`${dir}/state.kv`), await openStore(`${dir}/state.kv`)];
  try {
    const wins = await Promise.all(
      Array.from({ length: 200 }, (_, i) => stores[i % 2].effects("l").reserve(["release.sent", `log.${i}`], `r${i}`)),
    );
    assert.equal(wins.filter(Boolean).length, 1);
    // The losers reserved nothing: their other keys are still free.
    const loser = wins.indexOf(false);
    assert.equal(await stores[0].effects("l").reserve([`log.${loser}`], "later"), true);
  } finally {
    for (const store of stores) store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name}.appendInput() gives one position to exactly one of many racing writers`, async () => {
    const store = await open();
    try {
      await store.createSession({ id: "s", ledger: "s", created: "2026-11-30T15:00:00.000Z" });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.appendInput("s", 0, { kind: "user", text: `writer ${i}` })),
      );
      assert.equal(results.filter(Boolean).length, 1);
      assert.equal((await store.inputs("s", 0)).length, 1);
    } finally {
      store.close();
    }
  });
}

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name} keeps inputs and audit events larger than one KV value (64 KiB) whole`, async () => {
    const store = await open();
    try {
      const text = "héllo wörld 😀 \u0000 ".repeat(12_000); // about 220,000 UTF-16 units, many outside Latin-1
      assert.equal(await store.appendInput("s", 0, { kind: "result", tool: "t", args: {}, output: text }), true);
      assert.equal(await store.appendInput("s", 1, { kind: "user", text: "after" }), true);
      assert.deepEqual(await store.inputs("s", 0), [
        { kind: "result", tool: "t", args: {}, output: text },
        { kind: "user", text: "after" },
      ]);
      assert.deepEqual(await store.inputs("s", 1), [{ kind: "user", text: "after" }]);
      const record = await store.appendAudit("s", { kind: "result", at: "2026-11-30T15:00:00.000Z", output: text });
      assert.deepEqual(await store.audit("s"), [record]);
    } finally {
      store.close();
    }
  });
}

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name}.appendInput() commits a ran tool's effects with its input, and nothing when the position is taken`, async () => {
    const store = await open();
    try {
      const input = { kind: "result", tool: "publish", args: {}, output: "ok" } as const;
      const event = { kind: "result", at: "2026-11-30T15:00:00.000Z" } as const;
      const commit = { ledger: "l", keys: ["release.sent"], holder: "result:f" };
      assert.equal(await store.appendInput("s", 0, input, [event], commit), true);
      assert.equal(await store.appendInput("s", 0, input, [event], { ...commit, keys: ["other"] }), false);
      const effects = store.effects("l");
      await effects.refresh();
      assert.deepEqual([...effects.committed()], ["release.sent"]);
      assert.equal((await store.audit("s")).length, 1);
    } finally {
      store.close();
    }
  });
}

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name} writes a 4 MB output and its audit event in one step, over Deno KV's 800 KB commit limit`, async () => {
    const store = await open();
    try {
      const output = "résumé 😀 ".repeat(450_000); // about 4.5 million UTF-16 units
      const input = { kind: "result", tool: "t", args: {}, output } as const;
      const event = { kind: "result", at: "2026-11-30T15:00:00.000Z", output } as const;
      assert.equal(await store.appendInput("s", 0, input, [event]), true);
      assert.deepEqual(await store.inputs("s", 0), [input]);
      assert.deepEqual((await store.audit("s")).map((record) => record.event), [{ ...event, input: 0 }]);
    } finally {
      store.close();
    }
  });
}

for (const [name, open] of IMPLEMENTATIONS) {
  Deno.test(`${name}.finishReservation() and spendRuling() succeed once`, async () => {
    const store = await open();
    try {
      const record = {
        id: "r1",
        session: "s",
        holder: "s/ab12/main#call-1",
        tool: "publish",
        args: {},
        fingerprint: "f",
        effects: ["release.sent"],
        keys: ["release.sent"],
        checks: [],
      };
      assert.equal(await store.effects("s").reserve(record.keys, record.holder), true);
      assert.equal(await store.saveReservation(record), true);
      assert.deepEqual(await store.reservation("s", "r1"), record);
      const finish = { outcome: "commit" } as const;
      assert.deepEqual(
        await Promise.all([store.finishReservation("s", "r1", finish), store.finishReservation("s", "r1", finish)])
          .then((r) => r.sort()),
        ["finished", "unknown"],
      );
      await store.effects("s").refresh();
      assert.deepEqual([...store.effects("s").committed()], ["release.sent"]);
      assert.equal(await store.reservation("s", "r1"), undefined);
      assert.deepEqual(
        await Promise.all([store.spendRuling("s", "x"), store.spendRuling("s", "x")]).then((r) => r.sort()),
        [false, true],
      );
    } finally {
      store.close();
    }
  });
}

Deno.test("openStore() says why a store cannot be opened", async () => {
  const file = await Deno.makeTempFile({ prefix: "pab_store_" });
  try {
    await assert.rejects(openStore(`${file}/inside/state.kv`), (error: Error & { code?: string }) => {
      assert.equal(error.code, "ERR_STORE_OPEN");
      assert.match(error.message, /^Cannot open store ".*\/inside\/state.kv": .+ \(check the path\)$/);
      return true;
    });
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("SessionHost.commit() finishes a reservation another host made on the same store", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_store_" });
  const first = new SessionHost(servePolicy, await openStore(`${dir}/state.kv`));
  const second = new SessionHost(servePolicy, await openStore(`${dir}/state.kv`));
  try {
    const id = await first.create();
    const reserved = await first.propose(id, { tool: "publish_release", args: {}, reservation: "tu_1" });
    assert.equal(reserved.status, "reserved");
    // The other host has no guard holding the call: it fails it in the store, under the first host's holder.
    await second.commit(id, { reservation: "tu_1", error: "timed out" });
    await assert.rejects(
      second.commit(id, { reservation: "tu_1", output: "again" }),
      { code: "ERR_RESERVATION_UNKNOWN" },
    );
    // Released: the tool may run again, and this time the other host commits it.
    assert.equal(
      (await first.propose(id, { tool: "publish_release", args: {}, reservation: "tu_2" })).status,
      "reserved",
    );
    await second.commit(id, { reservation: "tu_2", output: "published" });
    for (const host of [first, second]) {
      const again = await host.propose(id, { tool: "publish_release", args: {} });
      assert.equal(again.status, "blocked");
      assert.deepEqual(again.decision.gaps.map((gap) => gap.code), ["no-prior"]);
    }
    const kinds = (await first.audit(id)).map((record) =>
      record.event.kind === "ledger" ? (record.event.event as { kind: string }).kind : record.event.kind
    );
    assert.deepEqual(kinds.filter((kind) => ["reserved", "reservation", "release", "effect"].includes(kind)), [
      "reserved",
      "reservation",
      "release",
      "reserved",
      "reservation",
      "effect",
    ]);
    const results = (await second.store.inputs(id, 0)).flatMap((input) =>
      input.kind === "result" ? [input.output] : []
    );
    assert.deepEqual(results, ["timed out", "published"]);
  } finally {
    first.store.close();
    second.store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SessionHost.commit() in the process that reserved completes the call through its guard", async () => {
  const host = new SessionHost(servePolicy, await openStore(":memory:"));
  try {
    const id = await host.create();
    const reserved = await host.propose(id, { tool: "publish_release", args: {}, reservation: "r_1" });
    assert.equal(reserved.status, "reserved");
    await host.commit(id, { reservation: "r_1", output: "published" });
    const ledger = (await host.audit(id)).flatMap((record) =>
      record.event.kind === "ledger" ? [(record.event.event as { kind: string }).kind] : []
    );
    assert.deepEqual(ledger, ["dispatch", "reserved", "committed"]);
    assert.equal((await host.propose(id, { tool: "publish_release", args: {} })).status, "blocked");
  } finally {
    host.store.close();
  }
});
