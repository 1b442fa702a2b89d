// An input and the audit record that records it carry the same text (a tool's output, a message): kept twice, a 3 KB
// output doubles what the in-memory store holds for a step, and every copy is carried through the young generation
// before it settles. So the input's text is kept as the record's copy of that piece with the input's own text around
// it: the same characters (the piece is searched in both texts, so it is equal by construction), held once. The record
// never points at the input, so trimming a chain or dropping inputs frees what either kept alone.
import type { AuditEvent, WrittenString } from "../audit/mod.ts";
import { findPiece, sharedSource } from "./_kv_shared.ts";
import { indexOfLong } from "./_index_of_long.ts";
import type { SessionInput } from "./pab_store.ts";

/** The long string of an input written as JSON once for the input's text and its record's, and the event that holds it. */
export interface WrittenPiece {
  /** The position of the (last) event holding the string under the same key as the input. */
  readonly index: number;
  /** The string, its key and its JSON. */
  readonly string: WrittenString;
}

/**
 * The input's long string (the one its text shares: a tool's output or a message's text that is a string long enough
 * to share) with its JSON, when one of `events` holds it under the same key (the last one that does); else undefined.
 */
export function writtenPiece(input: SessionInput, events: readonly AuditEvent[]): WrittenPiece | undefined {
  const key = input.kind === "result" ? "output" : input.kind === "ruling" ? undefined : "text";
  const value = key === undefined ? undefined : (input as Record<string, unknown>)[key];
  if (typeof value !== "string" || sharedSource(0, input, "")?.longest !== value) return undefined;
  for (let index = events.length - 1; index >= 0; index--) {
    if (events[index][key!] === value) return { index, string: { key: key!, value, json: JSON.stringify(value) } };
  }
  return undefined;
}

/**
 * `text` (an input's JSON) built to share its longest string's JSON with `record` (its audit record's text), equal to
 * `text` character for character; undefined when the record does not hold that piece.
 */
export function shareInputText(text: string, longest: string, record: string): string | undefined {
  const found = findPiece(record, { seq: 0, text, longest });
  if (found === undefined) return undefined;
  const { at, from, length } = found;
  return ownCopy(text.slice(0, from)) + record.slice(at, at + length) + ownCopy(text.slice(from + length));
}

/**
 * An input's text, `before + json + after`, holding `record`'s copy of `json` (the JSON of its long string, written
 * once for both) when the record holds it, else its own.
 */
export function textAround(
  around: { readonly before: string; readonly after: string },
  json: string,
  record: string,
): string {
  const from = indexOfLong(record, json);
  return ownCopy(around.before) + (from < 0 ? json : record.slice(from, from + json.length)) + ownCopy(around.after);
}

/**
 * The same characters in a string of their own: a slice of a longer text keeps that text alive (V8 shares it), so
 * the pieces around the shared one are copied (a joined string is written out whole when it is sliced).
 */
export function ownCopy(slice: string): string {
  return `${slice} `.slice(0, -1);
}
