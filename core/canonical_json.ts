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
  return jsonText(value, []) as string;
}

/**
 * The canonical text of `value` (`undefined` for what an object leaves out: `undefined`, a function, a symbol), in
 * one walk that copies, freezes and names nothing, reading each property once, in `Object.keys` order; `ancestors`
 * are the objects it is inside. A `bigint` or a non-finite number is its text in quotes; `undefined` and holes in
 * arrays are `null`. On a throw `ancestors` is left as it was at the throw (a walk makes its own).
 */
export function jsonText(value: unknown, ancestors: Ancestors): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      // JSON.stringify writes a finite number as String() does (-0 as 0).
      return Number.isFinite(value) ? String(value) : `"${value}"`;
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return `"${value}"`;
    case "object":
      if (value !== null) break;
      return "null";
    default:
      return undefined;
  }
  const isArray = refusePlain(value, ancestors);
  // The first levels in a list (searched faster than a Set at the depths plain data has), deeper ones in a Set: a
  // deep value costs no more than 32 comparisons per object.
  const inner = !Array.isArray(ancestors) || ancestors.length < 32 ? ancestors : new Set(ancestors);
  if (Array.isArray(inner)) inner.push(value);
  else inner.add(value);
  let json = "[";
  if (isArray) {
    for (let i = 0, length = (value as unknown[]).length; i < length; i++) {
      const item = (value as unknown[])[i];
      if (i) json += ",";
      json += item === undefined ? "null" : jsonText(item, inner) ?? "null";
    }
    json += "]";
  } else {
    const keys = Object.keys(value);
    const texts: (string | undefined)[] = [];
    for (let i = 0; i < keys.length; i++) texts.push(jsonText((value as Record<string, unknown>)[keys[i]], inner));
    json = recordText(keys, texts);
  }
  if (Array.isArray(inner)) inner.pop();
  else inner.delete(value);
  return json;
}

/** The objects a walk is inside: a list, or a Set for a deep walk. */
export type Ancestors = object[] | Set<object>;

/**
 * Whether `value` is an array; throws `TypeError` if it is among `ancestors` (a value that contains itself) or is an
 * object whose prototype is neither `Object.prototype` nor `null` (a `Date`, `Map`, boxed primitive, class instance).
 */
export function refusePlain(value: object, ancestors: Ancestors): boolean {
  if (Array.isArray(ancestors) ? ancestors.includes(value) : ancestors.has(value)) {
    throw new TypeError("Cannot serialise a value that contains itself");
  }
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    let name = "non-plain";
    try {
      name = String((value as { constructor?: { name?: unknown } }).constructor?.name ?? name);
    } catch { /* a throwing getter: the generic name */ }
    throw new TypeError(`Cannot serialise a ${name} object: expected plain JSON data`);
  }
  return false;
}

/**
 * An object's text from its keys and their values' texts (`undefined` ones left out), in the order `JSON.stringify`
 * lists an object whose keys were added in sorted order: array-index keys first, in numeric order, then the others
 * sorted by UTF-16 code units.
 */
export function recordText(keys: readonly string[], texts: readonly (string | undefined)[]): string {
  // Array-index keys first, in numeric order; then the others by code units.
  const indices = keys.some((key) => (key.charCodeAt(0) ^ 48) < 10) ? keys.map(arrayIndex) : undefined;
  const order: number[] = [];
  for (let i = 0; i < keys.length; i++) order.push(i);
  order.sort((a, b) =>
    (indices && (+(indices[a] < 0) - +(indices[b] < 0) || indices[a] - indices[b])) ||
    (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0)
  );
  let json = "{";
  for (let k = 0; k < keys.length; k++) {
    const i = order[k];
    if (texts[i] === undefined) continue;
    if (json.length > 1) json += ",";
    json += JSON.stringify(keys[i]) + ":" + texts[i];
  }
  return json + "}";
}

/** The key as an array index (a canonical whole number below 2^32 - 1), or -1. */
function arrayIndex(key: string): number {
  return /^(0|[1-9]\d{0,9})$/.test(key) && +key < 4294967295 ? +key : -1;
}
