/**
 * Ledger effects in Deno KV: reservations are atomic checks that no writer
 * holds the key (`versionstamp: null`), so among any number of processes
 * sharing a store exactly one reserves an effect.
 *
 * @module
 */
import { retryBusy } from "./_kv_text.ts";
import type { LedgerEffects } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

interface EffectEntry {
  readonly state: "reserved" | "committed";
  readonly holder: string;
}

const MAX_KEYS = 100;

/**
 * The effects of one ledger, kept under `["pab", "fx", ledger, effect]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KvEffects } from "./kv_effects.ts";
 * const kv = await Deno.openKv(":memory:");
 * const effects = new KvEffects(kv, "l1");
 * assert.equal(await effects.reserve(["release.sent"], "r1"), true);
 * assert.equal(await effects.reserve(["release.sent"], "r2"), false);
 * await effects.commit(["release.sent"], "r1");
 * assert.ok(effects.committed().has("release.sent"));
 * kv.close();
 * ```
 */
export class KvEffects implements LedgerEffects {
  readonly #kv: Deno.Kv;
  readonly #ledger: string;
  #committed: ReadonlySet<string> = new Set();

  /** Effects of `ledger` in `kv`. */
  constructor(kv: Deno.Kv, ledger: string) {
    this.#kv = kv;
    this.#ledger = ledger;
  }

  /** Reserve every key or none; false if any is reserved or committed. */
  reserve(keys: readonly string[], holder: string): Promise<boolean> {
    return retryBusy(async () => {
      if (keys.length > MAX_KEYS) {
        throw new StoreError("ERR_STORE_LIMIT", `Cannot reserve ${keys.length} effects at once: at most ${MAX_KEYS}`);
      }
      if (!keys.length) return true;
      const operation = this.#kv.atomic();
      for (const key of new Set(keys)) {
        operation.check({ key: this.#key(key), versionstamp: null }).set(
          this.#key(key),
          { state: "reserved", holder } satisfies EffectEntry,
        );
      }
      return (await operation.commit()).ok;
    });
  }

  /** Commit keys: the call finished. */
  commit(keys: readonly string[], holder: string): Promise<void> {
    return retryBusy(async () => {
      if (!keys.length) return;
      const operation = this.#kv.atomic();
      for (const key of new Set(keys)) {
        operation.set(this.#key(key), { state: "committed", holder } satisfies EffectEntry);
      }
      if (!(await operation.commit()).ok) {
        throw new StoreError("ERR_STORE_WRITE", `Cannot commit effects of "${holder}": the store refused the write`);
      }
      this.#committed = new Set([...this.#committed, ...keys]);
    });
  }

  /** Give up the holder's reservations of keys (committed keys and other holders' stay). */
  release(keys: readonly string[], holder: string): Promise<void> {
    return retryBusy(async () => {
      for (const key of new Set(keys)) {
        const entry = await this.#kv.get<EffectEntry>(this.#key(key));
        if (entry.value?.state !== "reserved" || entry.value.holder !== holder) continue;
        await this.#kv.atomic().check(entry).delete(this.#key(key)).commit();
      }
    });
  }

  /** The committed keys as of the last refresh or commit. */
  committed(): ReadonlySet<string> {
    return this.#committed;
  }

  /** Read the committed keys from the store again. */
  refresh(): Promise<void> {
    return retryBusy(async () => {
      const committed = new Set<string>();
      for await (const entry of this.#kv.list<EffectEntry>({ prefix: ["pab", "fx", this.#ledger] })) {
        if (entry.value.state === "committed") committed.add(String(entry.key[3]));
      }
      this.#committed = committed;
    });
  }

  #key(effect: string): Deno.KvKey {
    return ["pab", "fx", this.#ledger, effect];
  }
}
