/**
 * Where ledger effects live: reserved by a call at dispatch, committed when it
 * finishes, or released. The interface is small so a store can be backed by
 * Deno KV; the in-memory store here is the default.
 *
 * A key is the canonical text of an effect with its arguments, such as
 * `legal.precleared{"client":4211}`.
 *
 * @module
 */

/** Atomic effect state, per key. */
export interface EffectStore {
  /**
   * Reserve every key for `holder`, all or nothing: `false` (and nothing
   * reserved) if any key is already reserved or committed.
   */
  reserve(keys: readonly string[], holder: string): boolean | Promise<boolean>;
  /** Commit keys: they stay committed for good. A key `holder` reserved stops being reserved. */
  commit(keys: readonly string[], holder: string): void | Promise<void>;
  /** Release the keys `holder` reserved, committing nothing. Keys held by others are left alone. */
  release(keys: readonly string[], holder: string): void | Promise<void>;
  /** A synchronous snapshot of the committed keys, used when judging a call. */
  committed(): ReadonlySet<string>;
}

/**
 * The default store: a map in memory, atomic because JavaScript runs one task at a time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MemoryEffectStore } from "./effect_store.ts";
 * const store = new MemoryEffectStore();
 * assert.equal(store.reserve(["release.sent"], "call-1"), true);
 * assert.equal(store.reserve(["release.sent"], "call-2"), false);
 * store.commit(["release.sent"], "call-1");
 * assert.deepEqual([...store.committed()], ["release.sent"]);
 * assert.equal(store.reserve(["release.sent"], "call-3"), false);
 * ```
 */
export class MemoryEffectStore implements EffectStore {
  /** Replaced, never changed, on each commit: every decision reads it, and a copy each time cost a pass over them all. */
  #committed: ReadonlySet<string> = new Set<string>();
  readonly #held = new Map<string, string>();

  /** Reserve every key for `holder`, or none. */
  reserve(keys: readonly string[], holder: string): boolean {
    if (keys.some((key) => this.#committed.has(key) || this.#held.has(key))) return false;
    for (const key of keys) this.#held.set(key, holder);
    return true;
  }

  /** Commit keys for good. */
  commit(keys: readonly string[], holder: string): void {
    for (const key of keys) if (this.#held.get(key) === holder) this.#held.delete(key);
    this.#committed = new Set([...this.#committed, ...keys]);
  }

  /** Release the keys `holder` holds. */
  release(keys: readonly string[], holder: string): void {
    for (const key of keys) if (this.#held.get(key) === holder) this.#held.delete(key);
  }

  /** The committed keys (a set no later commit changes). */
  committed(): ReadonlySet<string> {
    return this.#committed;
  }
}
