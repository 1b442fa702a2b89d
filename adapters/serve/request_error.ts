/**
 * Errors a request gets back: an HTTP status, a stable code and a message.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/**
 * A request that cannot be served as asked. `status` is the HTTP status
 * (4xx for the caller's mistakes); `code` is stable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RequestError } from "./request_error.ts";
 * const error = new RequestError(404, "ERR_SESSION_UNKNOWN", 'Cannot find session "s_1": no such session');
 * assert.equal(error.status, 404);
 * assert.equal(error.code, "ERR_SESSION_UNKNOWN");
 * ```
 */
export class RequestError extends PabError {
  /** The HTTP status to answer with. */
  readonly status: number;

  /** Make a request error. */
  constructor(status: number, code: `ERR_${string}`, message: string) {
    super(code, message);
    this.name = "RequestError";
    this.status = status;
  }
}
