/**
 * `JSON.parse` for text a stranger wrote, kept right where V8 reads wrong.
 *
 * V8's `JSON.parse` (Deno 2.9.6; V8 issue 521080746, nodejs/node#63785) can
 * read an object's escaped key as a key it met before: once it has parsed an
 * object with the keys `{"k", "\\"}`, a later `{"k":1,"\u0041":2}` comes back
 * with the key `"\\"` instead of `"A"`. The key it reads instead is an earlier
 * object's key that matches the escaped key's raw text up to its decoded
 * length, and that text holds the escape's backslash, so a misread always
 * leaves a key with a backslash in the value (tests/parse_json_properties_test.ts
 * checks this against the grammar over poisoned parsers).
 *
 * @module
 */
import { readJsonByGrammar } from "./read_json_grammar.ts";

/**
 * The value of the JSON `text`, as `JSON.parse` reads it when it reads right:
 * `JSON.parse` first, and, only when the text holds a backslash and the value
 * an object key with a backslash in it (every key V8 can misread leaves one),
 * the text read again by {@linkcode readJsonByGrammar}. Text that is not JSON
 * throws `JSON.parse`'s own `SyntaxError`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJson } from "./parse_json.ts";
 * JSON.parse('{"k":1,"\\\\":0}');
 * assert.deepEqual(parseJson('{"k":1,"\\u0041":2}'), { k: 1, A: 2 });
 * assert.deepEqual(parseJson('{"k":1,"\\\\":0}'), { k: 1, "\\": 0 });
 * assert.throws(() => parseJson("{"), SyntaxError);
 * ```
 */
export function parseJson(text: string): unknown {
  const value = JSON.parse(text);
  return typeof text === "string" && text.includes("\\") && hasKeyWithBackslash(value)
    ? readJsonByGrammar(text)
    : value;
}

/** Whether an object in `value` (a tree JSON.parse built) has a key with a backslash; iterative, for any depth. */
function hasKeyWithBackslash(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const pending: object[] = [value];
  while (pending.length) {
    const item = pending.pop()!;
    if (Array.isArray(item)) {
      for (const element of item) if (typeof element === "object" && element !== null) pending.push(element);
      continue;
    }
    for (const key of Object.keys(item)) {
      if (key.includes("\\")) return true;
      const member = (item as Record<string, unknown>)[key];
      if (typeof member === "object" && member !== null) pending.push(member);
    }
  }
  return false;
}
