/**
 * Two non-negative integers per position, written in position order, in fixed
 * blocks that are never copied once full: the first in three bytes, the second
 * in two, side by side. A first value of 16,711,680 (255 x 65,536) or more, or
 * a second of 65,535 or more, is kept aside, in a table sorted by position
 * (appends keep it sorted), and found again by binary search.
 *
 * The evidence index keeps a token id (any number of distinct tokens: a long
 * session may see millions) and the distance back to the token's previous
 * position (most are short: common tokens recur close by) at each position:
 * five bytes a token.
 *
 * @module
 */

import { growArray } from "./grow_array.ts";

const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
const FIRST_BLOCK_SIZE = 512;
/** Stored for a second value kept aside. */
const ASIDE = 0xffff;
/** Stored as the high byte of a first value kept aside. */
const HIGH_ASIDE = 0xff;
const FIRST_ASIDE = HIGH_ASIDE << 16;
const NO_WORDS: Uint16Array<ArrayBuffer> = new Uint16Array(0);
const NO_HIGHS: Uint8Array<ArrayBuffer> = new Uint8Array(0);

/**
 * Pairs of integers by position.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CompactPairs } from "./compact_pairs.ts";
 * const pairs = new CompactPairs();
 * pairs.append(0, 7, 0);
 * pairs.append(1, 1_000_000, 65_535);
 * pairs.append(2, 2 ** 31 - 1, 3);
 * assert.deepEqual([pairs.first(0), pairs.second(0), pairs.first(1), pairs.second(1)], [7, 0, 1_000_000, 65_535]);
 * assert.deepEqual([pairs.first(2), pairs.second(2), pairs.length], [2 ** 31 - 1, 3, 3]);
 * ```
 */
export class CompactPairs {
  /** Per block: the low 16 bits of the first value and the second value, interleaved; and the first's high byte. */
  readonly #wordBlocks: Uint16Array<ArrayBuffer>[] = [];
  readonly #highBlocks: Uint8Array<ArrayBuffer>[] = [];
  /** The blocks the next position goes to, and where their storage ends (as a position). */
  #words = NO_WORDS;
  #highs = NO_HIGHS;
  #blockEnd = 0;
  #length = 0;
  readonly #firstsAside = new AsideTable();
  readonly #secondsAside = new AsideTable();

  /** How many positions the pairs hold. */
  get length(): number {
    return this.#length;
  }

  /**
   * Write the pair (`first`, `second`), whole numbers from 0 to 2^31 - 1, at position `at`, which must be the
   * length.
   */
  append(at: number, first: number, second: number): void {
    if (at === this.#blockEnd) this.#makeRoom();
    const offset = at & BLOCK_MASK;
    if (first < FIRST_ASIDE) {
      this.#words[offset * 2] = first;
      this.#highs[offset] = first >>> 16;
    } else {
      this.#highs[offset] = HIGH_ASIDE;
      this.#firstsAside.append(at, first);
    }
    if (second < ASIDE) this.#words[offset * 2 + 1] = second;
    else {
      this.#words[offset * 2 + 1] = ASIDE;
      this.#secondsAside.append(at, second);
    }
    this.#length = at + 1;
  }

  /** The first value at position `at` (which must be below the length). */
  first(at: number): number {
    const block = at >>> BLOCK_BITS;
    const offset = at & BLOCK_MASK;
    const high = this.#highBlocks[block][offset];
    return high === HIGH_ASIDE ? this.#firstsAside.at(at) : (high << 16) | this.#wordBlocks[block][offset * 2];
  }

  /** The second value at position `at` (which must be below the length). */
  second(at: number): number {
    const stored = this.#wordBlocks[at >>> BLOCK_BITS][(at & BLOCK_MASK) * 2 + 1];
    return stored === ASIDE ? this.#secondsAside.at(at) : stored;
  }

  /**
   * Room for the next position. The first blocks start small and double (a copy of at most one block each), so that
   * a short conversation or a child branch stays small; every later block is full size and never copied.
   */
  #makeRoom(): void {
    const growFirst = this.#wordBlocks.length === 1 && this.#blockEnd < BLOCK_SIZE;
    const size = growFirst ? this.#blockEnd * 2 : this.#wordBlocks.length === 0 ? FIRST_BLOCK_SIZE : BLOCK_SIZE;
    let words: Uint16Array<ArrayBuffer>;
    let highs: Uint8Array<ArrayBuffer>;
    if (growFirst) {
      words = growArray(this.#words, size * 2);
      highs = growArray(this.#highs, size);
      this.#wordBlocks.pop();
      this.#highBlocks.pop();
    } else {
      words = new Uint16Array(size * 2);
      highs = new Uint8Array(size);
    }
    this.#wordBlocks.push(this.#words = words);
    this.#highBlocks.push(this.#highs = highs);
    this.#blockEnd = (this.#wordBlocks.length - 1) * BLOCK_SIZE + size;
  }
}

/** Values kept aside by position, appended in position order. */
class AsideTable {
  #positions = new Int32Array(0);
  #values = new Int32Array(0);
  #count = 0;

  append(at: number, value: number): void {
    if (this.#count === this.#positions.length) {
      const size = Math.max(64, this.#positions.length * 2);
      this.#positions = growArray(this.#positions, size);
      this.#values = growArray(this.#values, size);
    }
    this.#positions[this.#count] = at;
    this.#values[this.#count++] = value;
  }

  /** The value kept for position `at` (which must have one). */
  at(at: number): number {
    let low = 0;
    let high = this.#count - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#positions[middle] < at) low = middle + 1;
      else high = middle;
    }
    return this.#values[low];
  }
}
