/**
 * Growing the typed arrays of the evidence index without leaving the old
 * storage to the collector.
 *
 * A typed array that grows by copying leaves its old storage alive until the
 * collector next finds it unreferenced, which for a long-lived table can be
 * seconds later: at the peak of a long recording, the index held the last
 * copy of each of its tables twice. `ArrayBuffer.prototype.transfer` moves the
 * storage into a larger buffer (in place where the allocator can) and frees
 * the old one at once; where an engine lacks it, the array is copied.
 *
 * @module
 */

/** A typed array the index grows. */
export type GrowableArray = Uint8Array<ArrayBuffer> | Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>;

/**
 * `array`'s items followed by zeros, `length` items in all, in the same kind of array. `array` must own its whole
 * buffer; it is left empty (its storage moved) wherever the engine can move it, so the caller must drop it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { growArray } from "./grow_array.ts";
 * const small = Int32Array.of(1, 2, 3);
 * const big = growArray(small, 5);
 * assert.deepEqual([...big], [1, 2, 3, 0, 0]);
 * assert.equal(small.length, 0); // its storage moved into `big`
 * ```
 */
export function growArray<T extends GrowableArray>(array: T, length: number): T {
  const make = array.constructor as new (source: ArrayBuffer | number) => T;
  const buffer = array.buffer;
  if (typeof buffer.transfer === "function" && array.byteOffset === 0 && array.byteLength === buffer.byteLength) {
    return new make(buffer.transfer(length * array.BYTES_PER_ELEMENT));
  }
  const bigger = new make(length);
  bigger.set(array);
  return bigger;
}

/**
 * Free `array`'s storage now rather than when the collector finds it: for a table just rebuilt into a new one.
 * `array` must own its whole buffer, and nothing may read it afterwards.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { releaseArray } from "./grow_array.ts";
 * const old = new Int32Array(1024);
 * releaseArray(old);
 * assert.equal(old.length, 0);
 * ```
 */
export function releaseArray(array: GrowableArray): void {
  if (typeof array.buffer.transfer === "function" && array.byteOffset === 0) array.buffer.transfer(0);
}
