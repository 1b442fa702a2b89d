/**
 * The scanner's fast paths for the commonest words that are not plain words.
 * Each gives exactly the tokens the full grammar gives, and declines (returns
 * `false`) whenever the full grammar could read the word differently; a
 * property test checks both with the fast paths switched off.
 *
 * - A bare number (`2024`, `1234,56`, `3.5`), alone or followed by sentence
 *   marks. Declined for a card (13 digits or more) and for a word that may join
 *   the next one (`1,000 USD`, `4111 1111 …`): every bare number not followed
 *   by marks, unless nothing follows or the next word starts with `a` to `z`.
 * - A compound word of ASCII letters, digits, `-` and `_` that starts with a
 *   letter but not with two letters and two digits (an IBAN's start):
 *   `INV-2024-0042`, `snake_case`. No other typed value has that shape, so it
 *   is its plain tokens (`inv`, `-`, `2024`, ...). So is one shorter than 12
 *   characters that starts with `#` (`#1012`), or with a digit and has a
 *   letter, `-` or `_` (`5-12`, `3rd`): `555-123-4567` may be a phone, and a
 *   longer one a card.
 *
 * @module
 */
import { bareNumberToken } from "./entity_grammar.ts";
import { scanLinkWord, type TokenSink } from "./scan_links.ts";
import { scanPhoneJoin } from "./phone_join.ts";
import { charKind, FNV_OFFSET, FNV_PRIME, isDigit, type PlainSink } from "./word_window.ts";

/**
 * Scan the word `text[start, end)`, whose first `letters - start` characters are letters, on the fast path that
 * applies to it, if any (a link, a bare number, a compound word, a phone number in groups); returns where the words it
 * read end, or -1 when the full grammar must read it.
 */
export function scanFastWord(
  text: string,
  start: number,
  letters: number,
  end: number,
  sink: TokenSink,
  plain: PlainSink,
): number {
  if (text.charCodeAt(start) === 43) return scanPhoneJoin(text, start, end, sink, plain);
  return (letters > start && text.startsWith("://", letters) && scanLinkWord(text, start, letters, end, sink, plain)) ||
      scanBareNumber(text, start, end, sink, plain) || scanCompoundWord(text, start, end, sink, plain)
    ? end
    : -1;
}

/** Numbers this long or longer may be cards: the full grammar reads them. */
const CARD_MIN_DIGITS = 13;

/**
 * Scan the word `text[start, end)` if it is a bare number that joins nothing; returns whether it did. The word
 * must be a whole word of folded text (from a word start to whitespace, a markup character or the end).
 */
function scanBareNumber(text: string, start: number, end: number, sink: TokenSink, plain: PlainSink): boolean {
  let i = start;
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  if (i === start) return false;
  const digits = i;
  const mark = text.charCodeAt(i);
  if (i + 1 < end && (mark === 46 || mark === 44) && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
  }
  const coreEnd = i;
  if (coreEnd - start >= CARD_MIN_DIGITS) return false;
  while (i < end && isQuickCloser(text.charCodeAt(i))) i++;
  if (i !== end) return false;
  if (coreEnd === end && !nextWordCannotJoin(text, end)) return false;
  // Digits alone are their own canonical form: they go to `plain` where they stand.
  if (digits === coreEnd) plain(text, start, coreEnd, 0, "num:");
  else {
    const core = text.slice(start, coreEnd);
    sink(bareNumberToken(core), core);
  }
  for (let j = coreEnd; j < end; j++) sink(text[j]);
  return true;
}

/**
 * Scan the word `text[start, end)` if it is a compound word (see the module doc) with a character of another kind
 * than its first (or led by `#`), followed by nothing but sentence marks; returns whether it did. Its runs of letters
 * and digits go to `plain`, the rest to `sink`.
 */
function scanCompoundWord(
  text: string,
  start: number,
  end: number,
  sink: TokenSink,
  plain: PlainSink,
): boolean {
  const first = text.charCodeAt(start);
  const letter = isAsciiLetter(first);
  if (letter ? startsLikeIban(text, start, end) : first !== 35 && !isDigit(first)) return false;
  let i = start + 1;
  let compound = first === 35;
  for (; i < end; i++) {
    const code = text.charCodeAt(i);
    if (!isAsciiLetter(code) && !isDigit(code) && code !== 45 && code !== 95) break;
    // A character of another kind than the first (a digit after a letter, a letter after a digit, `-`, `_`).
    if (letter ? !isAsciiLetter(code) : !isDigit(code)) compound = true;
  }
  const coreEnd = i;
  if (!compound || (!letter && coreEnd - start >= 12)) return false;
  while (i < end && isQuickCloser(text.charCodeAt(i))) i++;
  if (i !== end) return false;
  plainRuns(text, start, coreEnd, sink, plain);
  for (let j = coreEnd; j < end; j++) sink(text[j]);
  return true;
}

/**
 * The plain tokens of `text[start, end)`, ASCII letters, digits, `-`, `_` and `#` only (what `plainTokens` gives
 * for it lowercased): each run of letters and digits goes to `plain` where it stands, with its hash, every other
 * character to `sink` on its own.
 */
function plainRuns(text: string, start: number, end: number, sink: TokenSink, plain: PlainSink): void {
  let i = start;
  while (i < end) {
    const code = text.charCodeAt(i);
    if (!isAsciiLetter(code) && !isDigit(code)) {
      sink(text[i++]);
      continue;
    }
    const from = i;
    let hash = FNV_OFFSET;
    for (; i < end; i++) {
      const next = text.charCodeAt(i);
      if (!isAsciiLetter(next) && !isDigit(next)) break;
      // `| 32` lowers an ASCII letter and keeps a digit.
      hash = Math.imul(hash ^ (next | 32), FNV_PRIME);
    }
    plain(text, from, i, hash);
  }
}

/** Two letters and two digits, as an IBAN (compact, or the first group of a grouped one) starts. */
function startsLikeIban(text: string, start: number, end: number): boolean {
  return end - start >= 4 && isAsciiLetter(text.charCodeAt(start + 1)) && isDigit(text.charCodeAt(start + 2)) &&
    isDigit(text.charCodeAt(start + 3));
}

function isAsciiLetter(code: number): boolean {
  return (code | 32) >= 97 && (code | 32) <= 122;
}

/** Whether no word follows `from`, or the next word starts with `a` to `z` (no currency code, card group or unit). */
function nextWordCannotJoin(text: string, from: number): boolean {
  let next = from;
  while (next < text.length && charKind(text.charCodeAt(next)) === 1) next++;
  if (next === text.length) return true;
  const code = text.charCodeAt(next);
  return code >= 97 && code <= 122;
}

/** One of `.,;:!?)`, the marks that may follow a plain word or a bare number, by code. */
export function isQuickCloser(code: number): boolean {
  return code === 46 || code === 44 || code === 59 || code === 58 || code === 33 || code === 63 || code === 41;
}
