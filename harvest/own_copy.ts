/**
 * Copies that let go of the text they were cut from.
 *
 * A JavaScript engine may keep a piece cut out of a string (`slice`,
 * `substring`, a regular-expression match) as a view into the whole string:
 * V8 does so for pieces of 13 characters or more. A table that keeps such a
 * piece keeps the whole text alive with it: one long token interned from a
 * 10 MB tool output would hold all 10 MB for as long as the guard lives. So
 * whatever a table or cache keeps is copied first.
 *
 * @module
 */

/** Shorter pieces are always copied by the engine itself. */
const VIEW_MIN_LENGTH = 13;

/**
 * `text`, as a string that refers to no larger string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownCopy } from "./own_copy.ts";
 * const whole = "x".repeat(100_000) + "international";
 * assert.equal(ownCopy(whole.slice(100_000)), "international");
 * assert.equal(ownCopy("short"), "short");
 * ```
 */
export function ownCopy(text: string): string {
  // Joining makes a new string holding the characters; cutting the joined one keeps at most one extra character.
  return text.length < VIEW_MIN_LENGTH ? text : `${text} `.slice(0, -1);
}
