/**
 * The `pab serve` HTTP JSON API as a fetch handler: routes, checks, and coded
 * JSON errors. Nothing a request sends makes it throw.
 *
 * @module
 */
import { PabError, sha256Hex } from "../../core/mod.ts";
import { explainDecision, type ReserveResult } from "../../guard/mod.ts";
import { StoreError } from "../store/mod.ts";
import { BodyFields } from "./body_fields.ts";
import { readJsonBody } from "./read_body.ts";
import { RequestError } from "./request_error.ts";
import type { SessionHost } from "./session_host.ts";

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
}

/** The default request body limit: 256 KiB. */
export const DEFAULT_MAX_BODY = 256 * 1024;

const SESSION_PATH = /^\/v1\/sessions\/([A-Za-z0-9_.:-]{1,200})\/([a-z]+)$/;

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
 * assert.deepEqual(await response.json(), { ok: true, version: "0.1.0" });
 * host.store.close();
 * ```
 */
export function apiHandler(host: SessionHost, options: ApiOptions): (request: Request) => Promise<Response> {
  const limit = options.maxBody ?? DEFAULT_MAX_BODY;
  const token = options.token === undefined ? undefined : sha256Hex(`Bearer ${options.token}`);
  return async (request) => {
    try {
      if (token !== undefined && !sameHash(sha256Hex(request.headers.get("authorization") ?? ""), token)) {
        throw new RequestError(401, "ERR_UNAUTHORIZED", "Cannot serve the request: send Authorization: Bearer TOKEN");
      }
      const path = new URL(request.url).pathname;
      const extra = options.routes && Object.hasOwn(options.routes, path) ? options.routes[path] : undefined;
      if (extra) {
        only(request, "POST");
        return json(200, await extra(await readJsonBody(request, limit)));
      }
      const [status, body] = await route(host, request, limit, options.version);
      return json(status, body);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

async function route(
  host: SessionHost,
  request: Request,
  limit: number,
  version: string,
): Promise<[number, unknown]> {
  const path = new URL(request.url).pathname;
  if (path === "/v1/health") {
    only(request, "GET");
    return [200, { ok: true, version }];
  }
  if (path === "/v1/sessions") {
    only(request, "POST");
    const body = new BodyFields(await readJsonBody(request, limit), "new session", ["ledger"]);
    const ledger = body.optionalString("ledger");
    return [201, { session: await host.create(ledger ? { ledger } : {}) }];
  }
  const match = SESSION_PATH.exec(path);
  if (!match) throw notFound(path);
  const [, id, action] = match;
  if (action === "audit") {
    only(request, "GET");
    return [200, { events: await host.audit(id) }];
  }
  only(request, "POST");
  const raw = await readJsonBody(request, limit);
  switch (action) {
    case "messages": {
      const body = new BodyFields(raw, "messages", ["role", "content"]);
      const role = body.text("role");
      if (role !== "system" && role !== "user") {
        throw new RequestError(
          400,
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
        throw new RequestError(400, "ERR_REQUEST_INVALID", 'Cannot read the results request: give "output" or "error"');
      }
      body.optionalString("callId");
      const error = body.optionalString("error");
      await host.result(id, {
        tool: body.text("tool"),
        args: body.args(true),
        output: body.value("output"),
        ...(error !== undefined ? { error } : {}),
      });
      return [200, { ok: true }];
    }
    case "decide": {
      const body = new BodyFields(raw, "decide", ["tool", "args"]);
      const decision = await host.decide(id, { tool: body.text("tool"), args: body.args() });
      return [200, { decision, explanation: explainDecision(decision) }];
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
      await host.commit(id, {
        reservation: body.text("reservation"),
        output: body.value("output"),
        ...(error !== undefined ? { error } : {}),
      });
      return [200, { ok: true }];
    }
    case "rulings": {
      const body = new BodyFields(raw, "rulings", ["approver", "tool", "args"]);
      const ruling = await host.ruling(id, {
        approver: body.text("approver"),
        tool: body.text("tool"),
        args: body.args(),
      });
      return [200, { ruling }];
    }
    case "plan": {
      const body = new BodyFields(raw, "plan", ["tool", "args"]);
      return [200, { recovery: await host.plan(id, { tool: body.text("tool"), args: body.args() }) }];
    }
    default:
      throw notFound(path);
  }
}

function proposal(result: ReserveResult): Record<string, unknown> {
  const base = { status: result.status, decision: result.decision, explanation: explainDecision(result.decision) };
  if (result.status === "reserved") return { ...base, reservation: result.reservation };
  if (result.status === "needs_accept") return { ...base, options: result.options };
  return base;
}

function only(request: Request, method: string): void {
  if (request.method !== method) {
    throw new RequestError(
      405,
      "ERR_METHOD",
      `Cannot ${request.method} ${new URL(request.url).pathname}: use ${method}`,
    );
  }
}

function notFound(path: string): RequestError {
  return new RequestError(404, "ERR_NOT_FOUND", `Cannot find ${JSON.stringify(path.slice(0, 200))}: no such endpoint`);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function errorResponse(error: unknown): Response {
  const [status, code, message] = error instanceof RequestError
    ? [error.status, error.code, error.message]
    : error instanceof PabError && error.code === "ERR_RULING_REFUSED"
    ? [409, error.code, error.message]
    : error instanceof StoreError
    ? [503, error.code, error.message]
    : error instanceof PabError
    ? [400, error.code, error.message]
    : error instanceof TypeError
    ? [400, "ERR_REQUEST_INVALID", error.message]
    : [500, "ERR_INTERNAL", `pab failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`];
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function sameHash(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
