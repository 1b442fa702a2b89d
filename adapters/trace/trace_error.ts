/**
 * The error a trace reader raises.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/**
 * A trace (a recorded conversation) could not be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TraceError } from "./trace_error.ts";
 * const error = new TraceError('Cannot read trace "t.json": not JSON');
 * assert.equal(error.code, "ERR_TRACE_INVALID");
 * ```
 */
export class TraceError extends PabError {
  /** Make a trace error. */
  constructor(message: string, options?: ErrorOptions) {
    super("ERR_TRACE_INVALID", message, options);
    this.name = "TraceError";
  }
}
