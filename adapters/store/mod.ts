/**
 * pab's durable state on Deno KV: sessions and their inputs, ledger effects
 * with atomic reservations, rulings spent once, and tamper-evident audit
 * chains; in memory (plain JavaScript), in a Deno KV file, or on a remote KV (`denokv` or Deno
 * Deploy) shared by several processes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openStore } from "./mod.ts";
 * const store = await openStore(":memory:");
 * const effects = store.effects("ledger-1");
 * assert.equal(await effects.reserve(["release.sent"], "r1"), true);
 * assert.equal(await effects.reserve(["release.sent"], "r2"), false);
 * store.close();
 * ```
 *
 * @module
 */
export type { LedgerEffects, PabStore, ReservationRecord, SessionInput, SessionRecord } from "./pab_store.ts";
export { KvStore } from "./kv_store.ts";
export { KvEffects } from "./kv_effects.ts";
export { MemoryEffects, MemoryStore } from "./memory_store.ts";
export { openStore } from "./open_store.ts";
export { StoreError } from "./store_error.ts";
