/**
 * Which worker thread serves a session: each session lives in one worker (its
 * guard, its lock, and with an in-memory store its data), chosen by a hash of
 * its id, so that every request on it, from any connection, reaches the same
 * thread; a worker makes new sessions only with ids routed to itself, so a
 * client that keeps the connection it made a session on talks to the owner.
 *
 * @module
 */
import { parseJsonBytes } from "./read_body.ts";
import { randomHex } from "./random_hex.ts";
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
 * `count`: random ids drawn until one is (`count` draws on average). Each is
 * uniformly random among the ids routed to that worker, so keeping only those
 * costs at most log2(`count`) bits and tells nothing but the worker, which
 * anyone can compute from the id anyway; with more than one worker the ids
 * are longer (`s_` and 32 hex digits, 128 bits drawn) so that at least 96
 * random bits remain for up to 2^32 workers. One worker keeps the default ids
 * (`s_` and 24 hex digits).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownedSessionIds, workerOf } from "./worker_route.ts";
 * const next = ownedSessionIds(2, 3);
 * const id = next();
 * assert.equal(workerOf(id, 3), 2);
 * assert.match(id, /^s_[0-9a-f]{32}$/);
 * ```
 */
export function ownedSessionIds(index: number, count: number): () => string {
  if (count === 1) return randomSessionId;
  return () => {
    while (true) {
      const id = `s_${randomHex(OWNED_ID_BYTES)}`;
      if (workerOf(id, count) === index) return id;
    }
  };
}

/** Random bytes in a session id a worker of several makes: 128 bits, of which log2(workers) go to routing. */
const OWNED_ID_BYTES = 16;

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

/** POST endpoints whose body names a session key, by path: the key routes the request. */
export type RouteKeys = Readonly<Record<string, (body: unknown) => string | undefined>>;

/**
 * The session key a request is routed by: the session its path names, else,
 * for a POST body, the session a new one shares a ledger with, or the key a
 * `routeKeys` endpoint reads from its body; `undefined` when none (any worker
 * may serve it). A body that is not JSON names none (the worker that serves
 * it answers its fault).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { routeKeyOf } from "./worker_route.ts";
 * const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
 * assert.equal(routeKeyOf("/v1/sessions/s_1/decide", null), "s_1");
 * assert.equal(routeKeyOf("/v1/sessions", json({ ledger: "s_2" })), "s_2");
 * assert.equal(routeKeyOf("/v1/sessions", json({})), undefined);
 * assert.equal(routeKeyOf("/hook", json({ id: "a" }), { "/hook": (body) => (body as { id: string }).id }), "a");
 * ```
 */
export function routeKeyOf(path: string, body: Uint8Array | null, routeKeys?: RouteKeys): string | undefined {
  const named = sessionOfPath(path);
  if (named !== undefined) return named;
  const keyOf = path === "/v1/sessions"
    ? (value: unknown) => (value as { ledger?: unknown } | null)?.ledger
    : routeKeys && Object.hasOwn(routeKeys, path)
    ? routeKeys[path]
    : undefined;
  if (!keyOf || body === null || body.byteLength === 0) return undefined;
  try {
    const key = keyOf(parseJsonBytes(body));
    return typeof key === "string" ? key : undefined;
  } catch {
    // The worker that serves it answers the body's faults.
    return undefined;
  }
}
