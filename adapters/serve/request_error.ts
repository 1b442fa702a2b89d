/**
 * Errors a request gets back: a stable code from a closed list, and the HTTP
 * status of every code `pab serve` answers with, in one table.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";
import type { GuardErrorCode, PolicyErrorCode } from "../../guard/mod.ts";
import type { StoreErrorCode } from "../store/mod.ts";

/**
 * Every code a {@linkcode RequestError} carries (a closed list): what the
 * server itself refuses or fails at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REQUEST_ERROR_CODES } from "./request_error.ts";
 * assert.ok(REQUEST_ERROR_CODES.includes("ERR_SESSION_UNKNOWN"));
 * ```
 */
export const REQUEST_ERROR_CODES = [
  "ERR_REQUEST_JSON",
  "ERR_REQUEST_BODY",
  "ERR_REQUEST_INVALID",
  "ERR_REQUEST_TOO_DEEP",
  "ERR_REQUEST_TOO_LARGE",
  "ERR_REQUEST_CONTENT_TYPE",
  "ERR_REQUEST_TIMEOUT",
  "ERR_REQUEST_HOST",
  "ERR_REQUEST_ORIGIN",
  "ERR_UNAUTHORIZED",
  "ERR_NOT_FOUND",
  "ERR_METHOD",
  "ERR_SESSION_CREDENTIAL",
  "ERR_SESSION_UNKNOWN",
  "ERR_SESSION_EXISTS",
  "ERR_SESSION_FULL",
  "ERR_SESSION_LIMIT",
  "ERR_SESSION_BUSY",
  "ERR_RULING_UNKNOWN",
  "ERR_RULING_MISMATCH",
  "ERR_RULING_SPENT",
  "ERR_RULING_STALE",
  "ERR_OVERLOADED",
  "ERR_SHUTTING_DOWN",
  "ERR_STORE_UNAVAILABLE",
  "ERR_INTERNAL",
] as const;

/** A code of {@linkcode REQUEST_ERROR_CODES}. */
export type RequestErrorCode = typeof REQUEST_ERROR_CODES[number];

/** A code `pab serve` may answer with: its own, a store fault's, or one of the guard's or the policy's. */
export type AnswerCode = RequestErrorCode | StoreErrorCode | GuardErrorCode | PolicyErrorCode;

/**
 * The HTTP status of every code `pab serve` answers with. A client's mistake
 * is 4xx; a store fault or an overload is 503, except `ERR_STORE_LIMIT` (a
 * value too large for the store: the client's, 413); only a failure pab did
 * not expect is 500.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HTTP_STATUS } from "./request_error.ts";
 * assert.equal(HTTP_STATUS.ERR_SESSION_UNKNOWN, 404);
 * assert.equal(HTTP_STATUS.ERR_STORE_LIMIT, 413);
 * ```
 */
export const HTTP_STATUS: Readonly<Record<AnswerCode, number>> = Object.freeze({
  // The request and its session.
  ERR_REQUEST_JSON: 400,
  ERR_REQUEST_BODY: 400,
  ERR_REQUEST_INVALID: 400,
  ERR_REQUEST_TOO_DEEP: 400,
  ERR_REQUEST_TOO_LARGE: 413,
  ERR_REQUEST_CONTENT_TYPE: 415,
  ERR_REQUEST_TIMEOUT: 408,
  ERR_REQUEST_HOST: 403,
  ERR_REQUEST_ORIGIN: 403,
  ERR_UNAUTHORIZED: 401,
  ERR_NOT_FOUND: 404,
  ERR_METHOD: 405,
  ERR_SESSION_CREDENTIAL: 403,
  ERR_SESSION_UNKNOWN: 404,
  ERR_SESSION_EXISTS: 409,
  ERR_SESSION_FULL: 413,
  ERR_SESSION_LIMIT: 429,
  ERR_SESSION_BUSY: 429,
  ERR_RULING_UNKNOWN: 404,
  ERR_RULING_MISMATCH: 409,
  ERR_RULING_SPENT: 409,
  ERR_RULING_STALE: 409,
  // The server.
  ERR_OVERLOADED: 503,
  ERR_SHUTTING_DOWN: 503,
  ERR_STORE_UNAVAILABLE: 503,
  ERR_INTERNAL: 500,
  // The store's faults.
  ERR_STORE_OPEN: 503,
  ERR_STORE_UNSAFE_PATH: 503,
  ERR_STORE_WRITE: 503,
  ERR_STORE_LIMIT: 413,
  ERR_STORE_FULL: 503,
  ERR_STORE_IO: 503,
  ERR_STORE_READONLY: 503,
  ERR_STORE_CORRUPT: 503,
  ERR_STORE_GONE: 503,
  ERR_STORE_UNREACHABLE: 503,
  ERR_STORE_TIMEOUT: 503,
  ERR_STORE_CLOSED: 503,
  // The guard's and the policy's: a value or a call the guard cannot take.
  ERR_TOOL_CALL_DENIED: 400,
  ERR_SCHEMA_MISMATCH: 400,
  ERR_SCHEMA_UNKNOWN: 400,
  ERR_RULING_REFUSED: 409,
  ERR_BRANCH_CLOSED: 400,
  ERR_LABEL_INVALID: 400,
  ERR_RESERVATION_UNKNOWN: 404,
  ERR_POLICY_INVALID: 400,
});

/**
 * A request that cannot be served as asked. `code` is stable; `status` is its
 * HTTP status, from {@linkcode HTTP_STATUS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RequestError } from "./request_error.ts";
 * const error = new RequestError("ERR_SESSION_UNKNOWN", 'Cannot find session "s_1": no such session');
 * assert.equal(error.status, 404);
 * assert.equal(error.code, "ERR_SESSION_UNKNOWN");
 * ```
 */
export class RequestError extends PabError<RequestErrorCode> {
  /** The HTTP status to answer with. */
  readonly status: number;

  /** Make a request error. */
  constructor(code: RequestErrorCode, message: string) {
    super(code, message);
    this.name = "RequestError";
    this.status = HTTP_STATUS[code];
  }
}
