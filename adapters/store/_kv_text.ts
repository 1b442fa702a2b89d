import { sha256Hex } from "../../core/mod.ts";
import type { KvMutations } from "./_kv_batch.ts";
import { corruptValue } from "./_kv_values.ts";

// Large JSON texts in Deno KV: a value may hold at most 64 KiB, so a text is
// kept in parts of at most PART UTF-16 units (at most 60 KB serialised) under
// [...key, 0], [...key, 1], ... and written in one atomic operation. A text
// longer than INLINE parts would crowd the operation (Deno KV commits at most
// 800 KB at once): it is written first as a blob named by its sha256, in
// commits of its own, and the operation writes only a reference to it. A
// blob is content-addressed, so writing it twice is harmless, and one left
// by a process killed before its reference was written is unreferenced.
/** The most UTF-16 units one stored part holds. */
export const PART = 30_000;
const INLINE = 3;
const BLOB_BATCH = 10;

/** Where a record's missing piece is: in the text of its session's input `input`, from `from`, `length` long. */
export interface SharedPiece {
  /** The input's position. */
  readonly input: number;
  /** Where the piece starts in the input's text. */
  readonly from: number;
  /** The piece's length. */
  readonly length: number;
  /** The record's text after the piece (its part's `text` is the text before it). */
  readonly after: string;
}

/** An audit record kept in the row of the input it records (see `_kv_row_record.ts`). */
export interface RowRecord {
  /** Its position in its session's chain. */
  readonly seq: number;
  /** Its text; with `from`, its text before the piece it shares with the input. */
  readonly text: string;
  /** Where the shared piece starts in the input's text. */
  readonly from?: number;
  /** The shared piece's length. */
  readonly length?: number;
  /** The record's text after the shared piece. */
  readonly after?: string;
}

/** A stored part: a slice of the text, or a reference to a blob holding all of it. */
export interface TextPart {
  /** How many parts the text has under its key. */
  readonly count: number;
  /** This part's slice ("" for a reference). */
  readonly text: string;
  /** The sha256 of the whole text, when it is kept as a blob. */
  readonly blob?: string;
  /** How many parts the blob has. */
  readonly parts?: number;
  /** An audit record's missing piece, in its input's text (`text` is the record's text before it). */
  readonly shared?: SharedPiece;
  /** The audit record of the input this part is the only part of, kept with it (see `_kv_row_record.ts`). */
  readonly record?: RowRecord;
}

/** Add `text` under `key` to an atomic operation (it must not be returned from an async function: Deno's operation is a thenable that throws) (a large text goes to a blob first, outside the operation). */
export async function setText(
  kv: Deno.Kv,
  operation: KvMutations,
  key: Deno.KvKey,
  text: string,
): Promise<void> {
  const count = Math.max(1, Math.ceil(text.length / PART));
  if (count > INLINE) {
    const blob = sha256Hex(text);
    for (let first = 0; first < count; first += BLOB_BATCH) {
      const batch = kv.atomic();
      for (let i = first; i < Math.min(count, first + BLOB_BATCH); i++) {
        batch.set(["pab", "blob", blob, i], text.slice(i * PART, (i + 1) * PART));
      }
      if (!(await batch.commit()).ok) throw new Error("database is locked (a blob write was refused)");
    }
    operation.set([...key, 0], { count: 1, text: "", blob, parts: count } satisfies TextPart);
    return;
  }
  for (let i = 0; i < count; i++) {
    operation.set([...key, i], { count, text: text.slice(i * PART, (i + 1) * PART) } satisfies TextPart);
  }
}

/** The text of one stored part: its slice, or the whole blob it names. */
export async function partText(kv: Deno.Kv, part: TextPart): Promise<string> {
  if (part.blob === undefined) return part.text;
  const slices: string[] = [];
  for await (const entry of kv.list<string>({ prefix: ["pab", "blob", part.blob] })) slices.push(entry.value);
  const text = slices.join("");
  if (slices.length !== part.parts || sha256Hex(text) !== part.blob) {
    throw new Error(`database disk image is malformed (blob ${part.blob} is incomplete or changed)`);
  }
  return text;
}

/** `value` as a stored text part, or `ERR_STORE_CORRUPT`. */
export function textPart(key: Deno.KvKey, value: unknown): TextPart {
  const part = value as Partial<TextPart> | null;
  if (typeof part !== "object" || part === null || typeof part.text !== "string" || !(Number(part.count) >= 1)) {
    throw corruptValue(key, "it is not a part of a stored text");
  }
  return part as TextPart;
}

/** Join the parts listed under a prefix into texts, keyed by the key part after the prefix, with their first part's versionstamp. */
export async function listTexts(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  depth: number,
): Promise<{ readonly id: Deno.KvKeyPart; readonly text: string; readonly versionstamp: string }[]> {
  const texts: { id: Deno.KvKeyPart; text: string; versionstamp: string }[] = [];
  let parts: string[] = [];
  let current: Deno.KvEntry<unknown> | undefined;
  let expected = 0;
  // Parts are written in one atomic write, so parts that do not add up are damage: never a text dropped in silence.
  const flush = () => {
    if (!current) return;
    if (parts.length !== expected) {
      throw corruptValue(current.key.slice(0, depth + 1), `it has ${parts.length} of its ${expected} parts`);
    }
    texts.push({ id: current.key[depth], text: parts.join(""), versionstamp: current.versionstamp });
  };
  for await (const entry of kv.list<unknown>(selector)) {
    const part = textPart(entry.key, entry.value);
    if (current === undefined || entry.key[depth] !== current.key[depth]) {
      flush();
      current = entry;
      parts = [];
      expected = part.count;
    }
    parts.push(await partText(kv, part));
  }
  flush();
  return texts;
}

/** Wait a little before retrying a conflicting write (jittered, growing with attempts). */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 1 + attempt * 2)));
}

/** Read many keys (Deno KV reads at most 10 at a time). */
export async function getAll<T>(kv: Deno.Kv, keys: readonly Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> {
  const entries: Deno.KvEntryMaybe<T>[] = [];
  for (let i = 0; i < keys.length; i += 10) entries.push(...await kv.getMany<T[]>(keys.slice(i, i + 10)));
  return entries;
}
