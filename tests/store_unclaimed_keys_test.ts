/**
 * Held keys without a hold or a reservation do not block for good: reserved
 * effect keys that no hold lists and no open reservation record names (what
 * an earlier pab left when it crashed between reserving and saving the
 * record, or a hand edit) are released when a reservation meets them, and
 * nothing else is touched: live holds, saved reservations and committed
 * keys still refuse it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { openStore, type ReservationRecord } from "../adapters/store/mod.ts";

type Kind = "held" | "saved" | "committed" | "unclaimed" | "claimed-elsewhere";

const CREATED = "2026-12-02T00:00:00.000Z";

/** A store where effect `k<i>` of ledger `s` is in state `kinds[i]`. */
async function build(path: string, kinds: readonly Kind[]): Promise<void> {
  const store = await openStore(path);
  assert.equal(await store.createSession({ id: "s", ledger: "s", created: CREATED }), true);
  const effects = store.effects("s");
  const kv = await Deno.openKv(path);
  for (const [i, kind] of kinds.entries()) {
    const key = `k${i}`;
    const holder = `s/h${i}`;
    if (kind === "unclaimed") {
      await kv.set(["pab", "fx", "s", key], { state: "reserved", holder });
      continue;
    }
    assert.equal(await effects.reserve([key], holder), true);
    if (kind === "saved" || kind === "claimed-elsewhere") {
      const record: ReservationRecord = {
        id: `r${i}`,
        session: "s",
        holder,
        tool: "t",
        args: {},
        fingerprint: `f${i}`,
        effects: [key],
        keys: [key],
        checks: [],
      };
      assert.equal(await store.saveReservation(record), true);
    }
    if (kind === "claimed-elsewhere") {
      // Its record names it, but another holder's key beside it is claimed by nobody.
      await kv.set(["pab", "fx", "s", `${key}-stray`], { state: "reserved", holder: `s/other${i}` });
    }
    if (kind === "committed") await effects.commit([key], holder);
  }
  kv.close();
  store.close();
}

async function entries(path: string): Promise<Map<string, unknown>> {
  const kv = await Deno.openKv(path);
  const found = new Map<string, unknown>();
  for await (const entry of kv.list({ prefix: ["pab", "fx", "s"] })) found.set(String(entry.key[3]), entry.value);
  kv.close();
  return found;
}

Deno.test("reserve() releases the reserved keys no hold or reservation claims, and no other key", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom<Kind>("held", "saved", "committed", "unclaimed", "claimed-elsewhere"), {
        minLength: 1,
        maxLength: 8,
      }),
      fc.boolean(),
      async (kinds, together) => {
        const dir = await Deno.makeTempDir({ prefix: "pab_unclaimed_" });
        try {
          const path = `${dir}/state.kv`;
          await build(path, kinds);
          const before = await entries(path);
          const store = await openStore(path);
          const effects = store.effects("s");
          const keys = kinds.map((_, i) => `k${i}`);
          const free = kinds.every((kind) => kind === "unclaimed");
          // All at once (all or nothing), or one by one.
          if (together) assert.equal(await effects.reserve(keys, "s/again"), free);
          else {
            for (const [i, kind] of kinds.entries()) {
              assert.equal(await effects.reserve([`k${i}`], `s/again${i}`), kind === "unclaimed", `k${i} (${kind})`);
            }
          }
          const after = await entries(path);
          for (const [i, kind] of kinds.entries()) {
            const key = `k${i}`;
            if (kind !== "unclaimed") assert.deepEqual(after.get(key), before.get(key), `${key} (${kind}) is kept`);
            else if (together && !free) assert.equal(after.has(key), false, `${key} (${kind}) is released`);
            else assert.equal((after.get(key) as { holder: string }).holder.startsWith("s/again"), true);
            if (kind === "claimed-elsewhere") {
              assert.equal(await effects.reserve([`${key}-stray`], `s/stray${i}`), true, `${key}-stray`);
            }
          }
          store.close();
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      },
    ),
    { numRuns: 25 },
  );
});

Deno.test("reserve() releases no key while a reservation record cannot be read (it may claim any)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_unclaimed_" });
  try {
    const path = `${dir}/state.kv`;
    await build(path, ["unclaimed"]);
    const kv = await Deno.openKv(path);
    await kv.set(["pab", "res", "s", "broken", 0], { count: 1, text: "{not json" });
    kv.close();
    const store = await openStore(path);
    assert.equal(await store.effects("s").reserve(["k0"], "s/again"), false);
    store.close();
    assert.deepEqual((await entries(path)).get("k0"), { state: "reserved", holder: "s/h0" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
