/**
 * Flatten JSON-like values to their scalar leaves, with paths.
 *
 * @module
 */

/** One scalar inside a structured value. */
export interface LeafValue {
  /** Where it sits, such as `recipients[1]` or `meta.owner`; empty for the root. */
  readonly path: string;
  /** The scalar, as text. */
  readonly text: string;
}

/**
 * Every scalar leaf (string, number, boolean) of a value, depth first.
 * `null` and `undefined` carry no value and are skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leafValues } from "./leaf_values.ts";
 * assert.deepEqual(leafValues({ to: ["a@x.example"], n: 3 }), [
 *   { path: "to[0]", text: "a@x.example" },
 *   { path: "n", text: "3" },
 * ]);
 * ```
 */
export function leafValues(value: unknown, path = ""): LeafValue[] {
  const leaves: LeafValue[] = [];
  collect(value, path, leaves, 0);
  return leaves;
}

function collect(value: unknown, path: string, into: LeafValue[], depth: number): void {
  if (depth > 64) throw new TypeError(`Cannot read value at ${path || "(root)"}: nested more than 64 levels`);
  if (value === null || value === undefined) return;
  if (typeof value === "string") into.push({ path, text: value });
  else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    into.push({ path, text: String(value) });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => collect(item, `${path}[${i}]`, into, depth + 1));
  } else if (typeof value === "object") {
    for (const [key, item] of Object.entries(value)) collect(item, path ? `${path}.${key}` : key, into, depth + 1);
  }
}
