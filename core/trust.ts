/**
 * Trust levels, ordered from least to most trusted.
 *
 * @module
 */

/**
 * How far pab believes (and lets the agent obey) a piece of data.
 *
 * - `suspicious`: came from somewhere nobody controls (a web page, an e-mail).
 * - `attested`: passed a strict shape check, but nobody vouched for it.
 * - `trusted`: came from the user, the system prompt, or a tool the policy trusts.
 */
export type Trust = "suspicious" | "attested" | "trusted";

/** Every trust level, from the lowest to the highest. */
export const TRUST_LEVELS: readonly Trust[] = Object.freeze([
  "suspicious",
  "attested",
  "trusted",
]);

/**
 * The position of a trust level in the order `suspicious < attested < trusted`.
 *
 * @example Compare two levels
 * ```ts
 * import assert from "node:assert/strict";
 * import { trustRank } from "./trust.ts";
 * assert.deepEqual(trustRank("attested") > trustRank("suspicious"), true);
 * ```
 */
export function trustRank(trust: Trust): number {
  const rank = TRUST_LEVELS.indexOf(trust);
  if (rank < 0) throw new TypeError(`Cannot rank trust "${String(trust)}": expected one of ${TRUST_LEVELS.join(", ")}`);
  return rank;
}

/**
 * The lower of two trust levels.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lowerTrust } from "./trust.ts";
 * assert.deepEqual(lowerTrust("trusted", "suspicious"), "suspicious");
 * ```
 */
export function lowerTrust(a: Trust, b: Trust): Trust {
  return trustRank(a) <= trustRank(b) ? a : b;
}

/** Whether `value` is one of the trust levels. */
export function isTrust(value: unknown): value is Trust {
  return typeof value === "string" && (TRUST_LEVELS as readonly string[]).includes(value);
}
