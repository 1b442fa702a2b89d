/**
 * Find the values inside free text that carry data somewhere: links (with a
 * scheme, starting with `www.`, or a bare host on a common top-level domain)
 * and e-mail addresses. A policy can require each of them to come from a
 * trusted source even when the text around them is free.
 *
 * @module
 */

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const SCHEME_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`]+/giu;
const WWW_HOST = /\bwww\.[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?:[/?#][^\s<>"'`]*)?/giu;
const COMMON_TLDS = [
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
];
const BARE_HOST = new RegExp(
  String.raw`(?<![\p{L}\p{N}@./-])(?:[\p{L}\p{N}-]+\.)+(?:${
    COMMON_TLDS.join("|")
  })(?![\p{L}\p{N}-])(?:[/?#][^\s<>"'\x60]*)?`,
  "giu",
);

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
  const found: Array<[number, string]> = [];
  const taken: Array<[number, number]> = [];
  for (const pattern of [SCHEME_URL, EMAIL, WWW_HOST, BARE_HOST]) {
    for (const match of text.matchAll(pattern)) {
      const value = match[0].replace(/[.,;:!?)\]}'"]+$/u, "");
      const start = match.index;
      const end = start + value.length;
      if (!value || taken.some(([from, to]) => start < to && end > from)) continue;
      taken.push([start, end]);
      found.push([start, value]);
    }
  }
  return [...new Set(found.sort((a, b) => a[0] - b[0]).map(([, value]) => value))];
}
