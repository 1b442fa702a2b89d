/**
 * One linear pass that turns text into the tokens pab compares, with every
 * typed value (e-mail address, URL, host, IBAN, card, phone number, number,
 * amount) as ONE token holding its canonical form. Because an entity is one
 * token, no part of it can ever equal a value on its own: `x@acme.co` is not
 * inside `x@acme.co.uk`, and `2024` is not inside `INV-2024-0042`.
 *
 * The text is folded first (invisible characters dropped, NFKC, ideographic
 * full stops read as dots, HTML character references decoded), cut into words at whitespace and at characters no
 * typed value contains, and each word is read on its own, or joined with the
 * next few words for the forms written with spaces (a grouped IBAN or card,
 * `+41 44 668 18 00`, `USD 1,000`). Every step is linear in the word.
 *
 * @module
 */
import { amountTokens, cardToken, currencyOf, ibanToken, phoneToken } from "./entity_grammar.ts";
import { balanced, isCloser, isWordChar, plainTokens, scanLinks, type TokenSink } from "./scan_links.ts";
import {
  charKind,
  FNV_OFFSET,
  FNV_PRIME,
  isDigits,
  type PlainSink,
  WORD_LOWER,
  wordEnd,
  WordWindow,
} from "./word_window.ts";
import { isQuickCloser, scanFastWord } from "./fast_paths.ts";
import { scanSwitches } from "./_scan_switches.ts";
import { foldText, joinSpacedAt } from "./fold_text.ts";
import { decodeCharacterReferences } from "./character_references.ts";

export type { TokenSink } from "./scan_links.ts";
export type { PlainSink } from "./word_window.ts";

const PLAIN_WORD = /^[\p{L}\p{M}]+$/u;
const OPENERS = new Set([..."('‘“«‹„:=*•·,;~¡¿‣◦▪►→"]);
const NUMERIC_START = /^[-+\u2212(]?[\d$€£¥₹₩₽₺₪₫₴₦₱฿.,]/u;
const IBAN_HEAD = /^[a-z]{2}\d{2}$/;
const IBAN_GROUP = /^[a-z0-9]{1,4}$/;
const CARD_GROUP = /^\d{1,7}$/;
const AREA_CODE = /^\(\d{2,5}\)/;
const PHONE_PART = /^\(?\d{1,5}\)?(?:[-.]\d{1,5})*$/;

/**
 * Send every token of `text` to `sink`, in order. A plain word (ASCII and Latin-1 letters only, see `WORD_LOWER`)
 * goes to `plain` when given, as its place in the folded text, so a caller that interns tokens need not cut it out.
 */
export function scanText(text: string, sink: TokenSink, plain?: PlainSink): void {
  const folded = joinSpacedAt(renderedText(text));
  const emit = plain ?? ((from: string, start: number, end: number, _hash: number, head?: string) => {
    const written = from.slice(start, end);
    if (head === undefined) sink(written.toLowerCase());
    else sink(head + written.replace(/\s+/g, ""), written.replace(/\s+/g, " "));
  });
  const window = SPARE_WINDOWS.pop() ?? new WordWindow();
  const fast = scanSwitches.fastPaths;
  // Without the fast paths, only ASCII letters make a plain word here.
  const lowerOf = fast ? WORD_LOWER : ASCII_LOWER;
  const length = folded.length;
  let i = 0;
  while (i < length) {
    const kind = charKind(folded.charCodeAt(i));
    if (kind === 1) {
      i++;
      continue;
    }
    if (kind === 2) {
      sink(folded[i++]);
      continue;
    }
    const start = i;
    let upper = 0;
    let hash = FNV_OFFSET;
    for (; i < length; i++) {
      const code = folded.charCodeAt(i);
      const lower = code < 256 ? lowerOf[code] : 0;
      if (lower === 0) break;
      if (code < 97) upper++;
      hash = Math.imul(hash ^ lower, FNV_PRIME);
    }
    const letters = i;
    while (i < length && isQuickCloser(folded.charCodeAt(i))) i++;
    const end = i < length && charKind(folded.charCodeAt(i)) === 0 ? wordEnd(folded, i) : i;
    if (letters > start && end === i && !(upper === 3 && letters === end && end - start === 3)) {
      emit(folded, start, letters, hash);
      for (let j = letters; j < end; j++) sink(folded[j]);
      continue;
    }
    const read = fast ? scanFastWord(folded, start, letters, end, sink, emit) : -1;
    if (read >= 0) {
      i = read;
      continue;
    }
    window.reset(folded, start, end);
    i = window.end(scanFirst(window, sink));
  }
  window.reset("", 0, 0);
  SPARE_WINDOWS.push(window);
}

/**
 * Text as a reader sees it: folded, with HTML character references decoded once (a mail client or browser renders
 * `evil&#46;com` as `evil.com`), and what they decode to folded in turn.
 */
function renderedText(text: string): string {
  const folded = foldText(text);
  if (!folded.includes("&")) return folded;
  const decoded = decodeCharacterReferences(folded);
  return decoded === folded ? folded : foldText(decoded);
}

/** {@linkcode WORD_LOWER} for ASCII letters only (what the scanner reads as a plain word without its fast paths). */
const ASCII_LOWER = WORD_LOWER.map((lower, code) => code < 128 ? lower : 0);

/** Windows to reuse, so that scanning a short text (a JSON leaf) allocates none; a sink that scans again takes another. */
const SPARE_WINDOWS: WordWindow[] = [];

/**
 * Scan the window's first word, which is not a plain word; returns how many following words it consumed. (ASCII
 * letters followed only by sentence marks never come here: `scanText` reads them as plain words.)
 */
function scanFirst(words: WordWindow, sink: TokenSink): number {
  const word = words.at(0)!;
  return isLetters(word) ? scanLetters(words, 0, word, true, sink) : scanWord(words, 0, sink);
}

/** Whether `text` is letters and marks only. */
function isLetters(text: string): boolean {
  return !startsWithAsciiNonLetter(text) && PLAIN_WORD.test(text);
}

/** Scan `words[i]`'s core of letters: a word, or a currency code that may join the amount after it when `open`. */
function scanLetters(words: WordWindow, i: number, core: string, open: boolean, sink: TokenSink): number {
  const lower = core.toLowerCase();
  const code = open && lower.length === 3 && core === core.toUpperCase() && currencyOf(lower);
  if (code && joinCurrency(words, i, lower, sink)) return 1;
  sink(lower);
  return 0;
}

/** Scan `words[i]`; returns how many following words it consumed. */
function scanWord(words: WordWindow, i: number, sink: TokenSink): number {
  const word = words.at(i)!;
  if (word.length === 1 && !isWordChar(word)) {
    sink(word);
    return 0;
  }
  if (word.includes("(")) {
    // Only a word with a bracket can start with an area code.
    let area = 0;
    while (area < word.length && OPENERS.has(word[area]) && !AREA_CODE.test(word.slice(area, area + 7))) area++;
    if (AREA_CODE.test(word.slice(area, area + 7))) {
      const consumed = scanAreaCode(words, i, area, sink);
      if (consumed >= 0) return consumed;
    }
  }
  const { core, before, after } = strip(word);
  for (const char of before) sink(char);
  let consumed = 0;
  if (core) consumed = scanCore(words, i, core, after === "", sink);
  for (const char of after) sink(char);
  return consumed;
}

function scanCore(words: WordWindow, i: number, core: string, open: boolean, sink: TokenSink): number {
  if (isLetters(core)) return scanLetters(words, i, core, open, sink);
  const lower = core.toLowerCase();
  if (open && words.at(i + 1) !== undefined) {
    const joined = joinForms(words, i, lower, sink);
    if (joined >= 0) return joined;
  }
  const typed = typedTokens(lower);
  if (typed) {
    for (const token of typed) sink(token, core);
    return 0;
  }
  if (lower.includes("://") || lower.includes("@") || lower.includes(".")) scanLinks(core, sink);
  else plainTokens(lower, sink);
  return 0;
}

/** A phone number that starts with an area code in brackets: `(555) 123-4567`; -1 when it is not one. */
function scanAreaCode(words: WordWindow, i: number, area: number, sink: TokenSink): number {
  const { core, after } = strip(words.at(i)!.slice(area), true);
  const lower = core.toLowerCase();
  const openers = words.at(i)!.slice(0, area);
  if (after === "" && words.at(i + 1) !== undefined) {
    const found = longestJoin(words, i, lower, 6, (part) => PHONE_PART.test(part), phoneToken, " ");
    if (found) {
      for (const char of openers) sink(char);
      return emitJoined(found, sink);
    }
  }
  const single = phoneToken(lower);
  if (!single) return -1;
  for (const char of openers) sink(char);
  sink(single, core);
  for (const char of after) sink(char);
  return 0;
}

/** Whether `text` starts with an ASCII character that is not a letter (so it cannot be a word of letters). */
function startsWithAsciiNonLetter(text: string): boolean {
  const code = text.charCodeAt(0) | 32;
  return code < 128 && (code < 97 || code > 122);
}

/** A core that is one typed value on its own: phone, IBAN, card, number or amount. */
function typedTokens(lower: string): readonly string[] | undefined {
  if (lower.length < 8 && isDigits(lower, 0, lower.length)) return [`num:${lower}`];
  if (!NUMERIC_START.test(lower) && !IBAN_HEAD.test(lower.slice(0, 4))) return undefined;
  // Each grammar is asked only when the core can have its shape: a phone number starts with `+` or `(` or is
  // `555-123-4567` (12 characters), an IBAN starts with two letters, a card has 13 digits or more.
  const first = lower.charCodeAt(0);
  const single = (first === 43 || first === 40 || lower.length === 12 ? phoneToken(lower) : undefined) ??
    (first >= 97 && first <= 122 ? ibanToken(lower) : undefined) ?? (lower.length >= 13 ? cardToken(lower) : undefined);
  return single ? [single] : amountTokens(lower);
}

/** Forms written across several words; returns the number of extra words used, or -1 when none applies. */
function joinForms(words: WordWindow, i: number, lower: string, sink: TokenSink): number {
  const raw = words.at(i)!;
  if (lower.length === 4 && IBAN_HEAD.test(lower)) {
    const found = longestJoin(words, i, lower, 8, (part) => IBAN_GROUP.test(part), ibanToken, "");
    if (found) return emitJoined(found, sink);
  }
  if (lower.length === 4 && isDigits(lower, 0, 4)) {
    const found = longestJoin(words, i, lower, 4, (part) => CARD_GROUP.test(part), cardToken, " ");
    if (found) return emitJoined(found, sink);
  }
  if (lower.startsWith("+") || lower.startsWith("(")) {
    const found = longestJoin(words, i, lower, 6, (part) => PHONE_PART.test(part), phoneToken, " ");
    if (found) return emitJoined(found, sink);
  }
  const currency = lower.length === 1 && currencyOf(lower);
  if (currency) return joinCurrency(words, i, lower, sink) ? 1 : -1;
  const amount = NUMERIC_START.test(lower) && amountTokens(lower);
  if (amount && amount.length === 1) {
    const next = strip(words.at(i + 1)!);
    const written = next.core.length === 3 ? next.core === next.core.toUpperCase() : next.core.length === 1;
    const code = next.before === "" && written ? currencyOf(next.core.toLowerCase()) : undefined;
    if (code) return emitAmount(code, amount[0], `${raw} ${next.core}`, next.after, sink);
  }
  return -1;
}

/** `USD 1,000` or `$ 1,000`: a currency word followed by a plain number. */
function joinCurrency(words: WordWindow, i: number, lower: string, sink: TokenSink): boolean {
  if (words.at(i + 1) === undefined) return false;
  const next = strip(words.at(i + 1)!);
  if (next.before !== "") return false;
  const amount = amountTokens(next.core.toLowerCase());
  if (!amount || amount.length !== 1) return false;
  return emitAmount(currencyOf(lower)!, amount[0], `${words.at(i)} ${next.core}`, next.after, sink) > 0;
}

/** A currency code and an amount written as `raw`, then the marks `after` them; returns the words it joined (1). */
function emitAmount(code: string, amount: string, raw: string, after: string, sink: TokenSink): number {
  sink(`cur:${code}`, raw);
  sink(amount, raw);
  for (const char of after) sink(char);
  return 1;
}

interface Joined {
  readonly token: string;
  readonly extra: number;
  readonly raw: string;
  readonly after: string;
}

/** The longest run of up to `max` following words that `read` accepts when joined to `first`. */
function longestJoin(
  words: WordWindow,
  i: number,
  first: string,
  max: number,
  fits: (part: string) => boolean,
  read: (text: string) => string | undefined,
  glue: string,
): Joined | undefined {
  const parts = followingParts(words, i, max, fits);
  // Each join extends the one before by concatenation (no spread and join per length); the longest that reads wins.
  const texts = [first];
  for (const part of parts) texts.push(texts[texts.length - 1] + glue + part.core);
  for (let n = parts.length; n >= 1; n--) {
    const token = read(texts[n]);
    if (token) {
      let raw = words.at(i)!;
      for (let k = 0; k < n; k++) raw += " " + parts[k].core;
      return { token, extra: n, raw, after: parts[n - 1].after };
    }
  }
  return undefined;
}

/** Up to `max` words after word `i` that `fits` takes (lowered, without openers), stopping after one with marks. */
function followingParts(
  words: WordWindow,
  i: number,
  max: number,
  fits: (part: string) => boolean,
): { core: string; after: string }[] {
  const parts: { core: string; after: string }[] = [];
  for (let k = i + 1; parts.length < max && words.at(k) !== undefined; k++) {
    const next = strip(words.at(k)!);
    const core = next.core.toLowerCase();
    if (next.before !== "" || !fits(core)) break;
    parts.push({ core, after: next.after });
    if (next.after !== "") break;
  }
  return parts;
}

function emitJoined(found: Joined, sink: TokenSink): number {
  sink(found.token, found.raw);
  for (const char of found.after) sink(char);
  return found.extra;
}

/** A word without its leading brackets, quotes and bullets and its trailing brackets, quotes and sentence marks. */
function strip(word: string, keepOpeners = false): { core: string; before: string; after: string } {
  let start = 0;
  let end = word.length;
  while (start < end && keepOpeners === false && OPENERS.has(word[start])) start++;
  while (end > start && isCloser(word.charCodeAt(end - 1))) {
    if (word[end - 1] === ")" && balanced(word, start, end)) break;
    end--;
  }
  return { core: word.slice(start, end), before: word.slice(0, start), after: word.slice(end) };
}
