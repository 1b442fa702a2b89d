/**
 * The errors the guard raises on purpose, one class per code.
 *
 * @module
 */
import { PabError } from "../core/mod.ts";

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
export class SchemaError extends PabError {
  /** Make a schema error. */
  constructor(message: string) {
    super("ERR_SCHEMA_MISMATCH", message);
    this.name = "SchemaError";
  }
}

/** A child branch was asked for with a schema the policy does not define (thrown by `Guard.fork`). */
export class UnknownSchemaError extends PabError {
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
export class RulingError extends PabError {
  /** Make a ruling error. */
  constructor(message: string) {
    super("ERR_RULING_REFUSED", message);
    this.name = "RulingError";
  }
}

/** A closed child branch was used again. */
export class BranchClosedError extends PabError {
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
export class LabelError extends PabError {
  /** Make the error. */
  constructor(message: string) {
    super("ERR_LABEL_INVALID", message);
    this.name = "LabelError";
  }
}

/** `Guard.complete` was given a reservation this guard did not make, or one already completed. */
export class ReservationError extends PabError {
  /** Make the error. */
  constructor(message: string) {
    super("ERR_RESERVATION_UNKNOWN", message);
    this.name = "ReservationError";
  }
}
