/**
 * Interning for the evidence index: each distinct token gets a small id, in
 * the order first seen. An open-addressing hash table over the tokens' UTF-16
 * codes, so a plain ASCII word can be looked up where it stands in the text
 * ({@linkcode TokenTable.internPlainWord}) without cutting a string out of it:
 * a word seen before costs no allocation.
 *
 * The tokens' characters live in one growing array, not as strings: a table of
 * a million distinct tokens (ids, numbers, names in a long session) is a few
 * arrays for the collector, not a million small objects, and it can never keep
 * a tool output alive through a piece cut out of it. The array holds a byte a
 * character while every token is Latin-1 (plain words always are), and two
 * from the first token that is not.
 *
 * @module
 */

import { charKind, FNV_OFFSET, FNV_PRIME, TOKEN_LOWER } from "./word_window.ts";
import { type GrowableArray, growArray, releaseArray } from "./grow_array.ts";

/**
 * Distinct tokens, each with an id (0, 1, 2, ... in the order first seen).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TokenTable } from "./token_table.ts";
 * const table = new TokenTable();
 * assert.equal(table.intern("hello", 100), 0);
 * assert.equal(table.intern("num:42", 100), 1);
 * let hash = 0x811c9dc5;
 * for (const char of "hello") hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
 * assert.equal(table.internPlainWord("Say HELLO", 4, 9, hash, 100), 0);
 * assert.equal(table.get("num:42"), 1);
 * assert.equal(table.get("bye"), undefined);
 * assert.throws(() => table.intern("bye", 2), RangeError);
 * ```
 */
export class TokenTable {
  /** Every token's UTF-16 codes, one after another; token `id` is `#chars[#ends[2 * id], #ends[2 * id + 2])`. */
  #chars: Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> = new Uint8Array(4096);
  /** Whether `#chars` holds two bytes a character (some token is not Latin-1). */
  #wide = false;
  #charCount = 0;
  /**
   * Per token id, its hash and where its characters end, side by side after the end of the token before (0 for the
   * first): `[0, hash 0, end 0, hash 1, end 1, ...]`, so that a probe reads a token's hash, start and end in one place.
   */
  #ends = new Int32Array(513);
  #count = 0;
  /** id + 1 per slot; 0 is an empty slot. Always at most half full. */
  #slots = new Int32Array(512);
  /**
   * Per top 10 bits of hash, the hash and id + 1 of a token found there lately, side by side (0: none): the tokens a
   * session's outputs repeat are found here, in 8 KB that stay cached, instead of by a probe of `#slots`, which many
   * long sessions together keep out of the caches. One pair until the table is large enough to miss the caches.
   */
  #recent = new Int32Array(2);
  /** id + 1 of each one-character ASCII token interned so far (punctuation recurs everywhere), 0 when none. */
  #ascii = new Int32Array(128);
  /** The hash and length of the token written last after the others (see `#write`), and the longest token's length. */
  #tailHash = 0;
  #tailLength = 0;
  #longest = 0;

  /** How many distinct tokens the table holds. */
  get size(): number {
    return this.#count;
  }

  /** The id of `token`, or `undefined` when it was never interned. */
  get(token: string): number | undefined {
    // A token longer than any held is not held (and a look-up never grows the table to read it).
    if (token.length > this.#longest || !this.#write(token, "", 0, 0, false)) return undefined;
    const id = this.#idOfTail(-1);
    return id < 0 ? undefined : id;
  }

  /** The id of `token`, interning it when it is new; `limit` bounds how many tokens the table may hold. */
  intern(token: string, limit: number): number {
    const single = token.length === 1 ? token.charCodeAt(0) : 128;
    if (single < 128 && this.#ascii[single] > 0) return this.#ascii[single] - 1;
    const id = this.internWritten(token, "", 0, 0, limit);
    if (single < 128) this.#ascii[single] = id + 1;
    return id;
  }

  /**
   * The id of `head` followed by `text[start, end)` as written but without whitespace, interning it when it is new:
   * the same id as `intern(head + text.slice(start, end).replace(/\s/g, ""))`, with no string made.
   */
  internWritten(head: string, text: string, start: number, end: number, limit: number): number {
    this.#write(head, text, start, end, true);
    return this.#idOfTail(limit);
  }

  /**
   * The id of `text[start, end)` lowercased, interning it when it is new. Every character in that range must be an
   * ASCII letter or digit or a Latin-1 letter (see `TOKEN_LOWER`), and `hash` the FNV-1a hash of the range lowercased,
   * as the scanner gives it (see `PlainSink`). With `head`, the id `internWritten` gives (an entity where it stands).
   */
  internPlainWord(text: string, start: number, end: number, hash: number, limit: number, head?: string): number {
    if (head !== undefined) return this.internWritten(head, text, start, end, limit);
    const tail = this.#room(end - start);
    const chars = this.#chars;
    for (let i = start; i < end; i++) chars[tail + i - start] = TOKEN_LOWER[text.charCodeAt(i)];
    this.#tailHash = hash | 0;
    this.#tailLength = end - start;
    return this.#idOfTail(limit);
  }

  /**
   * Copy `head` and then `text[start, end)` without whitespace after the last token, hashing it (one read of it), for
   * `#idOfTail`; false when the token is not Latin-1, the table holds Latin-1 tokens only and `widen` is false.
   */
  #write(head: string, text: string, start: number, end: number, widen: boolean): boolean {
    const tail = this.#room(head.length + end - start);
    let chars = this.#chars;
    let hash = FNV_OFFSET;
    let to = tail;
    for (let i = -head.length; i < end - start; i++) {
      const code = i < 0 ? head.charCodeAt(head.length + i) : text.charCodeAt(start + i);
      if (i >= 0 && charKind(code) === 1) continue;
      if (code > 0xff && !this.#wide) {
        if (!widen) return false;
        chars = this.#widen();
      }
      chars[to++] = code;
      hash = Math.imul(hash ^ code, FNV_PRIME);
    }
    this.#tailHash = hash;
    this.#tailLength = to - tail;
    return true;
  }

  /** Where the next token's characters go, with room for `length` of them. */
  #room(length: number): number {
    const tail = this.#charCount;
    if (tail + length > this.#chars.length) this.#chars = grown(this.#chars, tail + length);
    return tail;
  }

  /**
   * The id of the token written after the last one (see `#write`), giving it the next id when it is new; -1 when it is
   * new and `limit` is -1 (a look-up).
   */
  #idOfTail(limit: number): number {
    const hash = this.#tailHash;
    const length = this.#tailLength;
    const tail = this.#charCount;
    const chars = this.#chars;
    const recent = this.#recent;
    const seen = (hash >>> 22) * 2 & (recent.length - 2);
    const mask = this.#slots.length - 1;
    // The token found lately with this hash first, then the slots from the hash's own on.
    let at = (hash - 1) & mask;
    let entry = recent[seen] === hash ? recent[seen + 1] : 0;
    for (entry ||= this.#slots[at = (at + 1) & mask]; entry !== 0; entry = this.#slots[at = (at + 1) & mask]) {
      const endAt = entry * 2;
      if (this.#ends[endAt - 1] !== hash) continue;
      const from = this.#ends[endAt - 2];
      if (this.#ends[endAt] - from !== length) continue;
      let k = 0;
      while (k < length && chars[from + k] === chars[tail + k]) k++;
      if (k === length) {
        recent[seen] = hash;
        recent[seen + 1] = entry;
        return entry - 1;
      }
    }
    return limit < 0 ? -1 : this.#add(hash, at, limit, length);
  }

  /** Make `#chars` two bytes a character, for a token that is not Latin-1; returns the new array. */
  #widen(): Uint16Array<ArrayBuffer> {
    const wide = new Uint16Array(this.#chars.length);
    wide.set(this.#chars);
    releaseArray(this.#chars);
    this.#wide = true;
    this.#chars = wide;
    return wide;
  }

  /** Give the token written after the last one (`length` characters, hashed `hash`, to go in slot `at`) the next id. */
  #add(hash: number, at: number, limit: number, length: number): number {
    const id = this.#count;
    if (id >= limit) throw new RangeError(`Cannot index more than ${limit} distinct tokens in one session`);
    if (id * 2 + 3 > this.#ends.length) this.#ends = grown(this.#ends, id * 2 + 3);
    this.#charCount += length;
    if (length > this.#longest) this.#longest = length;
    this.#ends[id * 2 + 1] = hash;
    this.#ends[id * 2 + 2] = this.#charCount;
    this.#slots[at] = id + 1;
    this.#count = id + 1;
    if ((id + 1) * 2 > this.#slots.length) this.#rehash();
    return id;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.#count; id++) {
      let at = this.#ends[id * 2 + 1] & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = id + 1;
    }
    releaseArray(this.#slots);
    this.#slots = slots;
    // From 4,096 tokens on (a table that misses the caches), 1,024 recent ones.
    if (slots.length === 8192) this.#recent = new Int32Array(2048);
  }
}

/** `array` with room for at least `needed` items (doubling, so growth costs amortised constant time). */
function grown<T extends GrowableArray>(array: T, needed: number): T {
  let size = array.length * 2;
  while (size < needed) size *= 2;
  return growArray(array, size);
}
