/**
 * `pab serve`: pab's guard behind an HTTP JSON API on localhost, with each
 * session's state in a store (in memory, a Deno KV file, or a remote KV shared
 * by several servers) and every event in a tamper-evident audit chain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { SessionHost, startServer } from "./mod.ts";
 * const host = new SessionHost(parsePolicy("version: 1\ntools: {}\n", { source: "p.yaml" }), await openStore());
 * const server = startServer(host, { version: "0.1.0", port: 0 });
 * const json = { "content-type": "application/json" };
 * const created = await fetch(`${server.url}/v1/sessions`, { method: "POST", headers: json, body: "{}" });
 * assert.equal(created.status, 201);
 * const { session, token } = await created.json();
 * const said = await fetch(`${server.url}/v1/sessions/${session}/messages`, {
 *   method: "POST",
 *   headers: { ...json, "pab-session-token": token },
 *   body: JSON.stringify({ role: "user", content: "hello" }),
 * });
 * assert.equal(said.status, 200);
 * await said.body?.cancel();
 * await server.shutdown();
 * host.store.close();
 * ```
 *
 * @module
 */
export { apiHandler, type ApiOptions, DEFAULT_MAX_BODY } from "./http_api.ts";
export { type HeldRuling, HostedSession } from "./hosted_session.ts";
export {
  type AnswerCode,
  HTTP_STATUS,
  REQUEST_ERROR_CODES,
  RequestError,
  type RequestErrorCode,
} from "./request_error.ts";
export { SessionHost } from "./session_host.ts";
export type { CallRequest, SessionHostOptions } from "./session_host_options.ts";
export type { RulingInfo } from "./session_rulings.ts";
export { DEFAULT_LIMITS, type ServeLimits } from "./serve_limits.ts";
export { SESSION_TOKEN_HEADER } from "./session_credential.ts";
export { StoredSession } from "./stored_session.ts";
export { DEFAULT_PORT, isLoopback, type RunningServer, type ServerOptions, startServer } from "./start_server.ts";
export { startWorkerServer, type WorkerServerOptions } from "./worker_front.ts";
export { serveAsWorker, type WorkerService } from "./worker_serving.ts";
