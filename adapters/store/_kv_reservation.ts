import type { KvMutations } from "./_kv_batch.ts";
import { getAll, setText } from "./_kv_text.ts";
import { type EffectEntry, effectKey, holdKey } from "./_kv_effect_keys.ts";
import type { ReservationRecord } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

/**
 * Stage saving a reservation in an atomic write: the hold of its keys (each
 * checked still held by its holder) turns into its record, and its rulings
 * are spent. False, with nothing to write, when a ruling was spent already;
 * fails `ERR_STORE_WRITE` when a key is no longer held.
 */
export async function stageReservation(
  kv: Deno.Kv,
  operation: KvMutations,
  record: ReservationRecord,
  ledger: string,
  spend: readonly string[],
): Promise<boolean> {
  const keys = [...new Set(record.keys)];
  const held = await getAll<EffectEntry>(kv, keys.map((key) => effectKey(ledger, key)));
  for (const entry of held) {
    if (entry.value?.state !== "reserved" || entry.value.holder !== record.holder) {
      throw new StoreError(
        "ERR_STORE_WRITE",
        `Cannot save reservation "${record.id}": its effect "${String(entry.key[3])}" is no longer held ` +
          `(a repair released it after its process stopped; propose the call again)`,
      );
    }
    operation.check(entry);
  }
  operation.delete(holdKey(ledger, record.holder));
  await setText(kv, operation, ["pab", "res", record.session, record.id], JSON.stringify(record));
  for (const ruling of new Set(spend)) {
    const key = ["pab", "spent", record.session, ruling];
    if ((await kv.get(key)).versionstamp !== null) return false;
    operation.check({ key, versionstamp: null }).set(key, true);
  }
  return true;
}
