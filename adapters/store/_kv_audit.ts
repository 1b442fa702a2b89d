import { type AuditEvent, type AuditRecord, type LinkedText, linkText } from "../audit/mod.ts";
import { InputTexts, setShared, type SharedSource } from "./_kv_shared.ts";
import { partText, setText, type SharedPiece, type TextPart } from "./_kv_text.ts";
import type { KvMutations } from "./_kv_batch.ts";
import { parseJson } from "../json/mod.ts";

/** A chain's head as stored: its seq and hash, under the versionstamp of the write that set it. */
export type HeadEntry = Deno.KvEntryMaybe<{ seq: number; hash: string }>;

/**
 * Chain `events` after the head of `stream` in an atomic operation: `known`
 * (the head this process last wrote) or else the stored one. The head is
 * checked, so the operation fails if another writer moved it. Returns the
 * records the operation writes (as their JSON texts) and the head it sets.
 * The last record is kept without the text it shares with `shared` (the
 * input it records, written in the same operation), if any.
 */
export async function addAudit(
  kv: Deno.Kv,
  operation: KvMutations,
  stream: string,
  events: readonly AuditEvent[],
  known?: HeadEntry,
  shared?: SharedSource,
): Promise<{ records: LinkedText[]; head?: { seq: number; hash: string } }> {
  if (!events.length) return { records: [] };
  const headKey = ["pab", "head", stream];
  const head = known ?? await kv.get<{ seq: number; hash: string }>(headKey);
  operation.check(head);
  const records: LinkedText[] = [];
  let last: Pick<AuditRecord, "seq" | "hash"> | undefined = head.value ?? undefined;
  for (const [i, event] of events.entries()) {
    const record = linkText(stream, last, event);
    const key = ["pab", "audit", stream, record.seq];
    if (!(shared && i === events.length - 1 && setShared(operation, key, record.text, shared))) {
      await setText(kv, operation, key, record.text);
    }
    records.push(record);
    last = record;
  }
  const value = { seq: last!.seq, hash: last!.hash };
  operation.set(headKey, value);
  return { records, head: value };
}

/** The records of one chain, or of every chain (every chain that has records, headed or not), in order. */
export async function readChains(kv: Deno.Kv, stream?: string): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  let parts: string[] = [];
  let place = "";
  const flush = () => {
    if (parts.length) records.push(parseJson(parts.join("")) as AuditRecord);
    parts = [];
  };
  const prefix = stream === undefined ? ["pab", "audit"] : ["pab", "audit", stream];
  const inputs = new InputTexts(kv);
  for await (const entry of kv.list<TextPart>({ prefix })) {
    const here = JSON.stringify(entry.key.slice(2, 4));
    if (here !== place) flush();
    place = here;
    const part = entry.value;
    parts.push(
      await (part.shared ? inputs.whole(entry.key, part as TextPart & { shared: SharedPiece }) : partText(kv, part)),
    );
  }
  flush();
  return records;
}

/** The head each chain's writer recorded, by chain. */
export async function readHeads(kv: Deno.Kv): Promise<Map<string, { seq: number; hash: string }>> {
  const heads = new Map<string, { seq: number; hash: string }>();
  for await (const entry of kv.list<{ seq: number; hash: string }>({ prefix: ["pab", "head"] })) {
    heads.set(String(entry.key[2]), entry.value);
  }
  return heads;
}
