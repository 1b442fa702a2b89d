/**
 * The `pab serve` endpoints: which path and method do what with a session,
 * once the request has passed the server's checks. Every call on a session
 * needs the session's token.
 *
 * @module
 */
import { explainDecision, ReservationError, type ReserveResult } from "../../guard/mod.ts";
import { BodyFields } from "./body_fields.ts";
import { UNRECORDED_TOOL } from "./hosted_session.ts";
import { RequestError } from "./request_error.ts";
import { mintCredential, SESSION_TOKEN_HEADER } from "./session_credential.ts";
import type { SessionHost } from "./session_host.ts";
import { unknownSession } from "./session_lifecycle.ts";
import { shownDigest } from "./session_rulings.ts";

const SESSION_PATH = /^\/v1\/sessions\/([A-Za-z0-9_.:-]{1,200})(?:\/([a-z]+))?$/;

/** A session id as a path may name one; an id in a body (`ledger`) is held to it too. */
const SESSION_ID = /^[A-Za-z0-9_.:-]{1,200}$/;

/** The longest reservation id the API hands out or looks up (it makes `r_` and 24 hex digits). */
const MAX_RESERVATION_ID = 200;

/** What the routes read of a request's head: its method and headers (a `Request` is one). */
export interface RequestHead {
  /** The method. */
  readonly method: string;
  /** Its headers. */
  readonly headers: { get(name: string): string | null };
}

/** What a route is given: the request's head, its path, and its body read on demand. */
export interface RouteRequest {
  /** The request (its head). */
  readonly request: RequestHead;
  /** Its path. */
  readonly path: string;
  /** Read its JSON body (within the server's bounds). */
  body(): Promise<unknown>;
}

/**
 * Serve one request on `host`: `[status, JSON body]`, or a thrown coded error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { routeRequest } from "./api_routes.ts";
 * import { SessionHost } from "./session_host.ts";
 * const host = new SessionHost(parsePolicy("version: 1\ntools: {}\n", { source: "p.yaml" }), await openStore());
 * const request = new Request("http://localhost/v1/sessions", { method: "POST" });
 * const [status, body] = await routeRequest(host, { request, path: "/v1/sessions", body: () => Promise.resolve({}) });
 * assert.equal(status, 201);
 * assert.match((body as { token: string }).token, /^pst_/);
 * host.store.close();
 * ```
 */
export async function routeRequest(host: SessionHost, route: RouteRequest): Promise<[number, unknown]> {
  const { request, path } = route;
  if (path === "/v1/sessions") {
    only(request, path, "POST");
    const body = new BodyFields(await route.body(), "new session", ["ledger"]);
    const shared = body.optionalString("ledger");
    // Sharing a ledger is joining another session's effects: only its holder may.
    // An id no session can have is unknown before the store is asked (a KV key has a size limit; memory has none).
    if (shared !== undefined && !SESSION_ID.test(shared)) throw unknownSession(shared.slice(0, 200));
    const ledger = shared === undefined ? undefined : await host.authorize(shared, tokenOf(request));
    const { token, digest } = mintCredential();
    const session = await host.create({ credential: digest, ...(ledger ? { ledger } : {}) });
    return [201, { session, token }];
  }
  const match = SESSION_PATH.exec(path);
  if (!match) throw notFound(path);
  const [, id, action] = match;
  if (action === undefined) {
    only(request, path, "DELETE");
    await host.authorize(id, tokenOf(request));
    await host.delete(id);
    return [200, { ok: true }];
  }
  if (!ACTIONS.has(action)) throw notFound(path);
  only(request, path, action === "audit" ? "GET" : "POST");
  await host.authorize(id, tokenOf(request));
  if (action === "audit") return [200, { events: await host.audit(id) }];
  if (action !== "results" && action !== "commit") return await act(host, id, action, await route.body());
  try {
    return await act(host, id, action, await route.body());
  } catch (error) {
    // A tool output pab could not take leaves the session knowing less than the agent, which may act on it: the
    // session records, once, that it read one it could not keep (see `refuseUnrecordedOutput`): stricter, never laxer.
    if (error instanceof RequestError && LOST_OUTPUT.has(error.code)) {
      await host.result(id, { tool: UNRECORDED_TOOL, args: {}, output: "" }).catch(() => {});
    }
    throw error;
  }
}

/** Refusals of a `results` or `commit` request that leave its output unrecorded (a full session records its own). */
const LOST_OUTPUT: ReadonlySet<string> = new Set([
  "ERR_REQUEST_TOO_LARGE",
  "ERR_REQUEST_TOO_DEEP",
  "ERR_REQUEST_JSON",
  "ERR_REQUEST_BODY",
  "ERR_REQUEST_TIMEOUT",
  "ERR_REQUEST_INVALID",
]);

const ACTIONS = new Set(["audit", "messages", "results", "decide", "propose", "commit", "rulings", "plan"]);

async function act(host: SessionHost, id: string, action: string, raw: unknown): Promise<[number, unknown]> {
  switch (action) {
    case "messages": {
      const body = new BodyFields(raw, "messages", ["role", "content"]);
      const role = body.text("role");
      if (role !== "system" && role !== "user") {
        throw new RequestError(
          "ERR_REQUEST_INVALID",
          `Cannot read the messages request: "role" must be "system" or "user", not ${JSON.stringify(role)}`,
        );
      }
      await host.message(id, role, body.string("content"));
      return [200, { ok: true }];
    }
    case "results": {
      const body = new BodyFields(raw, "results", ["tool", "args", "output", "callId", "error"]);
      if (!body.has("output") && !body.has("error")) {
        throw new RequestError("ERR_REQUEST_INVALID", 'Cannot read the results request: give "output" or "error"');
      }
      body.optionalString("callId");
      const error = body.optionalString("error");
      await host.result(id, {
        tool: body.text("tool"),
        // What ran is recorded as read: refusing it for an inexact number would leave the session knowing less.
        args: body.args(true, false),
        output: body.value("output"),
        ...(error !== undefined ? { error } : {}),
      });
      return [200, { ok: true }];
    }
    case "decide": {
      const body = new BodyFields(raw, "decide", ["tool", "args"]);
      const decision = await host.decide(id, { tool: body.text("tool"), args: body.args() });
      return [200, { decision, explanation: explainDecision(decision), shown: shownDigest(decision) }];
    }
    case "propose": {
      const body = new BodyFields(raw, "propose", ["tool", "args", "accept", "rulings"]);
      const result = await host.propose(id, {
        tool: body.text("tool"),
        args: body.args(),
        accept: body.flag("accept"),
        rulings: body.strings("rulings"),
      });
      return [200, proposal(result)];
    }
    case "commit": {
      const body = new BodyFields(raw, "commit", ["reservation", "output", "error"]);
      const error = body.optionalString("error");
      const reservation = body.text("reservation");
      if (reservation.length > MAX_RESERVATION_ID) {
        throw new ReservationError(
          `Cannot finish reservation "${reservation.slice(0, 40)}...": session "${id}" holds no such open reservation`,
        );
      }
      await host.commit(id, {
        reservation,
        output: body.value("output"),
        ...(error !== undefined ? { error } : {}),
      });
      return [200, { ok: true }];
    }
    case "rulings": {
      const body = new BodyFields(raw, "rulings", ["approver", "tool", "args", "shown"]);
      const shown = body.optionalString("shown");
      const ruling = await host.ruling(id, {
        approver: body.text("approver"),
        tool: body.text("tool"),
        args: body.args(),
        ...(shown !== undefined ? { shown } : {}),
      });
      return [200, { ruling }];
    }
    default: {
      const body = new BodyFields(raw, "plan", ["tool", "args"]);
      return [200, { recovery: await host.plan(id, { tool: body.text("tool"), args: body.args() }) }];
    }
  }
}

function proposal(result: ReserveResult): Record<string, unknown> {
  const base = {
    status: result.status,
    decision: result.decision,
    explanation: explainDecision(result.decision),
    shown: shownDigest(result.decision),
  };
  if (result.status === "reserved") return { ...base, reservation: result.reservation };
  if (result.status === "needs_accept") return { ...base, options: result.options };
  return base;
}

function tokenOf(request: RequestHead): string | null {
  return request.headers.get(SESSION_TOKEN_HEADER);
}

/** Throw 405 `ERR_METHOD` unless the request (on `path`) uses `method`. */
function only(request: RequestHead, path: string, method: string): void {
  if (request.method !== method) {
    throw new RequestError("ERR_METHOD", `Cannot ${request.method} ${path}: use ${method}`);
  }
}

function notFound(path: string): RequestError {
  return new RequestError("ERR_NOT_FOUND", `Cannot find ${JSON.stringify(path.slice(0, 200))}: no such endpoint`);
}
