/**
 * The error a trace reader raises.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/** Every code a {@linkcode TraceError} carries (a closed list). */
export const TRACE_ERROR_CODES = ["ERR_TRACE_INVALID"] as const;

/** A code of {@linkcode TRACE_ERROR_CODES}. */
export type TraceErrorCode = typeof TRACE_ERROR_CODES[number];

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
export class TraceError extends PabError<TraceErrorCode> {
  /** Make a trace error. */
  constructor(message: string, options?: ErrorOptions) {
    super("ERR_TRACE_INVALID", message, options);
    this.name = "TraceError";
  }
}

/**
 * The 1-based line and column of an offset in a text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { positionOf } from "./trace_error.ts";
 * assert.deepEqual(positionOf("a\nbc", 3), { line: 2, column: 2 });
 * ```
 */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/**
 * The error every trace reader throws: `Cannot read trace WHERE: WHAT (FIX)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { traceFailure } from "./trace_error.ts";
 * const error = traceFailure("log.json:3", "unknown role \"robot\"", "use \"user\"");
 * assert.equal(error.code, "ERR_TRACE_INVALID");
 * assert.equal(error.message, 'Cannot read trace log.json:3: unknown role "robot" (use "user")');
 * ```
 */
export function traceFailure(where: string, what: string, fix: string): TraceError {
  return new TraceError(`Cannot read trace ${where}: ${what} (${fix})`);
}
