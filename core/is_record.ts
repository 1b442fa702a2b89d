/**
 * The check that a parsed JSON value is an object with keys.
 *
 * @module
 */

/**
 * Whether `value` is a plain object to read keys from: not `null`, not an array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRecord } from "./is_record.ts";
 * assert.equal(isRecord({ a: 1 }), true);
 * assert.equal(isRecord([1]), false);
 * assert.equal(isRecord(null), false);
 * assert.equal(isRecord("a"), false);
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
