/**
 * The bounds `pab serve` keeps: how many sessions live at once, how long an
 * idle one lives, how much text one session may record, how many requests and
 * connections are served at once, and how long a body may take to arrive.
 * Each bound answers a coded 4xx or 503 with a retry hint; none queues
 * without limit.
 *
 * @module
 */

/** The bounds of a `pab serve` host and server (every field optional; defaults in {@linkcode DEFAULT_LIMITS}). */
export interface ServeLimits {
  /** Sessions alive in this process at once; making one more answers 429 `ERR_SESSION_LIMIT`. */
  readonly maxSessions: number;
  /** Seconds a session may go unused before it expires (its recorded text is dropped; its audit chain stays). */
  readonly idleSeconds: number;
  /** Characters of text (messages and tool outputs, as JSON) one session may record; more answers 413 `ERR_SESSION_FULL`. */
  readonly sessionChars: number;
  /** Characters of recorded text the sessions held in memory may total; past it idle sessions leave memory (rebuilt from the store on use). */
  readonly memoryChars: number;
  /** Requests served at once; more answer 503 `ERR_OVERLOADED` with `Retry-After`. */
  readonly maxInFlight: number;
  /** Requests waiting on one session; more answer 429 `ERR_SESSION_BUSY` with `Retry-After`. */
  readonly sessionQueue: number;
  /** Client connections with a request in flight; more answer 503 `ERR_OVERLOADED` and close the connection. */
  readonly maxConnections: number;
  /** Seconds a request body may take to arrive; a slower one answers 408 `ERR_REQUEST_TIMEOUT`. */
  readonly bodySeconds: number;
}

/**
 * The default bounds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "./serve_limits.ts";
 * assert.equal(DEFAULT_LIMITS.maxSessions, 10_000);
 * ```
 */
export const DEFAULT_LIMITS: ServeLimits = Object.freeze({
  maxSessions: 10_000,
  idleSeconds: 3600,
  sessionChars: 16 * 1024 * 1024,
  memoryChars: 128 * 1024 * 1024,
  maxInFlight: 1024,
  sessionQueue: 1024,
  maxConnections: 1024,
  bodySeconds: 10,
});

/**
 * `given` over the defaults; throws `TypeError` at once for a bound that is
 * not a positive number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveLimits } from "./serve_limits.ts";
 * assert.equal(serveLimits({ maxSessions: 5 }).maxSessions, 5);
 * assert.throws(() => serveLimits({ idleSeconds: 0 }), TypeError);
 * ```
 */
export function serveLimits(given: Partial<ServeLimits> = {}): ServeLimits {
  const limits = { ...DEFAULT_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value)) {
      throw new TypeError(`Cannot use limit ${name}=${String(value)}: it must be a positive number`);
    }
  }
  return Object.freeze(limits);
}
