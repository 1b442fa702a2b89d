/**
 * The keys and scalar leaves of a structured value, in one walk that also
 * checks how deep it nests: what the evidence index reads from a decoded JSON
 * tool output, collected first so that a value nested too deep is refused
 * before anything of it is indexed.
 *
 * @module
 */

/** A key or a leaf: strings (booleans and bigints as their text) and numbers; `null` and `undefined` give nothing. */
export type StructuredLeaf = string | number;

/**
 * Every object key and scalar leaf of `value`, depth first, keys in `Object.keys` order; `undefined` when an object
 * or array sits `maxDepth` levels down or deeper (the value itself is level 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { structuredLeaves } from "./structured_leaves.ts";
 * assert.deepEqual(structuredLeaves({ to: "a@b.example", n: [1.5, true, null] }, 8), ["to", "a@b.example", "n", 1.5, "true"]);
 * assert.equal(structuredLeaves([[[1]]], 2), undefined);
 * assert.deepEqual(structuredLeaves([[[1]]], 3), [1]);
 * ```
 */
export function structuredLeaves(value: unknown, maxDepth: number): StructuredLeaf[] | undefined {
  const leaves: StructuredLeaf[] = [];
  return collect(value, 0, maxDepth, leaves) ? leaves : undefined;
}

function collect(item: unknown, depth: number, maxDepth: number, leaves: StructuredLeaf[]): boolean {
  if (item === null || item === undefined) return true;
  if (typeof item === "object") {
    if (depth >= maxDepth) return false;
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) if (!collect(item[i], depth + 1, maxDepth, leaves)) return false;
      return true;
    }
    const record = item as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      leaves.push(key);
      if (!collect(record[key], depth + 1, maxDepth, leaves)) return false;
    }
    return true;
  }
  if (typeof item === "number" || typeof item === "string") leaves.push(item);
  else if (typeof item === "boolean" || typeof item === "bigint") leaves.push(String(item));
  return true;
}
