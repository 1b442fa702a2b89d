/**
 * A thrown value as text, for messages and records.
 *
 * @module
 */

/**
 * An error's message, or the thrown value as text (`"an unprintable error"`
 * when even that throws, as a value with a hostile `toString` may).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorText } from "./error_text.ts";
 * assert.equal(errorText(new RangeError("too far")), "too far");
 * assert.equal(errorText("plain"), "plain");
 * assert.equal(errorText({ toString() { throw new Error("no"); } }), "an unprintable error");
 * ```
 */
export function errorText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "an unprintable error";
  }
}
