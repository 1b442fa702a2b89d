/**
 * The `pab serve` HTTP JSON API as a fetch handler: admission (a bound on
 * requests in flight), the server token, the checks that keep web pages out,
 * bounded body reads, the routes, and coded JSON errors. Nothing a request
 * sends makes it throw.
 *
 * @module
 */
import { type RequestHead, type RouteRequest, routeRequest } from "./api_routes.ts";
import { errorAnswer, jsonAnswer } from "./error_answer.ts";
import { heapWatch } from "./heap_watch.ts";
import { BodyDeadlines } from "./body_deadlines.ts";
import { readJsonBody } from "./read_body.ts";
import { RequestError } from "./request_error.ts";
import { sameText } from "./session_credential.ts";
import { textDigest } from "./text_digest.ts";
import type { SessionHost } from "./session_host.ts";
import { probeStore } from "./session_lifecycle.ts";
import { ANY_LOOPBACK, checkWebRequest, type HostNames } from "./web_checks.ts";

/** Options of {@linkcode apiHandler}. */
export interface ApiOptions {
  /** pab's version, for `/v1/health`. */
  readonly version: string;
  /** When set, every request must carry `Authorization: Bearer TOKEN`. */
  readonly token?: string;
  /** The largest request body in bytes (default 256 KiB). */
  readonly maxBody?: number;
  /** More POST endpoints by path, such as `/v1/hooks/claude-code`: each gets the JSON body and answers JSON. */
  readonly routes?: Readonly<Record<string, (body: unknown) => Promise<unknown>>>;
  /**
   * The `Host` values accepted, each `name:port` (see `listenedHosts`); the
   * default is any loopback name on any port. `startServer` passes the names
   * and port it listens on.
   */
  readonly hosts?: HostNames | (() => HostNames);
  /** Aborts body reads in flight (the server is stopping). */
  readonly signal?: AbortSignal;
  /**
   * Requests come from `Deno.serve`, whose HTTP framing holds each body to its
   * declared length (see `BodyBounds.framed`); `startServer` sets it.
   */
  readonly framed?: boolean;
}

/** The default request body limit: 256 KiB. */
export const DEFAULT_MAX_BODY = 256 * 1024;

/** Milliseconds the health probe waits for the store. */
const HEALTH_DEADLINE_MS = 2000;

/**
 * Make the API's request handler.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { apiHandler } from "./http_api.ts";
 * import { SessionHost } from "./session_host.ts";
 * const host = new SessionHost(parsePolicy("version: 1\ntools: {}\n", { source: "p.yaml" }), await openStore());
 * const handle = apiHandler(host, { version: "0.1.0" });
 * const response = await handle(new Request("http://localhost/v1/health"));
 * assert.deepEqual(await response.json(), { ok: true, version: "0.1.0", store: "memory" });
 * host.store.close();
 * ```
 */
export function apiHandler(host: SessionHost, options: ApiOptions): (request: Request) => Promise<Response> {
  const limit = options.maxBody ?? DEFAULT_MAX_BODY;
  const admit = admission(options);
  const route = apiRoutes(host, options);
  const deadlines = new BodyDeadlines(host.limits.bodySeconds * 1000, options.signal);
  const bounds = { limit, deadlines, framed: options.framed === true };
  let inFlight = 0;
  return async (request) => {
    if (inFlight >= host.limits.maxInFlight) {
      return errorAnswer(
        new RequestError("ERR_OVERLOADED", `Cannot serve the request now: ${inFlight} are in flight; retry later`),
      );
    }
    inFlight++;
    try {
      admit(request);
      const path = new URL(request.url).pathname;
      const body = () => readJsonBody(request, bounds);
      const [status, answer] = await route({ request, path, body });
      return jsonAnswer(status, answer);
    } catch (error) {
      return errorAnswer(error);
    } finally {
      inFlight--;
    }
  };
}

/**
 * The checks every request passes before anything else: the server's token
 * (401 `ERR_UNAUTHORIZED`) and the checks that keep web pages out (403, 415).
 * Throws the coded error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { admission } from "./http_api.ts";
 * const admit = admission({ token: "a-token-of-16-chars" });
 * assert.throws(() => admit(new Request("http://localhost:4517/v1/health")), { code: "ERR_UNAUTHORIZED" });
 * admit(new Request("http://localhost:4517/v1/health", { headers: { authorization: "Bearer a-token-of-16-chars" } }));
 * ```
 */
export function admission(options: Pick<ApiOptions, "token" | "hosts">): (request: Request) => void {
  const token = options.token === undefined ? undefined : textDigest(`Bearer ${options.token}`);
  const given = options.hosts ?? ANY_LOOPBACK;
  const hosts = typeof given === "function" ? given : () => given;
  return (request) => {
    if (token !== undefined && !sameText(textDigest(bearer(request.headers.get("authorization"))), token)) {
      throw new RequestError("ERR_UNAUTHORIZED", "Cannot serve the request: send Authorization: Bearer TOKEN");
    }
    checkWebRequest(request, hosts(), request.method === "POST");
  };
}

/** An Authorization header with its scheme spelled `Bearer` (a scheme's case does not matter, RFC 9110). */
function bearer(header: string | null): string {
  if (header === null) return "";
  return /^bearer /i.test(header) ? `Bearer ${header.slice(7)}` : header;
}

/**
 * Serve a request that passed {@linkcode admission}: the extra routes,
 * `/v1/health` and the session routes; `[status, JSON body]`, or a thrown
 * coded error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { apiRoutes } from "./http_api.ts";
 * import { SessionHost } from "./session_host.ts";
 * const host = new SessionHost(parsePolicy("version: 1\ntools: {}\n", { source: "p.yaml" }), await openStore());
 * const route = apiRoutes(host, { version: "0.1.0" });
 * const request = { method: "GET", headers: new Headers() };
 * const [status] = await route({ request, path: "/v1/health", body: () => Promise.resolve({}) });
 * assert.equal(status, 200);
 * host.store.close();
 * ```
 */
export function apiRoutes(
  host: SessionHost,
  options: Pick<ApiOptions, "routes" | "version">,
): (route: RouteRequest) => Promise<[number, unknown]> {
  const heap = heapWatch();
  return async (route) => {
    const { request, path } = route;
    // A POST adds to the heap (an in-memory store keeps every session's inputs and chain there) and an audit read
    // copies a chain: refused while the heap is nearly full, before it ends the process; deletes go on and free room.
    if (request.method !== "DELETE" && path !== "/v1/health" && heap.tight()) {
      throw new RequestError(
        "ERR_OVERLOADED",
        `Cannot take more now: the heap is ${
          Math.round(heap.used * 100)
        }% full (an in-memory store keeps every live session's inputs and audit chain in it); delete sessions you are done with, retry later, or run pab serve on a KV store`,
      );
    }
    const extra = options.routes && Object.hasOwn(options.routes, path) ? options.routes[path] : undefined;
    if (extra) {
      if (request.method !== "POST") {
        throw new RequestError("ERR_METHOD", `Cannot ${request.method} ${path}: use POST`);
      }
      return [200, await extra(await route.body())];
    }
    if (path === "/v1/health") return await health(host, request, options.version);
    return await routeRequest(host, route);
  };
}

/** `/v1/health`: 200 when the store answers a read in time, else 503 with the store's code. */
async function health(host: SessionHost, request: RequestHead, version: string): Promise<[number, unknown]> {
  if (request.method !== "GET") throw new RequestError("ERR_METHOD", "Cannot use /v1/health: use GET");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new RequestError(
            "ERR_STORE_UNAVAILABLE",
            `Cannot reach the store (${host.store.description}): it did not answer within ${HEALTH_DEADLINE_MS} ms`,
          ),
        ),
      HEALTH_DEADLINE_MS,
    );
  });
  try {
    await Promise.race([probeStore(host.store), late]);
  } finally {
    clearTimeout(timer);
  }
  return [200, { ok: true, version, store: host.store.description }];
}
