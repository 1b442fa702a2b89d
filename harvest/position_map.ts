/**
 * A map from non-negative integers to non-negative integers in two typed
 * arrays (open addressing, linear probing, at most half full): eight bytes a
 * slot outside the collected heap, where a `Map` of numbers costs a few dozen
 * bytes an entry and copies its table on the collected heap as it grows.
 *
 * The evidence index keeps one entry per distinct complete field (its key is
 * the field's hash and rank; its value, the last position of such a field): a
 * long session of structured outputs has a hundred thousand of them.
 *
 * @module
 */

import { releaseArray } from "./grow_array.ts";

const EMPTY = -1;
const FIRST_SIZE = 256;

/**
 * Non-negative integer keys (up to 2^31 - 1) to non-negative integer values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PositionMap } from "./position_map.ts";
 * const map = new PositionMap();
 * map.set(7, 100);
 * map.set(2 ** 30, 5);
 * map.set(7, 120);
 * assert.deepEqual([map.get(7), map.get(2 ** 30), map.get(8), map.size], [120, 5, -1, 2]);
 * ```
 */
export class PositionMap {
  #keys = new Int32Array(FIRST_SIZE).fill(EMPTY);
  #values = new Int32Array(FIRST_SIZE);
  #size = 0;

  /** How many keys the map holds. */
  get size(): number {
    return this.#size;
  }

  /** The value of `key`, or -1 when it has none. */
  get(key: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    for (let at = slotOf(key, mask);; at = (at + 1) & mask) {
      const found = keys[at];
      if (found === key) return this.#values[at];
      if (found === EMPTY) return -1;
    }
  }

  /** Set the value of `key`. */
  set(key: number, value: number): void {
    const keys = this.#keys;
    const mask = keys.length - 1;
    let at = slotOf(key, mask);
    while (keys[at] !== key && keys[at] !== EMPTY) at = (at + 1) & mask;
    this.#values[at] = value;
    if (keys[at] === key) return;
    keys[at] = key;
    if (++this.#size * 2 > keys.length) this.#grow();
  }

  #grow(): void {
    const keys = this.#keys;
    const values = this.#values;
    this.#keys = new Int32Array(keys.length * 2).fill(EMPTY);
    this.#values = new Int32Array(keys.length * 2);
    this.#size = 0;
    for (let at = 0; at < keys.length; at++) if (keys[at] !== EMPTY) this.set(keys[at], values[at]);
    releaseArray(keys);
    releaseArray(values);
  }
}

/** The first slot to probe for `key`: its bits mixed, since field keys share their low bits (the rank). */
function slotOf(key: number, mask: number): number {
  return (Math.imul(key, 0x9e3779b1) >>> 7) & mask;
}
