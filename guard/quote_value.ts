/**
 * How decisions show a value: quoted, on one line, cut to 80 characters, with
 * what a reader could not see (controls, invisible characters) written as escapes.
 *
 * @module
 */

/**
 * Quote a value for an explanation line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quoteValue } from "./quote_value.ts";
 * assert.equal(quoteValue("eve@attacker.example"), "'eve@attacker.example'");
 * assert.equal(quoteValue("eve\u200B@x.example\n"), "'eve\\u{200b}@x.example\\n'");
 * ```
 */
export function quoteValue(text: string): string {
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `'${short.replace(UNSEEN, (char) => ESCAPES[char] ?? `\\u{${char.codePointAt(0)!.toString(16)}}`)}'`;
}

/** Characters a reader cannot see or that break the line: controls, invisible format characters, separators. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
