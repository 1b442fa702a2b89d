/**
 * The base of pab's error tree and the union of its stable codes. Each layer
 * owns the classes of its own codes (`PolicyError` in `guard/policy/`,
 * `TraceError` in `adapters/trace/`, ...); every code has exactly one class.
 * Programmer mistakes (a wrong argument type) are plain `TypeError`s instead.
 *
 * @module
 */

/**
 * The stable codes of the errors pab raises on purpose, by the layer that owns
 * their class. An adapter that adds a code spells it `ERR_...` and gives it a class.
 */
export type ErrorCode =
  // guard/policy
  | "ERR_POLICY_INVALID"
  // guard
  | "ERR_TOOL_CALL_DENIED"
  | "ERR_SCHEMA_MISMATCH"
  | "ERR_SCHEMA_UNKNOWN"
  | "ERR_RULING_REFUSED"
  | "ERR_BRANCH_CLOSED"
  | "ERR_LABEL_INVALID"
  | "ERR_RESERVATION_UNKNOWN"
  // adapters
  | "ERR_TRACE_INVALID"
  | "ERR_CLI_USAGE"
  | "ERR_CLI_IO"
  | `ERR_${string}`;

/**
 * The base of every error pab raises on purpose.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PabError } from "./errors.ts";
 * const error = new PabError("ERR_TRACE_INVALID", "Cannot read trace \"t.json\": not JSON");
 * assert.equal(error.code, "ERR_TRACE_INVALID");
 * assert.ok(error instanceof Error);
 * ```
 */
export class PabError extends Error {
  /** A stable, machine-readable code such as `ERR_POLICY_INVALID`. */
  readonly code: ErrorCode;

  /** Make an error with a stable code. */
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "PabError";
    this.code = code;
  }
}
