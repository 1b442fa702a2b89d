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
  return JSON.stringify(sortKeys(value, new Set()));
}

function sortKeys(value: unknown, seen: Set<unknown>): unknown {
  if (value === null || typeof value !== "object") {
    if (typeof value === "bigint") return value.toString();
    if (typeof value === "number" && !Number.isFinite(value)) return String(value);
    return value;
  }
  if (seen.has(value)) throw new TypeError("Cannot serialise a value that contains itself");
  if (!Array.isArray(value) && !isPlainObject(value)) {
    // A Date, Map, Set, boxed primitive or class instance has no faithful JSON form:
    // serialising its own keys would give distinct values the same text.
    throw new TypeError(
      `Cannot serialise a ${value.constructor?.name ?? "non-plain"} object: expected plain JSON data`,
    );
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sortKeys(item === undefined ? null : item, seen));
    // No prototype: a key named "__proto__" stays an ordinary key instead of vanishing into a setter.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined && typeof item !== "function") sorted[key] = sortKeys(item, seen);
    }
    return sorted;
  } finally {
    seen.delete(value);
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
