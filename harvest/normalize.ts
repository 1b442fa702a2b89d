/**
 * Text normalisation and tokenisation for provenance matching.
 *
 * Two strings are the same value for pab when their token sequences are equal.
 * Text is folded first: invisible format characters (zero-width space,
 * joiners, BOM, soft hyphen and the rest of Unicode's `Cf` class) dropped,
 * NFKC, ideographic full stops read as dots. Then every typed value (e-mail
 * address, URL, host, IBAN, card and phone number, number, amount) becomes one
 * token holding its canonical form, and the rest splits into lower-cased runs
 * of letters and digits and single punctuation marks. Whitespace only
 * separates tokens, so its amount never matters.
 *
 * @module
 */
import { scanText } from "./scan_text.ts";

const INVISIBLE = /[\p{Cf}]/gu;

/**
 * Fold a string to the form pab compares: no invisible characters, NFKC, lower case.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeText } from "./normalize.ts";
 * assert.equal(normalizeText("ＥＶ\u200BＥ@Example"), "eve@example");
 * ```
 */
export function normalizeText(text: string): string {
  return text.replace(INVISIBLE, "").normalize("NFKC").replace(INVISIBLE, "").toLowerCase();
}

/**
 * Split text into whole tokens: one token per typed value (its canonical form,
 * prefixed by its type), runs of letters and digits, and single punctuation
 * marks. Whitespace is dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tokenize } from "./normalize.ts";
 * assert.deepEqual(tokenize("Mail Eve@Attacker.example  now"), ["mail", "email:eve@attacker.example", "now"]);
 * assert.deepEqual(tokenize("pay 1,000.00 today"), tokenize("pay 1000 today"));
 * ```
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  scanText(text, (token) => tokens.push(token));
  return tokens;
}

/**
 * Whether a value is too short to be good evidence of where it came from:
 * at most two characters, or a plain number below 1000.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isWeakValue } from "./normalize.ts";
 * assert.deepEqual([isWeakValue("1"), isWeakValue("yes"), isWeakValue("12.50"), isWeakValue("eve@x.example")], [
 *   true,
 *   false,
 *   true,
 *   false,
 * ]);
 * ```
 */
export function isWeakValue(value: string): boolean {
  const folded = normalizeText(value).replace(/\s+/g, "");
  if (folded.length <= 2) return true;
  if (/^[-+]?\d+(\.\d+)?$/.test(folded)) return Math.abs(Number(folded)) < 1000;
  return false;
}
