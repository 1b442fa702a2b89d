/**
 * A column of small non-negative integers, one per position, written in
 * position order: two bytes a position, in fixed blocks that are never copied
 * once full. A value of 65,535 or more is kept aside, in a table sorted by
 * position (appends keep it sorted), and found again by binary search.
 *
 * The evidence index keeps two: token ids (most are small: ids are handed out
 * in the order tokens are first seen) and distances to a token's previous
 * position (most are short: common tokens recur close by).
 *
 * @module
 */

const BLOCK_BITS = 16;
const BLOCK_SIZE = 1 << BLOCK_BITS;
const BLOCK_MASK = BLOCK_SIZE - 1;
const FIRST_BLOCK_SIZE = 512;
/** Stored for a value kept aside. */
const ASIDE = 0xffff;
const NO_BLOCK: Uint16Array<ArrayBuffer> = new Uint16Array(0);

/**
 * Small integers by position.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CompactColumn } from "./compact_column.ts";
 * const column = new CompactColumn();
 * column.append(0, 7);
 * column.append(1, 1_000_000);
 * column.append(2, 65_535);
 * assert.deepEqual([column.get(0), column.get(1), column.get(2)], [7, 1_000_000, 65_535]);
 * assert.equal(column.length, 3);
 * ```
 */
export class CompactColumn {
  readonly #blocks: Uint16Array<ArrayBuffer>[] = [];
  /** The block the next position goes to, and where its storage ends (as a position). */
  #block = NO_BLOCK;
  #blockEnd = 0;
  #length = 0;
  /** Values kept aside: their positions (ascending) and values. */
  #asideAt = new Int32Array(0);
  #asideValue = new Int32Array(0);
  #asideCount = 0;

  /** How many positions the column holds. */
  get length(): number {
    return this.#length;
  }

  /** Write `value` (a whole number from 0 to 2^31 - 1) at position `at`, which must be the column's length. */
  append(at: number, value: number): void {
    if (at === this.#blockEnd) this.#makeRoom();
    if (value < ASIDE) this.#block[at & BLOCK_MASK] = value;
    else {
      this.#block[at & BLOCK_MASK] = ASIDE;
      this.#putAside(at, value);
    }
    this.#length = at + 1;
  }

  /** The value at position `at` (which must be below the length). */
  get(at: number): number {
    const stored = this.#blocks[at >>> BLOCK_BITS][at & BLOCK_MASK];
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
   * Room for the next position. The first block starts small and doubles (a copy of at most one block), so that a
   * short conversation or a child branch stays small; every later block is full size and never copied.
   */
  #makeRoom(): void {
    const growFirst = this.#blocks.length === 1 && this.#blockEnd < BLOCK_SIZE;
    const size = growFirst ? this.#blockEnd * 2 : this.#blocks.length === 0 ? FIRST_BLOCK_SIZE : BLOCK_SIZE;
    const block = new Uint16Array(size);
    if (growFirst) {
      block.set(this.#block);
      this.#blocks.pop();
    }
    this.#blocks.push(this.#block = block);
    this.#blockEnd = (this.#blocks.length - 1) * BLOCK_SIZE + size;
  }
}
