/**
 * Words of folded text, cut lazily: runs of characters that are neither
 * whitespace (JavaScript's `\s`) nor one of `"<>[]{}|\^`` (each of which is a
 * word of its own). The scanner reads most words where they stand; a word that
 * may join the words after it (`+41 44 668 18 00`, `USD 1,000`) reads them
 * through a {@linkcode WordWindow}, which cuts only as many as are asked for.
 *
 * @module
 */

/**
 * Receives a token where it stands in `text`, so that no string need be made for it. Without `head`, a plain token
 * `text[start, end)`: ASCII letters and digits and Latin-1 letters only, to be read lowercased as
 * {@linkcode TOKEN_LOWER} says, with `hash`, the 32-bit FNV-1a hash of its lowercased UTF-16 codes (so an interning
 * table need not read it twice). With `head`, an entity written as its token reads: the token is `head` followed by
 * `text[start, end)` as written but without whitespace (`hash` is 0), and the entity's text is `text[start, end)` with
 * each run of whitespace as one space (a phone number in groups).
 */
export type PlainSink = (text: string, start: number, end: number, hash: number, head?: string) => void;

/**
 * FNV-1a's offset basis and prime, as {@linkcode PlainSink} hashes. The basis is kept as a signed 32-bit integer (the
 * same bits), so a hash is a small integer from its first step and never a floating-point number.
 */
export const FNV_OFFSET = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;
/** What a character is, by ASCII code: 0 part of a word, 1 whitespace, 2 a word of its own. */
const ASCII_KIND = new Uint8Array(128);
for (const code of [9, 10, 11, 12, 13, 32]) ASCII_KIND[code] = 1;
for (const char of '"<>[]{}|\\^`') ASCII_KIND[char.charCodeAt(0)] = 2;

/**
 * The lower case of each letter a plain word may hold, by code below 256, and 0 for every other character: ASCII
 * letters and the Latin-1 letters (U+00C0 to U+00FF but `×` and `÷`), whose lower case is one code each
 * (`À`-`Þ` add 32; `ß` and `ÿ` are their own).
 */
export const WORD_LOWER: Uint16Array = new Uint16Array(256);
for (let code = 65; code <= 90; code++) WORD_LOWER[code] = code + 32;
for (let code = 97; code <= 122; code++) WORD_LOWER[code] = code;
for (let code = 0xc0; code <= 0xff; code++) {
  if (code !== 0xd7 && code !== 0xf7) WORD_LOWER[code] = code <= 0xde && code !== 0xdf ? code + 32 : code;
}

/** {@linkcode WORD_LOWER} with the ASCII digits (their own lower case): how a {@linkcode PlainSink}'s range reads. */
export const TOKEN_LOWER: Uint16Array = WORD_LOWER.slice();
for (let code = 48; code <= 57; code++) TOKEN_LOWER[code] = code;

/** Whether `code` is an ASCII digit. */
export function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Whether `text[start, end)` is ASCII digits only (an empty range is). */
export function isDigits(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

/** What the character with UTF-16 code `code` is: 0 part of a word, 1 whitespace, 2 a word of its own. */
export function charKind(code: number): number {
  if (code < 128) return ASCII_KIND[code];
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
      code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
    ? 1
    : 0;
}

/**
 * Where the word that starts at `start` ends (the word is at least one character). A bracketed IPv6 host right after
 * `://` (`http://[::1]:8080/`) belongs to its word, as a browser reads it.
 */
export function wordEnd(text: string, start: number): number {
  if (charKind(text.charCodeAt(start)) === 2) return start + 1;
  let end = start + 1;
  while (end < text.length && charKind(text.charCodeAt(end)) === 0) end++;
  // Rare: a bracketed IPv6 host right after `://` continues the word.
  return text.charCodeAt(end) === 91 && end >= 3 && text.startsWith("://", end - 3) ? ipv6WordEnd(text, end) : end;
}

/** The end of a word that reached `[` right after `://`: past the bracketed host, and the rest of the word. */
function ipv6WordEnd(text: string, bracket: number): number {
  let end = bracket;
  for (;;) {
    const close = ipv6End(text, end + 1);
    if (close < 0) return end;
    end = close + 1;
    while (end < text.length && charKind(text.charCodeAt(end)) === 0) end++;
    if (text.charCodeAt(end) !== 91 || !text.startsWith("://", end - 3)) return end;
  }
}

/** Where the `]` closing a bracketed IPv6 address that starts at `start` is, or -1 (looks 64 characters ahead). */
function ipv6End(text: string, start: number): number {
  for (let k = start; k < text.length && k < start + 64; k++) {
    const code = text.charCodeAt(k);
    if (code === 93) return k;
    const hex = (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 102);
    if (!hex && code !== 58 && code !== 46 && code !== 37) return -1;
  }
  return -1;
}

/**
 * One word of a text and the words after it, cut on demand.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WordWindow } from "./word_window.ts";
 * const words = new WordWindow();
 * words.reset("USD  1,000<b> x", 0, 3);
 * assert.equal(words.at(0), "USD");
 * assert.equal(words.at(2), "<");
 * assert.equal(words.end(2), 11);
 * assert.equal(words.at(1), "1,000");
 * assert.equal(words.at(5), "x");
 * assert.equal(words.at(6), undefined);
 * ```
 */
export class WordWindow {
  #text = "";
  #words: string[] = [];
  #ends: number[] = [];
  /** How many of `#words` and `#ends` belong to the current text (the arrays are reused, never shrunk). */
  #count = 0;

  /** Start at the word `text[start, end)`, which becomes word 0. */
  reset(text: string, start: number, end: number): void {
    // Drop the words cut from the previous text: a spare window must not keep that text alive.
    for (let k = 1; k < this.#count; k++) this.#words[k] = "";
    this.#text = text;
    this.#words[0] = text.slice(start, end);
    this.#ends[0] = end;
    this.#count = 1;
  }

  /** Word `k` (0 is the word the window starts at), or `undefined` after the last word. */
  at(k: number): string | undefined {
    const text = this.#text;
    while (this.#count <= k) {
      let start = this.#ends[this.#count - 1];
      while (start < text.length && charKind(text.charCodeAt(start)) === 1) start++;
      if (start >= text.length) return undefined;
      const end = wordEnd(text, start);
      this.#words[this.#count] = text.slice(start, end);
      this.#ends[this.#count++] = end;
    }
    return this.#words[k];
  }

  /** Where word `k` ends in the text; the word must have been read with {@linkcode WordWindow.at}. */
  end(k: number): number {
    return this.#ends[k];
  }
}
