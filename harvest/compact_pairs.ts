/**
 * Two non-negative integers per position, written in position order, in fixed
 * blocks that are never copied once full: the first in four bytes, the second
 * in two. A second value of 65,535 or more is kept aside, in a table sorted by
 * position (appends keep it sorted), and found again by binary search.
 *
 * The evidence index keeps a token id (any number of distinct tokens: a long
 * session may see millions) and the distance back to the token's previous
 * position (most are short: common tokens recur close by) at each position:
 * six bytes a token.
 *
 * @module
 */

const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
const FIRST_BLOCK_SIZE = 512;
/** Stored for a second value kept aside. */
const ASIDE = 0xffff;
const NO_FIRSTS: Int32Array<ArrayBuffer> = new Int32Array(0);
const NO_SECONDS: Uint16Array<ArrayBuffer> = new Uint16Array(0);

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
 * assert.deepEqual([pairs.first(0), pairs.second(0), pairs.first(1), pairs.second(1)], [7, 0, 1_000_000, 65_535]);
 * assert.equal(pairs.length, 2);
 * ```
 */
export class CompactPairs {
  readonly #firstBlocks: Int32Array<ArrayBuffer>[] = [];
  readonly #secondBlocks: Uint16Array<ArrayBuffer>[] = [];
  /** The blocks the next position goes to, and where their storage ends (as a position). */
  #firsts = NO_FIRSTS;
  #seconds = NO_SECONDS;
  #blockEnd = 0;
  #length = 0;
  /** Second values kept aside: their positions (ascending) and values. */
  #asideAt = new Int32Array(0);
  #asideValue = new Int32Array(0);
  #asideCount = 0;

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
    this.#firsts[offset] = first;
    if (second < ASIDE) this.#seconds[offset] = second;
    else {
      this.#seconds[offset] = ASIDE;
      this.#putAside(at, second);
    }
    this.#length = at + 1;
  }

  /** The first value at position `at` (which must be below the length). */
  first(at: number): number {
    return this.#firstBlocks[at >>> BLOCK_BITS][at & BLOCK_MASK];
  }

  /** The second value at position `at` (which must be below the length). */
  second(at: number): number {
    const stored = this.#secondBlocks[at >>> BLOCK_BITS][at & BLOCK_MASK];
    return stored === ASIDE ? this.#aside(at) : stored;
  }

  #putAside(at: number, value: number): void {
    if (this.#asideCount === this.#asideAt.length) {
      const size = Math.max(64, this.#asideAt.length * 2);
      const positions = new Int32Array(size);
      positions.set(this.#asideAt);
      const values = new Int32Array(size);
      values.set(this.#asideValue);
      this.#asideAt = positions;
      this.#asideValue = values;
    }
    this.#asideAt[this.#asideCount] = at;
    this.#asideValue[this.#asideCount++] = value;
  }

  #aside(at: number): number {
    let low = 0;
    let high = this.#asideCount - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#asideAt[middle] < at) low = middle + 1;
      else high = middle;
    }
    return this.#asideValue[low];
  }

  /**
   * Room for the next position. The first blocks start small and double (a copy of at most one block each), so that
   * a short conversation or a child branch stays small; every later block is full size and never copied.
   */
  #makeRoom(): void {
    const growFirst = this.#firstBlocks.length === 1 && this.#blockEnd < BLOCK_SIZE;
    const size = growFirst ? this.#blockEnd * 2 : this.#firstBlocks.length === 0 ? FIRST_BLOCK_SIZE : BLOCK_SIZE;
    const firsts = new Int32Array(size);
    const seconds = new Uint16Array(size);
    if (growFirst) {
      firsts.set(this.#firsts);
      seconds.set(this.#seconds);
      this.#firstBlocks.pop();
      this.#secondBlocks.pop();
    }
    this.#firstBlocks.push(this.#firsts = firsts);
    this.#secondBlocks.push(this.#seconds = seconds);
    this.#blockEnd = (this.#firstBlocks.length - 1) * BLOCK_SIZE + size;
  }
}
