/**
 * The errors the guard raises on purpose, one class per code.
 *
 * @module
 */
import { PabError } from "../core/mod.ts";

/**
 * Every code the guard's errors carry (a closed list), one class each:
 * `ToolCallDenied` and the classes of this file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GUARD_ERROR_CODES } from "./guard_errors.ts";
 * assert.ok(GUARD_ERROR_CODES.includes("ERR_RULING_REFUSED"));
 * ```
 */
export const GUARD_ERROR_CODES = [
  "ERR_TOOL_CALL_DENIED",
  "ERR_SCHEMA_MISMATCH",
  "ERR_SCHEMA_UNKNOWN",
  "ERR_RULING_REFUSED",
  "ERR_BRANCH_CLOSED",
  "ERR_LABEL_INVALID",
  "ERR_RESERVATION_UNKNOWN",
] as const;

/** A code of {@linkcode GUARD_ERROR_CODES}. */
export type GuardErrorCode = typeof GUARD_ERROR_CODES[number];

/**
 * An answer leaving a child branch did not fit the schema fixed before the branch read anything.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SchemaError } from "./guard_errors.ts";
 * assert.equal(new SchemaError("Cannot accept answer: fields [] do not match [\"ok\"]").code, "ERR_SCHEMA_MISMATCH");
 * ```
 */
export class SchemaError extends PabError<GuardErrorCode> {
  /** Make a schema error. */
  constructor(message: string) {
    super("ERR_SCHEMA_MISMATCH", message);
    this.name = "SchemaError";
  }
}

/** A child branch was asked for with a schema the policy does not define (thrown by `Guard.fork`). */
export class UnknownSchemaError extends PabError<GuardErrorCode> {
  /** Make the error. */
  constructor(message: string) {
    super("ERR_SCHEMA_UNKNOWN", message);
    this.name = "UnknownSchemaError";
  }
}

/**
 * An approver refused to give a ruling: the policy names no such approver,
 * its mandate covers none of the open gaps, or its business rule said no
 * (thrown by `Guard.requestRuling`). A forged, spent or mismatched ruling
 * offered to `propose` is not an error: it is ignored with a `ruling-ignored` note.
 */
export class RulingError extends PabError<GuardErrorCode> {
  /** Make a ruling error. */
  constructor(message: string) {
    super("ERR_RULING_REFUSED", message);
    this.name = "RulingError";
  }
}

/** A closed child branch was used again. */
export class BranchClosedError extends PabError<GuardErrorCode> {
  /** Make the error. */
  constructor(message: string) {
    super("ERR_BRANCH_CLOSED", message);
    this.name = "BranchClosedError";
  }
}

/**
 * A label given at a call (to `record` or through `withLabel`) is malformed.
 * It is thrown only after the branch took the strictest label and the output
 * was recorded under it, so nothing is lost and nothing leaks.
 */
export class LabelError extends PabError<GuardErrorCode> {
  /** Make the error. */
  constructor(message: string) {
    super("ERR_LABEL_INVALID", message);
    this.name = "LabelError";
  }
}

/** `Guard.complete` was given a reservation this guard did not make, or one already completed. */
export class ReservationError extends PabError<GuardErrorCode> {
  /** Make the error. */
  constructor(message: string) {
    super("ERR_RESERVATION_UNKNOWN", message);
    this.name = "ReservationError";
  }
}
