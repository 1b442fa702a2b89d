/**
 * A local KV file's rows get an expiry about 142,700 years ahead (Deno KV's index of expiries then grows at its end,
 * not at one place per session): every key and value is the same as without it, a row written so reads the same
 * through a store that sets no expiry (an earlier pab), and none expires before that time.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { verifyRecords } from "../adapters/audit/mod.ts";
import { KvStore, openStore, type PabStore } from "../adapters/store/mod.ts";

const AT = "2026-12-02T01:00:00.000Z";
/** 2^52 ms: the expiry's distance, in milliseconds. */
const FAR = 2 ** 52;

type Step =
  | { readonly kind: "input"; readonly session: number; readonly chars: number }
  | { readonly kind: "audit"; readonly session: number }
  | { readonly kind: "ruling"; readonly session: number; readonly id: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("input" as const), session: fc.nat(2), chars: fc.nat(4000) }),
  fc.record({ kind: fc.constant("audit" as const), session: fc.nat(2) }),
  fc.record({ kind: fc.constant("ruling" as const), session: fc.nat(2), id: fc.nat(3) }),
);

/**
 * Apply `steps` in rounds of at most one step per session, each round's steps at once (as concurrent requests are,
 * committed together), then return what they answered and every row under `["pab"]` but the store's mark.
 */
async function play(store: PabStore, kv: Deno.Kv, steps: readonly Step[]): Promise<unknown[]> {
  for (let s = 0; s < 3; s++) await store.createSession({ id: `s${s}`, ledger: `s${s}`, created: AT });
  const next = [0, 0, 0];
  const rounds: Step[][] = [[]];
  for (const step of steps) {
    if (rounds.at(-1)!.some((other) => other.session === step.session)) rounds.push([]);
    rounds.at(-1)!.push(step);
  }
  const outcomes: unknown[] = [];
  for (const round of rounds) {
    outcomes.push(
      await Promise.all(round.map((step) => {
        const session = `s${step.session}`;
        if (step.kind === "input") {
          const text = "w ".repeat(step.chars);
          return store.appendInput(session, next[step.session]++, { kind: "user", text }, [
            { kind: "message", at: AT },
          ]);
        }
        if (step.kind === "audit") return store.writeAuditEvents(session, [{ kind: "message", at: AT }]);
        return store.spendRuling(session, `r${step.id}`);
      })),
    );
  }
  const rows: unknown[] = [outcomes];
  for await (const entry of kv.list({ prefix: ["pab"] })) {
    if (entry.key[1] !== "meta") rows.push([entry.key, entry.value]);
  }
  return rows;
}

function expiries(path: string): { readonly key: string; readonly expires: number }[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare("SELECT k, expiration_ms FROM kv").all() as { k: Uint8Array; expiration_ms: number }[];
    return rows.map((row) => ({ key: new TextDecoder().decode(row.k), expires: Number(row.expiration_ms) }));
  } finally {
    db.close();
  }
}

Deno.test("KvStore with farExpiry writes the same keys and values as without it, each row set to expire 2^52 ms ahead", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_far_expiry_" });
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
        const [far, plain] = [`${dir}/${crypto.randomUUID()}.kv`, `${dir}/${crypto.randomUUID()}.kv`];
        const before = Date.now();
        const farKv = await Deno.openKv(far);
        const plainKv = await Deno.openKv(plain);
        try {
          const farRows = await play(new KvStore(farKv, far, { farExpiry: true }), farKv, steps);
          assert.deepEqual(farRows, await play(new KvStore(plainKv, plain), plainKv, steps));
        } finally {
          farKv.close();
          plainKv.close();
        }
        const after = Date.now();
        for (const { key, expires } of expiries(far)) {
          assert.ok(expires >= before + FAR && expires <= after + FAR, `${key} expires at ${expires}`);
        }
        for (const { key, expires } of expiries(plain)) assert.equal(expires, -1, key);
      }),
      { numRuns: 12 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() gives a file's rows a far expiry, and a store with no expiry reads them and adds to them the same", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_far_expiry_" });
  const path = `${dir}/store.kv`;
  try {
    const output = "o".repeat(3000);
    const store = await openStore(path);
    try {
      await store.createSession({ id: "s", ledger: "s", created: AT }, [{ kind: "session", at: AT }]);
      const recorded = [{ kind: "result", at: AT }] as const;
      assert.equal(await store.appendInput("s", 0, { kind: "result", tool: "t", args: {}, output }, recorded), true);
      await store.writeAuditEvents("s", [{ kind: "message", at: AT }]);
    } finally {
      store.close();
    }
    const written = expiries(path).filter((row) => row.key.includes("\u0002in\u0000"));
    assert.equal(written.length, 1);
    assert.ok(written[0].expires > Date.now() + FAR - 3_600_000);
    // An earlier pab (no expiry) reads the same store and appends after it; a far-expiry store reads what it wrote.
    const kv = await Deno.openKv(path);
    const earlier = new KvStore(kv, path);
    try {
      assert.deepEqual(await earlier.inputs("s", 0), [{ kind: "result", tool: "t", args: {}, output }]);
      assert.equal(
        await earlier.appendInput("s", 1, { kind: "user", text: "later" }, [{ kind: "message", at: AT }]),
        true,
      );
      assert.equal((await earlier.audit("s")).length, 4);
    } finally {
      earlier.close();
    }
    const again = await openStore(path);
    try {
      assert.deepEqual((await again.inputs("s", 0)).map((input) => input.kind), ["result", "user"]);
      assert.equal(
        await again.appendInput("s", 2, { kind: "user", text: "last" }, [{ kind: "message", at: AT }]),
        true,
      );
      const chain = await again.audit("s");
      assert.equal(chain.length, 5);
      assert.equal(verifyRecords(chain).ok, true);
    } finally {
      again.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
