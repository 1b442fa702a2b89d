/**
 * The base of pab's error tree. Each layer owns the classes of its own codes
 * and lists them in a closed union (`GuardErrorCode` in `guard/`,
 * `PolicyErrorCode` in `guard/policy/`, `StoreErrorCode` in `adapters/store/`,
 * ...); every code has exactly one class, and no class takes a code outside its
 * layer's list. Programmer mistakes (a wrong argument type) are plain
 * `TypeError`s instead.
 *
 * @module
 */

/**
 * The base of every error pab raises on purpose. It is abstract: a layer
 * extends it with the closed union of the codes its class may carry, so a code
 * no layer lists cannot be raised.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PabError } from "./errors.ts";
 * class ReadError extends PabError<"ERR_TRACE_INVALID"> {
 *   constructor(message: string) {
 *     super("ERR_TRACE_INVALID", message);
 *     this.name = "ReadError";
 *   }
 * }
 * const error = new ReadError("Cannot read trace \"t.json\": not JSON");
 * assert.equal(error.code, "ERR_TRACE_INVALID");
 * assert.ok(error instanceof PabError && error instanceof Error);
 * ```
 */
export abstract class PabError<Code extends `ERR_${string}`> extends Error {
  /** A stable, machine-readable code such as `ERR_POLICY_INVALID`, from its layer's closed list. */
  readonly code: Code;

  /** Make an error with a stable code. */
  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "PabError";
    this.code = code;
  }
}
