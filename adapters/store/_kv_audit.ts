import { type AuditEvent, type AuditRecord, linkRecord } from "../audit/mod.ts";
import { setText } from "./_kv_text.ts";
import type { KvMutations } from "./_kv_batch.ts";

/**
 * Chain `events` after the current head of `stream` in an atomic operation:
 * the head is checked, so the operation fails if another writer moved it.
 * Returns the records the operation writes.
 */
export async function addAudit(
  kv: Deno.Kv,
  operation: KvMutations,
  stream: string,
  events: readonly AuditEvent[],
): Promise<AuditRecord[]> {
  if (!events.length) return [];
  const headKey = ["pab", "head", stream];
  const head = await kv.get<{ seq: number; hash: string }>(headKey);
  operation.check(head);
  const records: AuditRecord[] = [];
  let last: Pick<AuditRecord, "seq" | "hash"> | undefined = head.value ?? undefined;
  for (const event of events) {
    const record = linkRecord(stream, last, event);
    await setText(kv, operation, ["pab", "audit", stream, record.seq], JSON.stringify(record));
    records.push(record);
    last = record;
  }
  operation.set(headKey, { seq: last!.seq, hash: last!.hash });
  return records;
}
