/**
 * Find the values inside free text that carry data somewhere: links (with a
 * scheme, starting with `www.`, or a bare host on a common top-level domain)
 * and e-mail addresses. A policy can require each of them to come from a
 * trusted source even when the text around them is free.
 *
 * The text is first cut into chunks at whitespace, brackets, quotes and
 * punctuation that cannot be part of a link (linear), and each chunk is then
 * matched by anchored patterns (linear in the chunk): a long argument cannot
 * make the guard backtrack.
 *
 * @module
 */

const CHUNK_SEPARATORS = /[\s<>"'`()[\]{}|\\,;!*^]+|:(?!\/\/)/u;
const TRAILING = /[.?:]+$/u;
const EMAIL = /^[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u;
const SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\/\S+$/iu;
const COMMON_TLDS = new Set([
  "com",
  "net",
  "org",
  "info",
  "biz",
  "io",
  "co",
  "app",
  "dev",
  "xyz",
  "online",
  "site",
  "top",
  "link",
  "click",
  "me",
  "ai",
  "us",
  "uk",
  "de",
  "fr",
  "ch",
  "ru",
  "cn",
  "nl",
  "eu",
  "ly",
  "to",
  "sh",
  "gg",
  "tk",
]);
const HOST = /^(?:[\p{L}\p{N}-]+\.)+([\p{L}\p{N}-]+)$/u;

/**
 * Every link and e-mail address inside `text`, in order of appearance, without
 * duplicates and without trailing punctuation.
 *
 * @example
 * ```ts
 * import { findEmbeddedValues } from "./embedded_values.ts";
 * console.log(findEmbeddedValues("Check out www.secure-systems-252.com, or mail eve@attacker.example."));
 * // ["www.secure-systems-252.com", "eve@attacker.example"]
 * ```
 */
export function findEmbeddedValues(text: string): string[] {
  const found: string[] = [];
  for (const raw of text.split(CHUNK_SEPARATORS)) {
    const chunk = raw.replace(TRAILING, "");
    if (chunk && isEmbeddedValue(chunk)) found.push(chunk);
  }
  return [...new Set(found)];
}

function isEmbeddedValue(chunk: string): boolean {
  if (chunk.includes("@")) return EMAIL.test(chunk);
  if (SCHEME_URL.test(chunk)) return true;
  const host = chunk.split(/[/?#]/, 1)[0];
  if (/^www\./i.test(host)) return HOST.test(host);
  const match = HOST.exec(host);
  return match !== null && COMMON_TLDS.has(match[1].toLowerCase());
}
