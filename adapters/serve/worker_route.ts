/**
 * Which worker thread serves a session: each session lives in one worker (its
 * guard, its lock, and with an in-memory store its data), chosen by a hash of
 * its id, so that every request on it, from any connection, reaches the same
 * thread; a worker makes new sessions only with ids routed to itself.
 *
 * @module
 */
import { randomSessionId } from "./session_lifecycle.ts";

/**
 * The worker (of `count`) that serves `key`, a session id: FNV-1a of its
 * UTF-16 code units, modulo `count`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workerOf } from "./worker_route.ts";
 * assert.equal(workerOf("s_1", 1), 0);
 * assert.equal(workerOf("s_1", 4), workerOf("s_1", 4));
 * assert.ok(workerOf("s_1", 4) < 4);
 * ```
 */
export function workerOf(key: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}

/**
 * New session ids that {@linkcode workerOf} routes to worker `index` of
 * `count` (random ids drawn until one is: `count` draws on average).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownedSessionIds, workerOf } from "./worker_route.ts";
 * const next = ownedSessionIds(2, 3);
 * assert.equal(workerOf(next(), 3), 2);
 * ```
 */
export function ownedSessionIds(index: number, count: number): () => string {
  return () => {
    while (true) {
      const id = randomSessionId();
      if (workerOf(id, count) === index) return id;
    }
  };
}

const SESSIONS = "/v1/sessions/";

/**
 * The session a path names (`/v1/sessions/ID` and `/v1/sessions/ID/ACTION`),
 * if any: the key a request is routed by.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sessionOfPath } from "./worker_route.ts";
 * assert.equal(sessionOfPath("/v1/sessions/s_1/decide"), "s_1");
 * assert.equal(sessionOfPath("/v1/sessions/s_1"), "s_1");
 * assert.equal(sessionOfPath("/v1/sessions"), undefined);
 * ```
 */
export function sessionOfPath(path: string): string | undefined {
  if (!path.startsWith(SESSIONS)) return undefined;
  const end = path.indexOf("/", SESSIONS.length);
  const id = path.slice(SESSIONS.length, end === -1 ? undefined : end);
  return id === "" ? undefined : id;
}
