/**
 * pab's durable state on Deno KV: sessions and their inputs, ledger effects
 * with atomic reservations, rulings spent once, and tamper-evident audit
 * chains; in memory (plain JavaScript), in a Deno KV file, or on a remote KV (`denokv` or Deno
 * Deploy) shared by several processes. Every logical step is one atomic
 * write; every failure is a {@linkcode StoreError} with a stable code and a
 * retry hint, within a deadline; {@linkcode PabStore.probe} reports health.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openStore } from "./mod.ts";
 * const store = await openStore(":memory:");
 * const effects = store.effects("ledger-1");
 * assert.equal(await effects.reserve(["release.sent"], "r1"), true);
 * assert.equal(await effects.reserve(["release.sent"], "r2"), false);
 * assert.deepEqual(await store.probe(), { ok: true, description: "memory", latencyMs: 0 });
 * store.close();
 * ```
 *
 * @module
 */
export type {
  EffectCommit,
  FinishResult,
  InputsCheck,
  LedgerEffects,
  PabStore,
  ReservationFinish,
  ReservationRecord,
  SessionInput,
  SessionRecord,
  StoreHealth,
} from "./pab_store.ts";
export { KvStore, type KvStoreOptions } from "./kv_store.ts";
export { ENDED_CHAINS, MemoryEffects, MemoryStore } from "./memory_store.ts";
export { DEFAULT_DEADLINE, openStore, type OpenStoreOptions } from "./open_store.ts";
export { defaultStorePath, type FileIdentity, prepareStoreFile } from "./safe_path.ts";
export { isStoreErrorCode, STORE_ERROR_CODES, StoreError, type StoreErrorCode } from "./store_error.ts";
