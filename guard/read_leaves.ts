/**
 * Reading the scalar leaves of a value with a depth limit that loses nothing:
 * below the limit every scalar is its own leaf; a subtree nested deeper is
 * read as one text leaf (its keys and scalars, in order) and reported as deep.
 *
 * An object's keys can be values too: `{"shared_with": {"alice@corp.example":
 * "read"}}` names a person by a key. A key is read as a leaf of its own, at
 * the path of its entry (`shared_with.alice@corp.example`, so field rules
 * apply to it as to the value under it): every key when asked (`keys:
 * "all"`, what a trusted output vouches for), else each key that holds a
 * typed value (an address, a link, a phone number, an account; not a bare
 * number), so a call cannot hide a recipient in a key.
 *
 * @module
 */
import { canonicalEntity } from "../harvest/mod.ts";

/** One scalar (or, beyond the depth limit, one subtree read as text) inside a value. */
export interface Leaf {
  /** Where it sits, such as `recipients[1]` or `meta.owner`. */
  readonly path: string;
  /** The scalar as text, or the subtree's scalars joined by line breaks. */
  readonly text: string;
  /** Whether this leaf is a subtree nested beyond the limit, read as text. */
  readonly deep: boolean;
  /** Whether this leaf is an object's key rather than a scalar. */
  readonly key?: boolean;
}

/** Which object keys are leaves too: every key, or those that hold a typed value (see the module doc). */
type KeyLeaves = "all" | "values";

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
 * assert.deepEqual(readLeaves({ a: { b: { c: "x" } } }, "", 1, "all"), [
 *   { path: "a", text: "a", deep: false, key: true },
 *   { path: "a", text: "b\nc\nx", deep: true },
 * ]);
 * ```
 */
export function readLeaves(
  value: unknown,
  path = "",
  limit = LEAF_DEPTH_LIMIT,
  keys: "all" | "values" = "values",
): Leaf[] {
  // Most argument values are one scalar: its own leaf.
  const scalar = scalarText(value);
  if (scalar !== undefined) return [{ path, text: scalar, deep: false }];
  const leaves: Leaf[] = [];
  const seen = new Set<object>();
  const stack: Array<{ value: unknown; path: string; depth: number; key?: boolean }> = [{ value, path, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    const text = scalarText(item.value);
    if (text !== undefined) {
      leaves.push(
        item.key ? { path: item.path, text, deep: false, key: true } : { path: item.path, text, deep: false },
      );
      continue;
    }
    if (typeof item.value !== "object" || item.value === null || seen.has(item.value)) continue;
    if (item.depth >= limit) {
      const deep = subtreeText(item.value, seen, keys);
      if (deep) leaves.push({ path: item.path, text: deep, deep: true });
      continue;
    }
    seen.add(item.value);
    const children = entries(item.value, item.path);
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push({ value: children[i][1], path: children[i][0], depth: item.depth + 1 });
      const key = children[i][2];
      if (key !== undefined && (keys === "all" || isTypedValue(key))) {
        stack.push({ value: key, path: children[i][0], depth: item.depth + 1, key: true });
      }
    }
  }
  return leaves;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return undefined;
}

/** The children of an object or array: path, value, and for an object's entry its key. */
function entries(value: object, path: string): Array<[string, unknown, string?]> {
  if (Array.isArray(value)) return value.map((item, i) => [`${path}[${i}]`, item]);
  return Object.keys(value).map((key) => [path ? `${path}.${key}` : key, (value as Record<string, unknown>)[key], key]);
}

/** Whether a key holds a typed value other than a bare number: an address, a link, a phone number, an account. */
function isTypedValue(key: string): boolean {
  const type = key.length > 2 ? canonicalEntity(key)?.type : undefined;
  return type !== undefined && type !== "number";
}

function subtreeText(root: object, seen: Set<object>, keys: KeyLeaves): string {
  const texts: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    const text = scalarText(value);
    if (text !== undefined) texts.push(text);
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const children = entries(value, "");
    for (let i = children.length - 1; i >= 0; i--) {
      stack.push(children[i][1]);
      const key = children[i][2];
      if (key !== undefined && (keys === "all" || isTypedValue(key))) stack.push(key);
    }
  }
  return texts.join("\n");
}
