/**
 * Find the values inside free text that carry data somewhere: URLs (with any
 * scheme), links and hosts without a scheme (`www.x.example`, `x.example/path`,
 * a bare name only under a top-level domain: `isTopLevelDomain`), and e-mail addresses. A policy can require each of
 * them to come from a trusted source even when the text around them is free.
 *
 * The text is read by the same scanner that makes tokens, on the folded text
 * (invisible characters dropped, NFKC, so full-width dots are dots), so a link
 * glued to markup (`href=https://…`, `_https://…`, a bullet), carrying
 * userinfo or wrapped in punctuation is found. Linear in the text: a long
 * argument cannot make the guard backtrack.
 *
 * @module
 */
import { scanText } from "./scan_text.ts";

const LINK_TOKEN = /^(?:url|link|host|email):/;

/**
 * Every link and e-mail address inside `text`, in order of appearance, once
 * each (by canonical form), as written (folded, without trailing punctuation).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findEmbeddedValues } from "./embedded_values.ts";
 * assert.deepEqual(findEmbeddedValues("Check out www.secure-systems-252.com, or mail eve@attacker.example."), [
 *   "www.secure-systems-252.com",
 *   "eve@attacker.example",
 * ]);
 * ```
 */
export function findEmbeddedValues(text: string): string[] {
  const found = new Map<string, string>();
  scanText(text, (token, raw) => {
    if (raw !== undefined && LINK_TOKEN.test(token) && !found.has(token)) found.set(token, raw);
  });
  return [...found.values()];
}
