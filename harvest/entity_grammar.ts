/**
 * The grammar of one typed value written without spaces (a "core": a word with
 * its surrounding brackets, quotes and sentence punctuation removed), and its
 * canonical token. Multi-word forms (grouped IBANs and cards, phone numbers
 * with spaces, `USD 1,000`) are joined by the scanner and passed here whole.
 *
 * Canonical tokens carry their type as a prefix (`num:1000`, `iban:de89…`), so
 * they never equal a plain word or punctuation token.
 *
 * @module
 */
import { ownCopy } from "./own_copy.ts";
import { toAsciiHost } from "./punycode.ts";
import { isDigits } from "./word_window.ts";

/** Currency symbols and the ISO code each stands for. */
const SYMBOLS: Readonly<Record<string, string>> = {
  "$": "usd",
  "€": "eur",
  "£": "gbp",
  "¥": "jpy",
  "₹": "inr",
  "₩": "krw",
  "₽": "rub",
  "₺": "try",
  "₪": "ils",
  "₫": "vnd",
  "₴": "uah",
  "₦": "ngn",
  "₱": "php",
  "฿": "thb",
};
/** ISO 4217 codes recognised next to a number (`USD 1,000`, `1000 eur`). */
const CODES = new Set(
  ("usd eur gbp chf jpy cny cad aud nzd sek nok dkk pln czk huf brl mxn zar hkd sgd krw inr rub try ils " +
    "aed sar thb idr myr php vnd uah ngn egp ars clp cop pen ron bgn isk").split(" "),
);
const SIGN = "[-+\u2212]";
const NUMBER_BODY = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}|` +
  String.raw`\d{1,3}(?:'\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?|[.,]\d+`;
const SYMBOL_CLASS = `[${Object.keys(SYMBOLS).join("").replace("$", "\\$")}]`;
/** A number with an optional sign, currency symbol before or after, or a percent sign after. */
const AMOUNT = new RegExp(
  `^(${SIGN})?(${SYMBOL_CLASS})?(${SIGN})?(${NUMBER_BODY})(${SYMBOL_CLASS}|%)?$`,
  "u",
);
const IBAN_COMPACT = /^[a-z]{2}\d{2}[a-z0-9]{11,30}$/;
const DIGITS = /^\d+$/;
const ASCII_LABEL = /^[a-z0-9-]+$/;
const CARD_GROUPED = /^(?:\d{4}([- ])\d{4}\1\d{4}\1\d{1,7}|\d{4}([- ])\d{6}\2\d{4,5})$/;
const PHONE_INTERNATIONAL = /^\+\d(?:[-. ]?(?:\d|\(\d{1,5}\)))*$/;
const PHONE_LOCAL = /^(?:\(\d{2,5}\) ?\d{2,5}(?:[-. ]\d{2,5})*|\d{3}([-.])\d{3}\1\d{4})$/;

/** The ISO code of a currency symbol or code (lower case), or `undefined`. */
export function currencyOf(word: string): string | undefined {
  return SYMBOLS[word] ?? (CODES.has(word) ? word : undefined);
}

/**
 * The tokens of a number or amount written as one core (already lower-cased):
 * `["cur:usd", "num:1000"]` for `$1,000.00`, `["num:2.5", "%"]` for `2.50%`,
 * `["num:-5"]` for `−5`; `undefined` when the core is not a number.
 */
export function amountTokens(core: string): readonly string[] | undefined {
  // Most numbers are digits with at most one decimal mark: what AMOUNT reads as a bare body, without the expression.
  if (isSimpleNumber(core)) return [`num:${canonicalNumber(core, false)}`];
  const match = AMOUNT.exec(core);
  if (!match) return undefined;
  const [, sign1, before, sign2, body, after] = match;
  if (sign1 && sign2) return undefined;
  const sign = sign1 ?? sign2;
  const negative = sign === "-" || sign === "\u2212";
  const number = canonicalNumber(body, negative);
  const tokens: string[] = [];
  const currency = before ? SYMBOLS[before] : after && after !== "%" ? SYMBOLS[after] : undefined;
  if (before && after && after !== "%") return undefined;
  if (currency) tokens.push(`cur:${currency}`);
  tokens.push(`num:${number}`);
  if (after === "%") tokens.push("%");
  return tokens;
}

/** The token of a bare number: ASCII digits, or digits, one `.` or `,` and digits (`1234,56` is `num:1234.56`). */
export function bareNumberToken(core: string): string {
  return `num:${canonicalNumber(core, false)}`;
}

/** Whether `core` is ASCII digits, or digits, one `.` or `,` and digits: `\d+(?:[.,]\d+)?`. */
function isSimpleNumber(core: string): boolean {
  let mark = -1;
  for (let i = 0; i < core.length; i++) {
    const code = core.charCodeAt(i);
    if (code >= 48 && code <= 57) continue;
    if ((code !== 46 && code !== 44) || mark >= 0 || i === 0 || i === core.length - 1) return false;
    mark = i;
  }
  return core.length > 0;
}

/**
 * `1,234.50` -> `1234.5`, `1.234,50` -> `1234.5`, `1,5` -> `1.5`, `1'000` -> `1000`, `98.70` -> `98.7`; the
 * ambiguous `1.500` (a thousand and a half in Germany, one and a half elsewhere) stays `1.500`.
 */
function canonicalNumber(body: string, negative: boolean): string {
  if (body && isDigits(body, 0, body.length)) return negative && /[1-9]/.test(body) ? `-${body}` : body;
  let whole: string;
  let fraction = "";
  const lastDot = body.lastIndexOf(".");
  const lastComma = body.lastIndexOf(",");
  const mark = Math.max(lastDot, lastComma);
  if (isDecimal(body, mark)) {
    // One decimal mark that cannot be a grouping separator: the last branch below, without its regular expressions.
    whole = body.slice(0, mark);
    fraction = body.slice(mark + 1);
  } else if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(body) || /^\d{1,3}(?:'\d{3})+(?:\.\d+)?$/.test(body)) {
    [whole, fraction = ""] = body.replace(/[,']/g, "").split(".");
  } else if (/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/.test(body) && (lastComma > lastDot || body.split(".").length > 2)) {
    [whole, fraction = ""] = body.replace(/\./g, "").split(",");
  } else if (/^\d{1,3}\.\d{3}$/.test(body)) {
    // `1.000` is a thousand in Germany and one elsewhere: it equals only itself.
    [whole, fraction] = body.split(".");
    return negative ? `-${whole}.${fraction}` : `${whole}.${fraction}`;
  } else {
    [whole, fraction = ""] = body.replace(",", ".").split(".");
  }
  let kept = fraction.length;
  while (kept > 0 && fraction.charCodeAt(kept - 1) === 48) kept--;
  fraction = fraction.slice(0, kept);
  if (!whole) whole = "0";
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/**
 * Whether `body` (digits and `.,'` only) has exactly one mark, at `mark`, with more than three digits before it or
 * other than three after it, so that none of the grouped forms can match.
 */
function isDecimal(body: string, mark: number): boolean {
  if (mark < 0 || (mark <= 3 && body.length - mark - 1 === 3)) return false;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if ((code < 48 || code > 57) && i !== mark) return false;
  }
  return true;
}

/** `iban:…` for a compact IBAN (lower case, no spaces) with a valid ISO 13616 check, else `undefined`. */
export function ibanToken(compact: string): string | undefined {
  if (!IBAN_COMPACT.test(compact)) return undefined;
  let remainder = 0;
  for (let i = 4; i < compact.length; i++) remainder = ibanStep(remainder, compact.charCodeAt(i));
  for (let i = 0; i < 4; i++) remainder = ibanStep(remainder, compact.charCodeAt(i));
  return remainder === 1 ? `iban:${compact}` : undefined;
}

/**
 * One step of the ISO 13616 check over the code of a digit or a lower-case letter: the remainder modulo 97 of the
 * number read so far, `a` to `z` read as 10 to 35. An IBAN is valid when its remainder, read from the fifth character
 * to the end and then the first four, is 1.
 */
function ibanStep(remainder: number, code: number): number {
  const value = code <= 57 ? code - 48 : code - 87;
  return value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
}

/** `card:…` for 13 to 19 digits, compact or grouped by spaces or hyphens, that pass the Luhn check. */
export function cardToken(core: string): string | undefined {
  if (!DIGITS.test(core) && !CARD_GROUPED.test(core)) return undefined;
  const digits = core.replace(/[- ]/g, "");
  if (digits.length < 13 || digits.length > 19) return undefined;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let value = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) value = value * 2 > 9 ? value * 2 - 9 : value * 2;
    sum += value;
  }
  return sum % 10 === 0 ? `card:${digits}` : undefined;
}

/**
 * `tel:…` for a phone number: international (`+41 44 668 18 00`, `+1 (555) 123-4567`) or local with an area
 * code in brackets or the `555-123-4567` shape; 7 to 15 digits. Separators never matter.
 */
export function phoneToken(core: string): string | undefined {
  const international = PHONE_INTERNATIONAL.test(core);
  if (!international && !PHONE_LOCAL.test(core)) return undefined;
  const digits = core.replace(/\D/g, "");
  if (digits.length < 7 || digits.length > 15) return undefined;
  return international ? `tel:+${digits}` : `tel:${digits}`;
}

/**
 * The ASCII (IDNA) form of a host, lower case, or `undefined` when it is not a
 * host: labels of letters, digits and inner hyphens, and (unless `anyTld`, as
 * after a scheme) at least two labels, the last with two letters or more and no digit.
 */
export function canonicalHost(host: string, anyTld = false): string | undefined {
  // Hosts recur (every address at one company): remember the last few answers, a bounded table, and the last one
  // (a page's links mostly go to one site).
  if (host === lastHost[0] && anyTld === lastHost[1]) return lastHost[2];
  if (host.length > 253) return readHost(host, anyTld);
  const known = anyTld ? HOSTS_ANY_TLD : HOSTS;
  let canonical = known.get(host);
  if (canonical === undefined && !known.has(host)) {
    if (known.size >= HOST_MEMORY) known.clear();
    canonical = readHost(host, anyTld);
    known.set(ownCopy(host), canonical === undefined ? undefined : ownCopy(canonical));
  }
  lastHost = [ownCopy(host), anyTld, canonical];
  return canonical;
}

let lastHost: [string, boolean, string | undefined] = ["", false, undefined];

const HOST_MEMORY = 4096;
const HOSTS = new Map<string, string | undefined>();
const HOSTS_ANY_TLD = new Map<string, string | undefined>();

function readHost(host: string, anyTld: boolean): string | undefined {
  const lower = host.toLowerCase();
  const labels = lower.split(".");
  if ((labels.length < 2 && !anyTld) || lower.length > 253) return undefined;
  for (const label of labels) {
    if (!label || label.length > 63 || label.startsWith("-") || label.endsWith("-")) return undefined;
    if (!ASCII_LABEL.test(label) && !/^[\p{L}\p{M}\p{N}-]+$/u.test(label)) return undefined;
  }
  const tld = labels[labels.length - 1];
  if (!anyTld && !/^(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]+)$/u.test(tld)) return undefined;
  return toAsciiHost(lower);
}
