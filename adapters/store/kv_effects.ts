/**
 * Ledger effects in Deno KV: reservations are atomic checks that no writer
 * holds the key (`versionstamp: null`), so among any number of processes
 * sharing a store exactly one reserves an effect. A reservation also writes a
 * hold (`["pab", "hold", ledger, holder]`) in the same atomic write, so keys
 * are never held by nobody: the hold is replaced by the reservation record
 * (`KvStore.saveReservation()`), given back by a commit or a release,
 * or, if its process died in between, released by `KvStore.repair()`. Keys
 * held by nobody all the same (left by an earlier pab, or a hand edit) are
 * released when a reservation meets them.
 *
 * @module
 */
import type { KvGate } from "./_kv_gate.ts";
import { type GroupCommitter, StagedWrite } from "./_kv_batch.ts";
import { getAll } from "./_kv_text.ts";
import { releaseUnclaimed } from "./_kv_orphans.ts";
import { type EffectEntry, effectKey, type HoldEntry, holdKey } from "./_kv_effect_keys.ts";
import type { LedgerEffects } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

const MAX_KEYS = 100;

/**
 * The effects of one ledger, kept under `["pab", "fx", ledger, effect]`.
 * Made by `KvStore.effects()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KvStore } from "./kv_store.ts";
 * const store = new KvStore(await Deno.openKv(":memory:"), "memory");
 * const effects = store.effects("l1");
 * assert.equal(await effects.reserve(["release.sent"], "r1"), true);
 * assert.equal(await effects.reserve(["release.sent"], "r2"), false);
 * await effects.commit(["release.sent"], "r1");
 * assert.ok(effects.committed().has("release.sent"));
 * store.close();
 * ```
 */
export class KvEffects implements LedgerEffects {
  readonly #kv: Deno.Kv;
  readonly #gate: KvGate;
  readonly #ledger: string;
  readonly #committer: GroupCommitter;
  #committed: ReadonlySet<string> = new Set();

  /**
   * Effects of `ledger` in `kv`, every call through `gate`, every write through `committer` (committed with the
   * steps other requests staged meanwhile, each still whole or not at all).
   */
  constructor(kv: Deno.Kv, gate: KvGate, ledger: string, committer: GroupCommitter) {
    this.#kv = kv;
    this.#gate = gate;
    this.#ledger = ledger;
    this.#committer = committer;
  }

  /** Reserve every key or none (and hold them for `holder`); false if any is reserved or committed. */
  reserve(keys: readonly string[], holder: string): Promise<boolean> {
    return this.#gate.run("reserve effects", async () => {
      if (keys.length > MAX_KEYS) {
        throw new StoreError("ERR_STORE_LIMIT", `Cannot reserve ${keys.length} effects at once: at most ${MAX_KEYS}`);
      }
      if (!keys.length) return true;
      const unique = [...new Set(keys)];
      const hold = holdKey(this.#ledger, holder);
      // Holders are unique per call, so the hold needs no check of its own (a write takes at most 100 checks).
      const operation = new StagedWrite().set(hold, { keys: unique, at: Date.now() } satisfies HoldEntry);
      for (const key of unique) {
        const entry: EffectEntry = { state: "reserved", holder };
        operation.check({ key: this.#key(key), versionstamp: null }).set(this.#key(key), entry);
      }
      if ((await this.#committer.commit(operation)) !== null) return true;
      // Keys nobody can ever finish may be in the way (left by an earlier pab, or a hand edit): released, try again.
      if (!(await releaseUnclaimed(this.#kv, this.#ledger, unique))) return false;
      return (await this.#committer.commit(operation)) !== null;
    });
  }

  /** Commit keys: the call finished (its hold, if any, is given back). */
  commit(keys: readonly string[], holder: string): Promise<void> {
    return this.#gate.run("commit effects", async () => {
      if (!keys.length) return;
      const operation = new StagedWrite().delete(holdKey(this.#ledger, holder));
      for (const key of new Set(keys)) {
        operation.set(this.#key(key), { state: "committed", holder } satisfies EffectEntry);
      }
      if ((await this.#committer.commit(operation)) === null) {
        throw new StoreError("ERR_STORE_WRITE", `Cannot commit effects of "${holder}": the store refused the write`);
      }
      this.#committed = new Set([...this.#committed, ...keys]);
    });
  }

  /** Give up the holder's reservations of keys in one write (committed keys and other holders' stay). */
  release(keys: readonly string[], holder: string): Promise<void> {
    return this.#gate.run("release effects", async () => {
      const entries = await getAll<EffectEntry>(this.#kv, [...new Set(keys)].map((key) => this.#key(key)));
      const operation = new StagedWrite().delete(holdKey(this.#ledger, holder));
      for (const entry of entries) {
        if (entry.value?.state === "reserved" && entry.value.holder === holder) {
          operation.check(entry).delete(entry.key);
        }
      }
      // A concurrent change to one of these keys is not the holder's: read again and retry.
      if ((await this.#committer.commit(operation)) === null) {
        throw new Error("database is locked (a key changed meanwhile)");
      }
    });
  }

  /** The committed keys as of the last refresh or commit. */
  committed(): ReadonlySet<string> {
    return this.#committed;
  }

  /** Read the committed keys from the store again. */
  refresh(): Promise<void> {
    return this.#gate.run("read effects", async () => {
      const committed = new Set<string>();
      for await (const entry of this.#kv.list<EffectEntry>({ prefix: ["pab", "fx", this.#ledger] })) {
        if (entry.value.state === "committed") committed.add(String(entry.key[3]));
      }
      this.#committed = committed;
    });
  }

  #key(effect: string): Deno.KvKey {
    return effectKey(this.#ledger, effect);
  }
}

/**
 * Release the holds older than `grace` milliseconds: their process died
 * between reserving keys and saving the reservation (the caller never got an
 * id), so nobody can finish them. Returns how many were released.
 */
export async function releaseStaleHolds(kv: Deno.Kv, gate: KvGate, grace: number, now: number): Promise<number> {
  let released = 0;
  const holds = await gate.run("list holds", async () => {
    const found: Deno.KvEntry<HoldEntry>[] = [];
    for await (const entry of kv.list<HoldEntry>({ prefix: ["pab", "hold"] })) found.push(entry);
    return found;
  });
  for (const hold of holds) {
    if (now - hold.value.at < grace) continue;
    const [, , ledger, holder] = hold.key as [string, string, string, string];
    const done = await gate.run("release a stale hold", async () => {
      const entries = await getAll<EffectEntry>(kv, hold.value.keys.map((key) => effectKey(ledger, key)));
      const operation = kv.atomic().check(hold).delete(hold.key);
      for (const entry of entries) {
        if (entry.value?.state === "reserved" && entry.value.holder === holder) {
          operation.check(entry).delete(entry.key);
        }
      }
      return (await operation.commit()).ok;
    });
    if (done) released++;
  }
  return released;
}
