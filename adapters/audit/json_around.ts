// A tool's output (3 KB or more) is written as JSON twice per recorded step: in its input's text and in its audit
// record's. Escaping it once and writing both texts around that one JSON saves a pass over it and a copy of it, and
// the two texts share it. The texts around it are written by the real writers (JSON.stringify, canonicalJson) with a
// stand-in where the long string goes, so their order and escapes are theirs.

/** The stand-in for a long string while the text around it is written: JSON escapes it, so texts seldom hold it. */
const STAND_IN = "\u0000pab: a long string goes here\u0000";
const STAND_IN_JSON = JSON.stringify(STAND_IN);

/** A string already written as JSON, the value of `key` in the object a text is written of. */
export interface WrittenString {
  /** The key it is the value of. */
  readonly key: string;
  /** The string. */
  readonly value: string;
  /** Its JSON, as `JSON.stringify(value)` writes it. */
  readonly json: string;
}

/**
 * What `write` writes of `object` around `written.value` (under `written.key`), so that `before + written.json + after`
 * is that text without escaping the value again: `write` is given a copy of `object` holding a stand-in there, and the
 * text is cut where the stand-in's JSON is. Undefined (write the text whole) when `object` is not a plain object
 * holding that string as a value of its own, or when the stand-in's JSON shows up in the text more than once (the
 * object holds it elsewhere too): a text that holds it once holds it where the string goes, so the result is what
 * `write(object)` writes, for a writer that writes a string as `JSON.stringify` does, whatever else the object holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonAround } from "./json_around.ts";
 * const output = "line one\nline two";
 * const input = { kind: "result", output, tool: "read" };
 * const written = { key: "output", value: output, json: JSON.stringify(output) };
 * const around = jsonAround(input, written, JSON.stringify);
 * assert.equal(around?.before + written.json + around?.after, JSON.stringify(input));
 * assert.equal(jsonAround({ ...input, output: "other" }, written, JSON.stringify), undefined);
 * ```
 */
export function jsonAround(
  object: object,
  written: WrittenString,
  write: (copy: Record<string, unknown>) => string | undefined,
): { readonly before: string; readonly after: string } | undefined {
  const prototype = Object.getPrototypeOf(object);
  if (
    (prototype !== Object.prototype && prototype !== null) ||
    !Object.hasOwn(object, written.key) || (object as Record<string, unknown>)[written.key] !== written.value ||
    typeof (object as { toJSON?: unknown }).toJSON === "function"
  ) return undefined;
  const text = write({ ...object, [written.key]: STAND_IN });
  const at = text === undefined ? -1 : text.indexOf(STAND_IN_JSON);
  if (at < 0 || text!.includes(STAND_IN_JSON, at + 1)) return undefined;
  return { before: text!.slice(0, at), after: text!.slice(at + STAND_IN_JSON.length) };
}
