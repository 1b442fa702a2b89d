/**
 * A seeded pseudo-random generator, so the benchmarks build the same context on every run.
 *
 * @module
 */

/**
 * A seeded PRNG (mulberry32): the same context on every run. Shared by the benchmarks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seededRandom } from "./seeded_random.ts";
 * const [a, b] = [seededRandom(7), seededRandom(7)];
 * assert.equal(a(), b());
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
