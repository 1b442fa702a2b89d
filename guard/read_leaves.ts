/**
 * Reading the scalar leaves of a value with a depth limit that loses nothing:
 * below the limit every scalar is its own leaf; a subtree nested deeper is
 * read as one text leaf (its scalars, in order) and reported as deep.
 *
 * @module
 */

/** One scalar (or, beyond the depth limit, one subtree read as text) inside a value. */
export interface Leaf {
  /** Where it sits, such as `recipients[1]` or `meta.owner`. */
  readonly path: string;
  /** The scalar as text, or the subtree's scalars joined by line breaks. */
  readonly text: string;
  /** Whether this leaf is a subtree nested beyond the limit, read as text. */
  readonly deep: boolean;
}

/** How deep values are read leaf by leaf. */
export const LEAF_DEPTH_LIMIT = 64;

/**
 * The leaves of a value, depth first. Iterative: no nesting depth can make it
 * throw; an object met twice (a cycle or a shared subtree) is read once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLeaves } from "./read_leaves.ts";
 * assert.deepEqual(readLeaves({ to: ["a@x.example"], n: 3 }), [
 *   { path: "to[0]", text: "a@x.example", deep: false },
 *   { path: "n", text: "3", deep: false },
 * ]);
 * assert.deepEqual(readLeaves({ a: { b: { c: "x" } } }, "", 1), [{ path: "a", text: "x", deep: true }]);
 * ```
 */
export function readLeaves(value: unknown, path = "", limit = LEAF_DEPTH_LIMIT): Leaf[] {
  // Most argument values are one scalar: its own leaf.
  const scalar = scalarText(value);
  if (scalar !== undefined) return [{ path, text: scalar, deep: false }];
  const leaves: Leaf[] = [];
  const seen = new Set<object>();
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    const text = scalarText(item.value);
    if (text !== undefined) {
      leaves.push({ path: item.path, text, deep: false });
      continue;
    }
    if (typeof item.value !== "object" || item.value === null || seen.has(item.value)) continue;
    if (item.depth >= limit) {
      const deep = subtreeText(item.value, seen);
      if (deep) leaves.push({ path: item.path, text: deep, deep: true });
      continue;
    }
    seen.add(item.value);
    const children = entries(item.value, item.path);
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ value: children[i][1], path: children[i][0], depth: item.depth + 1 });
    }
  }
  return leaves;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return undefined;
}

function entries(value: object, path: string): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.map((item, i) => [`${path}[${i}]`, item]);
  return Object.keys(value).map((key) => [path ? `${path}.${key}` : key, (value as Record<string, unknown>)[key]]);
}

function subtreeText(root: object, seen: Set<object>): string {
  const texts: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    const text = scalarText(value);
    if (text !== undefined) texts.push(text);
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const children = entries(value, "").map(([, child]) => child);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return texts.join("\n");
}
