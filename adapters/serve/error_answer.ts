/**
 * How `pab serve` answers an error: the HTTP status and retry hint for each
 * kind of error, in one table, and the `{"error": {"code", "message"}}` body.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";
import { StoreError } from "../store/mod.ts";
import { RequestError } from "./request_error.ts";

/** Seconds a client should wait before retrying a store fault or an overload. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The HTTP answer to `error`: a `RequestError` carries its status; a store
 * fault is 503 with its `ERR_STORE_*` code (`ERR_STORE_LIMIT`, a value too
 * large for the store, is the client's: 413); a ruling refused is 409; another
 * of pab's coded errors is 400, as is a `TypeError` (a value the guard
 * cannot take); anything else is 500 `ERR_INTERNAL`. A 429 or
 * 503 carries `Retry-After`: the store's own hint when it gives one (none
 * when it says only an operator can help), else one second.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreError } from "../store/mod.ts";
 * import { errorAnswer } from "./error_answer.ts";
 * const answer = errorAnswer(new StoreError("ERR_STORE_WRITE", "Cannot write: the disk is full"));
 * assert.equal(answer.status, 503);
 * assert.equal(answer.headers.get("retry-after"), "1");
 * assert.equal((await answer.json()).error.code, "ERR_STORE_WRITE");
 * ```
 */
export function errorAnswer(error: unknown, headers: Record<string, string> = {}): Response {
  const [status, code, message] = error instanceof RequestError
    ? [error.status, error.code, error.message]
    : error instanceof StoreError && error.code === "ERR_STORE_LIMIT"
    ? [413, error.code, error.message]
    : error instanceof StoreError
    ? [503, error.code, error.message]
    : error instanceof PabError && error.code === "ERR_RULING_REFUSED"
    ? [409, error.code, error.message]
    : error instanceof PabError
    ? [400, error.code, error.message]
    : error instanceof TypeError
    ? [400, "ERR_REQUEST_INVALID", error.message]
    : [500, "ERR_INTERNAL", `pab failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`];
  const retry: Record<string, string> = {};
  const after = retryAfter(error);
  if ((status === 429 || status === 503) && after !== null) retry["retry-after"] = String(after);
  return jsonAnswer(status, { error: { code, message } }, { ...retry, ...headers });
}

/** The store's own retry hint when it gives one (`null`: only an operator can help), else the default. */
function retryAfter(error: unknown): number | null {
  const hint = error instanceof StoreError ? (error as { retryAfter?: unknown }).retryAfter : undefined;
  if (hint === null) return null;
  return typeof hint === "number" && Number.isFinite(hint) && hint > 0 ? Math.ceil(hint) : RETRY_AFTER_SECONDS;
}

/** A JSON answer. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}
