/**
 * How decisions show a value: quoted, on one line, cut to 80 characters.
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
 * ```
 */
export function quoteValue(text: string): string {
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `'${short.replaceAll("\n", "\\n")}'`;
}
