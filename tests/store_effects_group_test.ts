/**
 * Reservations, commits, releases and spent rulings on a KV store are committed together with whatever other
 * requests staged meanwhile, and each stays atomic: among concurrent reservations no key goes to two holders and a
 * reservation that lost met a key a winner holds; a ruling is spent once; after the winners commit or give back,
 * exactly their committed keys are committed and nothing stays held.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { KvStore } from "../adapters/store/mod.ts";

const POOL = ["a", "b", "c", "d", "e", "f"];

/** A KV whose atomic writes are counted. */
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; atomics: () => number } {
  let atomics = 0;
  const counted = new Proxy(kv, {
    get(target, name) {
      if (name === "atomic") {
        return () => {
          atomics++;
          return target.atomic();
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counted, atomics: () => atomics };
}

async function entries(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvEntry<unknown>[]> {
  const found: Deno.KvEntry<unknown>[] = [];
  for await (const entry of kv.list({ prefix })) found.push(entry);
  return found;
}

Deno.test("KvStore reserves, commits, releases and spends rulings in groups, each write still atomic", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_fx_group_" });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ keys: fc.subarray(POOL, { minLength: 1 }), commit: fc.boolean(), ruling: fc.nat({ max: 3 }) }),
          { minLength: 1, maxLength: 20 },
        ),
        async (calls) => {
          const raw = await Deno.openKv(`${dir}/${crypto.randomUUID()}.kv`);
          const store = new KvStore(raw, "test");
          try {
            const effects = store.effects("ledger");
            // Every reservation and every spend at once.
            const [reserved, spent] = await Promise.all([
              Promise.all(calls.map((call, i) => effects.reserve(call.keys, `h${i}`))),
              Promise.all(calls.map((call) => store.spendRuling("s", `r${call.ruling}`))),
            ]);
            const held = new Map<string, number>();
            calls.forEach((call, i) => {
              if (!reserved[i]) return;
              for (const key of call.keys) {
                assert.equal(held.has(key), false, `key ${key} went to two holders`);
                held.set(key, i);
              }
            });
            calls.forEach((call, i) => {
              if (!reserved[i]) assert.ok(call.keys.some((key) => held.has(key)), `h${i} lost with its keys free`);
            });
            const rulings = new Set(calls.map((call) => call.ruling));
            assert.equal(spent.filter(Boolean).length, rulings.size);
            // The winners finish at once: some commit, some give their keys back.
            await Promise.all(calls.map((call, i) => {
              if (!reserved[i]) return Promise.resolve();
              return call.commit ? effects.commit(call.keys, `h${i}`) : effects.release(call.keys, `h${i}`);
            }));
            const committed = new Set(calls.flatMap((call, i) => reserved[i] && call.commit ? call.keys : []));
            const stored = await entries(raw, ["pab", "fx", "ledger"]);
            assert.deepEqual(new Set(stored.map((entry) => String(entry.key[3]))), committed);
            for (const entry of stored) assert.equal((entry.value as { state: string }).state, "committed");
            assert.deepEqual(await entries(raw, ["pab", "hold"]), []);
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KvStore commits concurrent reservations of distinct keys in fewer writes than reservations", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_fx_group_" });
  const counted = countingKv(await Deno.openKv(`${dir}/fx.kv`));
  const store = new KvStore(counted.kv, "test");
  try {
    const effects = store.effects("ledger");
    const ok = await Promise.all(Array.from({ length: 40 }, (_, i) => effects.reserve([`k${i}`], `h${i}`)));
    assert.deepEqual(ok, Array(40).fill(true));
    assert.ok(counted.atomics() < 40, `${counted.atomics()} writes for 40 reservations`);
    const rivals = await Promise.all(Array.from({ length: 40 }, (_, i) => effects.reserve([`k${i}`], `x${i}`)));
    assert.deepEqual(rivals, Array(40).fill(false));
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
