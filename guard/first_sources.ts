/**
 * The first few sources of a value, as Gate 1 names them: a value that a
 * source at least as trusted as the rule asks for contains is named by those
 * sources alone; any other value, by its first sources of any trust.
 *
 * @module
 */
import type { EvidenceIndex } from "../harvest/mod.ts";

/**
 * How many sources of one value Gate 1 names. The index yields them strongest trust first, so a vouching source is
 * always among them; a value that recurs in thousands of outputs costs no more than one named a few times.
 */
export const NAMED_SOURCES = 8;

/**
 * The first distinct sources of `value`, at most `limit`, in the order the
 * index offers them (strongest rank first, as `EvidenceIndex.sources` yields
 * them). Once a source of rank `minRank` or more was found, the walk stops at
 * the first weaker one. `rankOf` gives a source's rank.
 *
 * Why not `EvidenceIndex.sources`: that generator makes a generator per rank
 * and per index of the lineage, about 8 KB for every look-up, on every call.
 * `EvidenceIndex.vouch` offers the same sources in the same order to its
 * `accept` callback without them; here the callback collects them and says
 * when to stop.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EvidenceIndex } from "../harvest/mod.ts";
 * import { firstSources } from "./first_sources.ts";
 * const index = new EvidenceIndex();
 * const ranks = [2, 0, 0];
 * index.addText(0, "mail dana@corp.example", 2);
 * index.addText(1, "cc dana@corp.example", 0);
 * index.addText(2, "from dana@corp.example", 0);
 * const rankOf = (source: number) => ranks[source];
 * assert.deepEqual(firstSources(index, "dana@corp.example", 2, 8, rankOf), [0]);
 * assert.deepEqual(firstSources(index, "dana@corp.example", 2, 8, rankOf), [0]);
 * assert.deepEqual(firstSources(index, "cc dana@corp.example", 2, 8, rankOf), [1]);
 * assert.deepEqual(firstSources(index, "dana@corp.example", 0, 2, rankOf), [0, 2]);
 * ```
 */
export function firstSources(
  index: EvidenceIndex,
  value: string,
  minRank: number,
  limit: number,
  rankOf: (source: number) => number,
): number[] {
  const found: number[] = [];
  let vouched = false;
  // Offered every candidate from rank 15 down until the callback says stop (a source may be offered again).
  index.vouch(value, (source) => {
    if (found.includes(source)) return false;
    if (rankOf(source) >= minRank) vouched = true;
    else if (vouched) return true;
    found.push(source);
    return found.length >= limit;
  }, 0);
  return found;
}
