/**
 * Text normalisation and tokenisation for provenance matching.
 *
 * Two strings are the same value for pab when their token sequences are equal
 * after: dropping invisible format characters (zero-width space, joiners,
 * BOM, soft hyphen and the rest of Unicode's `Cf` class), NFKC folding and
 * lower-casing. Whitespace only separates tokens, so its amount never matters.
 *
 * @module
 */

const INVISIBLE = /[\p{Cf}]/gu;
const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu;

/**
 * Fold a string to the form pab compares: no invisible characters, NFKC, lower case.
 *
 * @example
 * ```ts
 * import { normalizeText } from "./normalize.ts";
 * console.log(normalizeText("ＥＶ\u200BＥ@Example")); // "eve@example"
 * ```
 */
export function normalizeText(text: string): string {
  return text.replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "").toLowerCase();
}

/**
 * Split text into whole tokens: runs of letters and digits, and single
 * punctuation marks. Whitespace is dropped.
 *
 * @example
 * ```ts
 * import { tokenize } from "./normalize.ts";
 * console.log(tokenize("Eve@Attacker.example  now")); // ["eve", "@", "attacker", ".", "example", "now"]
 * ```
 */
export function tokenize(text: string): string[] {
  return normalizeText(text).match(TOKEN) ?? [];
}

/**
 * Whether a value is too short to be good evidence of where it came from:
 * at most two characters, or a plain number below 1000.
 *
 * @example
 * ```ts
 * import { isWeakValue } from "./normalize.ts";
 * console.log(isWeakValue("1"), isWeakValue("yes"), isWeakValue("12.50"), isWeakValue("eve@x.example")); // true false true false
 * ```
 */
export function isWeakValue(value: string): boolean {
  const folded = normalizeText(value).replace(/\s+/g, "");
  if (folded.length <= 2) return true;
  if (/^[-+]?\d+(\.\d+)?$/.test(folded)) return Math.abs(Number(folded)) < 1000;
  return false;
}
