/**
 * Interning for the evidence index: each distinct token gets a small id, in
 * the order first seen. An open-addressing hash table over the tokens' UTF-16
 * codes, so a plain ASCII word can be looked up where it stands in the text
 * ({@linkcode TokenTable.internLowerAscii}) without cutting a string out of it:
 * a word seen before costs no allocation.
 *
 * @module
 */

import { FNV_OFFSET, FNV_PRIME } from "./scan_text.ts";
import { ownCopy } from "./own_copy.ts";

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
 * assert.equal(table.internLowerAscii("Say HELLO", 4, 9, hash, 100), 0);
 * assert.equal(table.get("num:42"), 1);
 * assert.equal(table.get("bye"), undefined);
 * assert.throws(() => table.intern("bye", 2), RangeError);
 * ```
 */
export class TokenTable {
  #tokens: string[] = [];
  #hashes = new Int32Array(256);
  /** id + 1 per slot; 0 is an empty slot. Always at most half full. */
  #slots = new Int32Array(512);
  /** id + 1 of each one-character ASCII token interned so far (punctuation recurs everywhere), 0 when none. */
  #ascii = new Int32Array(128);

  /** How many distinct tokens the table holds. */
  get size(): number {
    return this.#tokens.length;
  }

  /** The id of `token`, or `undefined` when it was never interned. */
  get(token: string): number | undefined {
    let hash = FNV_OFFSET;
    for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), FNV_PRIME);
    hash |= 0;
    const mask = this.#slots.length - 1;
    for (let at = hash & mask;; at = (at + 1) & mask) {
      const entry = this.#slots[at];
      if (entry === 0) return undefined;
      if (this.#hashes[entry - 1] === hash && this.#tokens[entry - 1] === token) return entry - 1;
    }
  }

  /** The id of `token`, interning it when it is new; `limit` bounds how many tokens the table may hold. */
  intern(token: string, limit: number): number {
    const single = token.length === 1 ? token.charCodeAt(0) : 128;
    if (single < 128 && this.#ascii[single] > 0) return this.#ascii[single] - 1;
    let hash = FNV_OFFSET;
    for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), FNV_PRIME);
    hash |= 0;
    const mask = this.#slots.length - 1;
    let at = hash & mask;
    for (;; at = (at + 1) & mask) {
      const entry = this.#slots[at];
      if (entry === 0) break;
      if (this.#hashes[entry - 1] === hash && this.#tokens[entry - 1] === token) {
        if (single < 128) this.#ascii[single] = entry;
        return entry - 1;
      }
    }
    const id = this.#add(token, hash, at, limit);
    if (single < 128) this.#ascii[single] = id + 1;
    return id;
  }

  /**
   * The id of `text[start, end)` lowercased, interning it when it is new. Every character in that range must be an
   * ASCII letter, and `hash` the FNV-1a hash of the range lowercased, as the scanner gives it.
   */
  internLowerAscii(text: string, start: number, end: number, hash: number, limit: number): number {
    hash |= 0;
    const mask = this.#slots.length - 1;
    const length = end - start;
    let at = hash & mask;
    for (;; at = (at + 1) & mask) {
      const entry = this.#slots[at];
      if (entry === 0) break;
      if (this.#hashes[entry - 1] !== hash) continue;
      const token = this.#tokens[entry - 1];
      if (token.length !== length) continue;
      let k = 0;
      while (k < length && token.charCodeAt(k) === (text.charCodeAt(start + k) | 32)) k++;
      if (k === length) return entry - 1;
    }
    return this.#add(text.slice(start, end).toLowerCase(), hash, at, limit);
  }

  #add(token: string, hash: number, at: number, limit: number): number {
    const id = this.#tokens.length;
    if (id >= limit) throw new RangeError(`Cannot index more than ${limit} distinct tokens in one session`);
    this.#tokens.push(ownCopy(token));
    if (id >= this.#hashes.length) {
      const bigger = new Int32Array(this.#hashes.length * 2);
      bigger.set(this.#hashes);
      this.#hashes = bigger;
    }
    this.#hashes[id] = hash;
    this.#slots[at] = id + 1;
    if ((id + 1) * 2 > this.#slots.length) this.#rehash();
    return id;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.#tokens.length; id++) {
      let at = this.#hashes[id] & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = id + 1;
    }
    this.#slots = slots;
  }
}
