/**
 * "Did you mean" suggestions for policy keys, trace keys and CLI words.
 *
 * @module
 */

/**
 * The candidate closest to `word`, if it is close enough to be a typo: at most
 * one edit per three letters (at least one; swapping two neighbours is one
 * edit), case ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closestWord } from "./closest_word.ts";
 * assert.equal(closestWord("--versio", ["--version", "--help"]), "--version");
 * assert.equal(closestWord("jsno", ["json", "quiet"]), "json");
 * assert.equal(closestWord("zzz", ["check", "lint"]), undefined);
 * ```
 */
export function closestWord(word: string, candidates: Iterable<string>): string | undefined {
  let best: [string, number] | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best[1]) best = [candidate, distance];
  }
  return best && best[1] <= Math.max(1, Math.floor(word.length / 3)) ? best[0] : undefined;
}

/** Edits (insert, delete, substitute, or swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], before[j - 2] + 1);
      }
    }
    before = previous;
    previous = current;
  }
  return previous[b.length];
}
