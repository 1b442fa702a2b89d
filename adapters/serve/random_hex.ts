/**
 * Random identifiers: sessions, reservations, rulings and copies of a session.
 *
 * @module
 */

/**
 * `bytes` random bytes as lowercase hex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomHex } from "./random_hex.ts";
 * assert.match(randomHex(4), /^[0-9a-f]{8}$/);
 * ```
 */
export function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
