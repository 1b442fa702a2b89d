/**
 * Text normalisation and tokenisation for provenance matching.
 *
 * Two strings are the same value for pab when their token sequences are equal
 * after: dropping invisible format characters (zero-width space, joiners,
 * BOM, soft hyphen and the rest of Unicode's `Cf` class), NFKC folding and
 * lower-casing; and, among the tokens, decimal numbers lose their trailing
 * zeros (`98.70` is `98.7`, `10.00` is `10`). Whitespace only separates
 * tokens, so its amount never matters.
 *
 * @module
 */

const INVISIBLE = /[\p{Cf}]/gu;
const TOKEN = /[\p{L}\p{M}\p{N}]+|[^\s\p{L}\p{M}\p{N}]/gu;
const DIGITS = /^[0-9]+$/;

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
  return foldDecimals(normalizeText(text).match(TOKEN) ?? []);
}

/**
 * Drop the trailing zeros of decimal numbers (`98`, `.`, `70` becomes `98`,
 * `.`, `7`; `10`, `.`, `00` becomes `10`), except inside longer dotted or
 * grouped runs such as versions, addresses or `1.500,00`.
 */
function foldDecimals(tokens: string[]): string[] {
  const folded: string[] = [];
  const separator = (token: string | undefined) => token === "." || token === ",";
  for (let i = 0; i < tokens.length; i++) {
    const [before, whole, fraction, after, next] = [
      tokens[i - 2],
      tokens[i - 1],
      tokens[i + 1],
      tokens[i + 2],
      tokens[i + 3],
    ];
    const decimal = tokens[i] === "." && DIGITS.test(whole ?? "") && DIGITS.test(fraction ?? "") &&
      fraction.endsWith("0");
    if (decimal && !separator(before) && !(separator(after) && DIGITS.test(next ?? ""))) {
      const kept = fraction.replace(/0+$/, "");
      if (kept) folded.push(".", kept);
      i++;
      continue;
    }
    folded.push(tokens[i]);
  }
  return folded;
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
