/**
 * Canonical JSON: object keys sorted at every depth, no insignificant space.
 *
 * @module
 */
import { CopyWalk } from "./canonical_copy.ts";

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
  // The walk that canonicalCopy makes, not strict: functions and symbols are left out as JSON.stringify leaves them out.
  const walk = new CopyWalk(false);
  walk.copy(value, 0, "");
  return walk.json as string;
}
