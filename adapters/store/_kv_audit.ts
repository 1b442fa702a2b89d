import { type AuditEvent, type AuditRecord, type LinkedText, linkText } from "../audit/mod.ts";
import { InputTexts, setShared } from "./_kv_shared.ts";
import { partText, setText, type SharedPiece, type TextPart } from "./_kv_text.ts";
import type { KvMutations } from "./_kv_batch.ts";
import type { StagedInput } from "./_kv_inputs.ts";
import { joinRecord, rowRecords } from "./_kv_row_record.ts";
import { parseJson } from "../json/mod.ts";
import { StoreError } from "./store_error.ts";
import { chainHead } from "./_kv_values.ts";

/** A chain's head as stored: its seq and hash, under the versionstamp of the write that set it. */
export type HeadEntry = Deno.KvEntryMaybe<{ seq: number; hash: string }>;

/**
 * Chain `events` after the head of `stream` in an atomic operation: `known`
 * (the head this process last wrote) or else the stored one. The head is
 * checked, so the operation fails if another writer moved it. Returns the
 * records the operation writes (as their JSON texts) and the head it sets.
 * The last record records `input` (written in the same operation), if any:
 * it is kept in the input's row when the input has one part, and else
 * without the text it shares with the input.
 */
export async function addAudit(
  kv: Deno.Kv,
  operation: KvMutations,
  stream: string,
  events: readonly AuditEvent[],
  known?: HeadEntry,
  input?: StagedInput,
): Promise<{ records: LinkedText[]; head?: { seq: number; hash: string } }> {
  if (!events.length) return { records: [] };
  const headKey = ["pab", "head", stream];
  const head = known ?? await kv.get<{ seq: number; hash: string }>(headKey);
  operation.check(head);
  const records: LinkedText[] = [];
  let last: Pick<AuditRecord, "seq" | "hash"> | undefined = head.value === null
    ? undefined
    : chainHead(headKey, head.value);
  for (const [i, event] of events.entries()) {
    const record = linkText(stream, last, event);
    const key = ["pab", "audit", stream, record.seq];
    const recorded = i === events.length - 1 ? input : undefined;
    const inRow = recorded?.row !== undefined && joinRecord(recorded.row, record.seq, record.text, recorded.source);
    if (!inRow && !(recorded?.source && setShared(operation, key, record.text, recorded.source))) {
      await setText(kv, operation, key, record.text);
    }
    records.push(record);
    last = record;
  }
  const value = { seq: last!.seq, hash: last!.hash };
  operation.set(headKey, value);
  return { records, head: value };
}

/**
 * The records of one chain, or of every chain (every chain that has records,
 * headed or not), in order: those in the chain's own rows and those kept in
 * the rows of the inputs they record. A record found in both (a session's
 * inputs being dropped) must be the same text, else `ERR_STORE_CORRUPT`.
 */
export async function readChains(kv: Deno.Kv, stream?: string): Promise<AuditRecord[]> {
  const chains = await rowRecords(kv, stream);
  let parts: string[] = [];
  let place: Deno.KvKey = [];
  const flush = () => {
    if (!parts.length) return;
    const [, , name, seq] = place as [string, string, string, number];
    let chain = chains.get(name);
    if (!chain) chains.set(name, chain = new Map());
    const text = parts.join("");
    if ((chain.get(seq) ?? text) !== text) {
      throw new StoreError(
        "ERR_STORE_CORRUPT",
        `Cannot read audit record ${seq} of "${name}": it differs from the copy kept with its input ` +
          `(restore the store from a backup)`,
      );
    }
    chain.set(seq, text);
    parts = [];
  };
  const prefix = stream === undefined ? ["pab", "audit"] : ["pab", "audit", stream];
  const inputs = new InputTexts(kv);
  for await (const entry of kv.list<TextPart>({ prefix })) {
    if (entry.key[2] !== place[2] || entry.key[3] !== place[3]) flush();
    place = entry.key;
    const part = entry.value;
    parts.push(
      await (part.shared ? inputs.whole(entry.key, part as TextPart & { shared: SharedPiece }) : partText(kv, part)),
    );
  }
  flush();
  // In the store's key order: chains by name (as UTF-8 bytes), records by position.
  const records: AuditRecord[] = [];
  for (const name of [...chains.keys()].sort(byKeyOrder)) {
    const chain = chains.get(name)!;
    for (const seq of [...chain.keys()].sort((a, b) => a - b)) records.push(parseJson(chain.get(seq)!) as AuditRecord);
  }
  return records;
}

const encoder = new TextEncoder();

/** Compare two strings as Deno KV orders them in keys (by their UTF-8 bytes). */
function byKeyOrder(a: string, b: string): number {
  const [x, y] = [encoder.encode(a), encoder.encode(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The id of every session the store keeps, in key order (keys only are used: a session's record is small). */
export async function readSessionIds(kv: Deno.Kv): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of kv.list({ prefix: ["pab", "session"] })) ids.push(String(entry.key[2]));
  return ids;
}

/** The head each chain's writer recorded, by chain. */
export async function readHeads(kv: Deno.Kv): Promise<Map<string, { seq: number; hash: string }>> {
  const heads = new Map<string, { seq: number; hash: string }>();
  for await (const entry of kv.list<{ seq: number; hash: string }>({ prefix: ["pab", "head"] })) {
    heads.set(String(entry.key[2]), chainHead(entry.key, entry.value));
  }
  return heads;
}
