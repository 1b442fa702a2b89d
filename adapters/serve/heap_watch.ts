/**
 * How full the JavaScript heap is, for refusing work before it runs out: an
 * in-memory store holds every live session's inputs and audit chain in the
 * heap, and nothing else bounds their sum, so a client that keeps sending
 * would otherwise end the process (V8 out of memory). Read at most once per
 * interval, so a request pays for a clock read, not a heap walk.
 *
 * @module
 */
import { getHeapStatistics } from "node:v8";

/**
 * The share of the heap limit past which work that adds to the heap is refused. V8's limit counts the young
 * generation's reserve too, and the old generation fills up first: with a 200 MB old space and pab's 4 MB semi-spaces
 * the limit reads 222 MB and the process ends near 206 MB used (93%), with V8's default 16 MB semi-spaces 310 MB and
 * 206 MB (66%); at the default heap (4.4 GB here) the reserve is a few percent. 60% leaves room for that and for the
 * requests in flight.
 */
export const HEAP_HIGH_WATER = 0.6;

/** Milliseconds between two readings of the heap. */
const INTERVAL_MS = 50;

/**
 * A check that says whether the heap is fuller than `share` of its limit
 * (its reading at most `INTERVAL_MS` old), and how full it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { heapWatch } from "./heap_watch.ts";
 * assert.equal(heapWatch(1).tight(), false);
 * assert.equal(heapWatch(0).tight(), true);
 * ```
 */
export function heapWatch(share: number = HEAP_HIGH_WATER): { tight(): boolean; readonly used: number } {
  let read = -Infinity;
  let used = 0;
  return {
    tight() {
      const now = performance.now();
      if (now - read >= INTERVAL_MS) {
        const heap = getHeapStatistics();
        used = heap.used_heap_size / heap.heap_size_limit;
        read = now;
      }
      return used > share;
    },
    get used() {
      return used;
    },
  };
}
