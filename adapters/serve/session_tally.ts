/**
 * The count a cap is checked against (live sessions, busy connections,
 * requests in flight): one thread's own, or one shared by the worker threads
 * of a server (each holds its own sessions and connections; the cap holds for
 * them all).
 *
 * @module
 */

/** A count (of live sessions, say) under a cap. */
export interface SessionTally {
  /** Take one place if fewer than `max` are taken (atomically); whether it was taken. */
  claim(max: number): boolean;
  /** Add `n` (negative: give back) without checking the cap: a session found in the store, or one that ended. */
  add(n: number): void;
  /** How many places are taken. */
  readonly count: number;
}

/**
 * A tally for one thread.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { localTally } from "./session_tally.ts";
 * const tally = localTally();
 * assert.equal(tally.claim(1), true);
 * assert.equal(tally.claim(1), false);
 * tally.add(-1);
 * assert.equal(tally.count, 0);
 * ```
 */
export function localTally(): SessionTally {
  let count = 0;
  return {
    claim: (max) => count < max && ++count > 0,
    add: (n) => void (count += n),
    get count() {
      return count;
    },
  };
}

/**
 * A tally kept in shared memory (cell `index` of `buffer`, from
 * {@linkcode sharedTallyBuffer}), so that threads given the same buffer share
 * one cap: a claim is one compare-and-swap, so no two threads take the last
 * place.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sharedTally, sharedTallyBuffer } from "./session_tally.ts";
 * const buffer = sharedTallyBuffer();
 * const [a, b] = [sharedTally(buffer), sharedTally(buffer)];
 * assert.equal(a.claim(1), true);
 * assert.equal(b.claim(1), false);
 * a.add(-1);
 * assert.equal(b.claim(1), true);
 * ```
 */
export function sharedTally(buffer: SharedArrayBuffer, index = 0): SessionTally {
  const cell = new Int32Array(buffer, index * 4, 1);
  return {
    claim(max) {
      for (let seen = Atomics.load(cell, 0); seen < max;) {
        const was = Atomics.compareExchange(cell, 0, seen, seen + 1);
        if (was === seen) return true;
        seen = was;
      }
      return false;
    },
    add: (n) => void Atomics.add(cell, 0, n),
    get count() {
      return Atomics.load(cell, 0);
    },
  };
}

/** Shared memory for `cells` tallies of {@linkcode sharedTally}: pass the same buffer to every thread. */
export function sharedTallyBuffer(cells = 1): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * cells);
}
