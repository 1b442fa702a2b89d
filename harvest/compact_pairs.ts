/**
 * Two small non-negative integers per position, written in position order:
 * two bytes each, side by side in fixed blocks that are never copied once
 * full. A value of 65,535 or more is kept aside, in a table sorted by cell
 * (appends keep it sorted), and found again by binary search.
 *
 * The evidence index keeps a token id (most are small: ids are handed out in
 * the order tokens are first seen) and the distance to the token's previous
 * position (most are short: common tokens recur close by) at each position.
 *
 * @module
 */

/** Positions per block (each takes two cells). */
const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
const FIRST_BLOCK_SIZE = 512;
/** Stored for a value kept aside. */
const ASIDE = 0xffff;
const NO_BLOCK: Uint16Array<ArrayBuffer> = new Uint16Array(0);

/**
 * Pairs of small integers by position.
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
  readonly #blocks: Uint16Array<ArrayBuffer>[] = [];
  /** The block the next position goes to, and where its storage ends (as a position). */
  #block = NO_BLOCK;
  #blockEnd = 0;
  #length = 0;
  /** Values kept aside: their cells (position * 2 + 0 or 1, ascending) and values. */
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
    const cell = (at & BLOCK_MASK) << 1;
    if (first < ASIDE && second < ASIDE) {
      this.#block[cell] = first;
      this.#block[cell + 1] = second;
    } else {
      this.#block[cell] = first < ASIDE ? first : ASIDE;
      this.#block[cell + 1] = second < ASIDE ? second : ASIDE;
      if (first >= ASIDE) this.#putAside(at * 2, first);
      if (second >= ASIDE) this.#putAside(at * 2 + 1, second);
    }
    this.#length = at + 1;
  }

  /** The first value at position `at` (which must be below the length). */
  first(at: number): number {
    const stored = this.#blocks[at >>> BLOCK_BITS][(at & BLOCK_MASK) << 1];
    return stored === ASIDE ? this.#aside(at * 2) : stored;
  }

  /** The second value at position `at` (which must be below the length). */
  second(at: number): number {
    const stored = this.#blocks[at >>> BLOCK_BITS][((at & BLOCK_MASK) << 1) + 1];
    return stored === ASIDE ? this.#aside(at * 2 + 1) : stored;
  }

  #putAside(cell: number, value: number): void {
    if (this.#asideCount === this.#asideAt.length) {
      const size = Math.max(64, this.#asideAt.length * 2);
      const positions = new Int32Array(size);
      positions.set(this.#asideAt);
      const values = new Int32Array(size);
      values.set(this.#asideValue);
      this.#asideAt = positions;
      this.#asideValue = values;
    }
    this.#asideAt[this.#asideCount] = cell;
    this.#asideValue[this.#asideCount++] = value;
  }

  #aside(cell: number): number {
    let low = 0;
    let high = this.#asideCount - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#asideAt[middle] < cell) low = middle + 1;
      else high = middle;
    }
    return this.#asideValue[low];
  }

  /**
   * Room for the next position. The first block starts small and doubles (a copy of at most one block), so that a
   * short conversation or a child branch stays small; every later block is full size and never copied.
   */
  #makeRoom(): void {
    const growFirst = this.#blocks.length === 1 && this.#blockEnd < BLOCK_SIZE;
    const size = growFirst ? this.#blockEnd * 2 : this.#blocks.length === 0 ? FIRST_BLOCK_SIZE : BLOCK_SIZE;
    const block = new Uint16Array(size * 2);
    if (growFirst) {
      block.set(this.#block);
      this.#blocks.pop();
    }
    this.#blocks.push(this.#block = block);
    this.#blockEnd = (this.#blocks.length - 1) * BLOCK_SIZE + size;
  }
}
