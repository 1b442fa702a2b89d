// An input's audit record kept in the input's own row. A step that records an input (a tool's output, a message) writes
// the input and the audit record that names it in one atomic write; as two rows, the record costs SQLite a second leaf
// of its B-tree to read and write back on every step. So when the input fits one part, its record is kept in the same
// value: `record` holds the record's position in its session's chain and its text, less the piece it shares with the
// input (where that piece sits in the input's text, as a shared record keeps it). Reading the chain puts each record
// back in its place; anything in such a value this version does not know fails ERR_STORE_CORRUPT, never a wrong record.
// Dropping a session's inputs first writes these records whole into the chain's own rows (see _kv_drop.ts).
import { findPiece, type SharedSource } from "./_kv_shared.ts";
import { PART, type RowRecord, type TextPart } from "./_kv_text.ts";
import { StoreError } from "./store_error.ts";

/** An input staged in one part and not yet added to its write: its audit record may join its value first. */
export interface InputRow {
  /** The key of the input's only part. */
  readonly key: Deno.KvKey;
  /** The part, the input's whole text. */
  readonly value: { readonly count: 1; readonly text: string; record?: RowRecord };
}

/** The keys a stored part may have, and those of a record kept in one (anything else was written by a later pab). */
const PART_KEYS = new Set(["count", "text", "blob", "parts", "shared", "record"]);
const RECORD_KEYS = new Set(["seq", "text", "from", "length", "after"]);

/**
 * Keep the audit record `text` at `seq` in `row`, without the piece it shares
 * with `source` (the same input); false, with `row` unchanged, when the value
 * would outgrow one part.
 */
export function joinRecord(row: InputRow, seq: number, text: string, source?: SharedSource): boolean {
  const found = source ? findPiece(text, source) : undefined;
  const record: RowRecord = found
    ? {
      seq,
      text: text.slice(0, found.at),
      from: found.from,
      length: found.length,
      after: text.slice(found.at + found.length),
    }
    : { seq, text };
  if (row.value.text.length + record.text.length + (record.after?.length ?? 0) > PART) return false;
  row.value.record = record;
  return true;
}

/**
 * The records kept in the input rows of `stream`'s session (of every session
 * when undefined), by chain and position, as their texts. Fails
 * `ERR_STORE_CORRUPT` on a row this version cannot read whole.
 */
export async function rowRecords(kv: Deno.Kv, stream?: string): Promise<Map<string, Map<number, string>>> {
  const chains = new Map<string, Map<number, string>>();
  const prefix = stream === undefined ? ["pab", "in"] : ["pab", "in", stream];
  for await (const entry of kv.list<TextPart>({ prefix })) {
    const text = rowRecordText(entry.key, entry.value);
    if (text === undefined) continue;
    const session = String(entry.key[2]);
    const seq = (entry.value.record as RowRecord).seq;
    let chain = chains.get(session);
    if (!chain) chains.set(session, chain = new Map());
    if (chain.has(seq)) throw corrupt(entry.key, `a second input keeps audit record ${seq}`);
    chain.set(seq, text);
  }
  return chains;
}

/** The whole text of the record kept in the input part at `key`, or undefined if it keeps none; fails `ERR_STORE_CORRUPT` on anything unknown. */
export function rowRecordText(key: Deno.KvKey, part: TextPart): string | undefined {
  if (part === null || typeof part !== "object" || Object.keys(part).some((name) => !PART_KEYS.has(name))) {
    throw corrupt(key, "its stored value has a shape this version does not know (written by a later pab?)");
  }
  const record: unknown = part.record;
  if (record === undefined) return undefined;
  if (
    key[4] !== 0 || part.count !== 1 || typeof part.text !== "string" || part.blob !== undefined ||
    part.shared !== undefined || record === null || typeof record !== "object" ||
    Object.keys(record).some((name) => !RECORD_KEYS.has(name))
  ) {
    throw corrupt(key, "the audit record kept with it has a shape this version does not know");
  }
  const { seq, text, from, length, after } = record as Partial<Record<keyof RowRecord, unknown>>;
  if (!Number.isSafeInteger(seq) || (seq as number) < 0 || typeof text !== "string") {
    throw corrupt(key, "the audit record kept with it has no valid position or text");
  }
  if (from === undefined && length === undefined && after === undefined) return text;
  if (
    !Number.isSafeInteger(from) || !Number.isSafeInteger(length) || (from as number) < 0 || (length as number) < 0 ||
    typeof after !== "string" || (from as number) + (length as number) > part.text.length
  ) {
    throw corrupt(key, "the audit record kept with it points outside the input's text");
  }
  return text + part.text.slice(from as number, (from as number) + (length as number)) + after;
}

function corrupt(key: Deno.KvKey, why: string): StoreError {
  return new StoreError(
    "ERR_STORE_CORRUPT",
    `Cannot read input ${String(key[3])} of "${String(key[2])}": ${why} (restore the store from a backup)`,
  );
}
