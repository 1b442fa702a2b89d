// An audit record that records an input (a tool's output, a message) carries the input's text too: kept twice, a
// 3 KB output doubles what a step writes. So the record is kept once, without the piece it shares with its input
// (written in the same atomic write): its text around the piece, and where the piece is in the input's stored text.
// Reading puts the piece back, so the record's text is the very one written; an input that is missing or shorter
// fails ERR_STORE_CORRUPT, and one that changed changes the record (its hash no longer verifies). Dropping a
// session's inputs first writes the records that share them whole again (see _kv_drop.ts).
import type { KvMutations } from "./_kv_batch.ts";
import { indexOfLong } from "./_index_of_long.ts";
import { listTexts, PART, type SharedPiece, type TextPart } from "./_kv_text.ts";
import type { SessionInput } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

/** Shorter pieces are kept twice (a reference costs about as much). */
const SHARE_MIN = 512;

/** The input an audit record may share text with: its position, its stored text, and the piece worth sharing. */
export interface SharedSource {
  /** The input's position in its session. */
  readonly seq: number;
  /** The input's stored text. */
  readonly text: string;
  /** The longest string of its text or output (JSON writes it as is when it escapes nothing in it). */
  readonly longest: string;
}

/** The input's stored text and the piece an audit record of it may share: its longest string. */
export function sharedSource(seq: number, input: SessionInput, text: string): SharedSource | undefined {
  const longest = longestString(
    input.kind === "result" ? input.output : input.kind === "ruling" ? undefined : input.text,
  );
  return longest.length < SHARE_MIN ? undefined : { seq, text, longest };
}

/** The longest string in a JSON value ("" if none), walked without recursion. */
function longestString(value: unknown): string {
  let longest = "";
  const stack = [value];
  while (stack.length) {
    const next = stack.pop();
    if (typeof next === "string") {
      if (next.length > longest.length) longest = next;
    } else if (next !== null && typeof next === "object") {
      for (const item of Array.isArray(next) ? next : Object.values(next)) stack.push(item);
    }
  }
  return longest;
}

/** Where a record's text shares `source`'s piece: at `at` in the record, at `from` in the input's text; undefined if nowhere. */
export function findPiece(
  text: string,
  source: SharedSource,
): { readonly at: number; readonly from: number; readonly length: number } | undefined {
  // A string's JSON is the same in the input's text and in the record's, whatever the key order around it, and it is
  // the string itself between quotes when JSON escapes nothing in it (searched first: no second JSON of the output).
  for (let attempt = 0; attempt < 2; attempt++) {
    const piece = attempt === 0 ? source.longest : JSON.stringify(source.longest);
    const at = indexOfLong(text, piece);
    const from = at < 0 ? -1 : indexOfLong(source.text, piece);
    if (from >= 0) return { at, from, length: piece.length };
  }
  return undefined;
}

/** Add a record's text under `key`, without the piece it shares with `source`; false (nothing added) if it shares none. */
export function setShared(operation: KvMutations, key: Deno.KvKey, text: string, source: SharedSource): boolean {
  const found = findPiece(text, source);
  if (!found || text.length - found.length > PART) return false;
  const { at, from, length } = found;
  const shared: SharedPiece = { input: source.seq, from, length, after: text.slice(at + length) };
  operation.set([...key, 0], { count: 1, text: text.slice(0, at), shared } satisfies TextPart);
  return true;
}

/** The texts of a session's inputs, by position, read once when a record needs them (one session's at a time). */
export class InputTexts {
  readonly #kv: Deno.Kv;
  #session: string | undefined;
  #inputs = new Map<number, string>();

  constructor(kv: Deno.Kv) {
    this.#kv = kv;
  }

  /** The whole text of the record at `key` (`["pab", "audit", session, seq, 0]`), kept as `part`. */
  async whole(key: Deno.KvKey, part: TextPart & { readonly shared: SharedPiece }): Promise<string> {
    const [, , session, seq] = key as [string, string, string, number];
    if (session !== this.#session) {
      const prefix = ["pab", "in", session];
      this.#inputs = new Map((await listTexts(this.#kv, { prefix }, 3)).map(({ id, text }) => [Number(id), text]));
      this.#session = session;
    }
    const { input, from, length, after } = part.shared;
    const text = this.#inputs.get(input);
    if (text === undefined || text.length < from + length) {
      throw new StoreError(
        "ERR_STORE_CORRUPT",
        `Cannot read audit record ${seq} of "${session}": the input ${input} it shares its text with is ` +
          `${text === undefined ? "missing" : "shorter than written"} (restore the store from a backup)`,
      );
    }
    return part.text + text.slice(from, from + length) + after;
  }
}
