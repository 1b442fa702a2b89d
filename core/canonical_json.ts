/**
 * Canonical JSON: object keys sorted at every depth, no insignificant space.
 *
 * @module
 */

/**
 * Serialise a JSON value with sorted keys, so equal values give equal text.
 * Throws `TypeError` on a value that contains itself or on an object that is
 * not plain data (a `Date`, `Map`, class instance...), which would otherwise
 * serialise to the same text as other values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { canonicalJson } from "./canonical_json.ts";
 * assert.deepEqual(canonicalJson({ b: 1, a: [true, null] }), '{"a":[true,null],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  // Written in one walk, without a sorted copy of every object: the same text as `JSON.stringify` of such a copy
  // (tests/canonical_json_test.ts checks it against that definition).
  return write(value, new Set()) as string;
}

/** The JSON of `value`, or undefined for what JSON leaves out (undefined, a function, a symbol). */
function write(value: unknown, seen: Set<unknown>): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return JSON.stringify(Number.isFinite(value) ? value : String(value));
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return JSON.stringify(value.toString());
    case "object":
      if (value === null) return "null";
      break;
    default:
      return undefined;
  }
  if (seen.has(value)) throw new TypeError("Cannot serialise a value that contains itself");
  const array = Array.isArray(value);
  if (!array && !isPlainObject(value)) {
    // A Date, Map, Set, boxed primitive or class instance has no faithful JSON form:
    // serialising its own keys would give distinct values the same text.
    throw new TypeError(
      `Cannot serialise a ${value.constructor?.name ?? "non-plain"} object: expected plain JSON data`,
    );
  }
  seen.add(value);
  try {
    if (array) {
      let text = "[";
      for (let i = 0; i < value.length; i++) text += `${i ? "," : ""}${write(value[i], seen) ?? "null"}`;
      return `${text}]`;
    }
    let text = "";
    for (const key of keyOrder(Object.keys(value))) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined || typeof item === "function") continue;
      const json = write(item, seen);
      if (json !== undefined) text += `${text ? "," : ""}${JSON.stringify(key)}:${json}`;
    }
    return `{${text}}`;
  } finally {
    seen.delete(value);
  }
}

/**
 * Keys sorted, in the order an object made with them in that order lists them: array indices ("0" to "4294967294")
 * first, in numeric order, then the others as sorted. The canonical form has always been that order.
 */
function keyOrder(keys: string[]): string[] {
  keys.sort();
  let indices: string[] | undefined;
  for (const key of keys) if (isArrayIndex(key)) (indices ??= []).push(key);
  if (!indices) return keys;
  indices.sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((key) => !isArrayIndex(key))];
}

function isArrayIndex(key: string): boolean {
  if (key.length === 0 || key.length > 10) return false;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57 || (first === 48 && key.length > 1)) return false;
  for (let i = 1; i < key.length; i++) {
    const code = key.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return Number(key) <= 4294967294;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
