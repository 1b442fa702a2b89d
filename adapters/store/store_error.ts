/**
 * Errors of the store: it could not be opened, or a value cannot be kept.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/**
 * A store could not be opened or used. Codes: `ERR_STORE_OPEN` (bad path or
 * URL, no permission, server unreachable), `ERR_STORE_WRITE` (a write failed
 * or kept conflicting), `ERR_STORE_LIMIT` (a value or call is too large for the
 * store).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreError } from "./store_error.ts";
 * const error = new StoreError("ERR_STORE_OPEN", 'Cannot open store "x": no such folder');
 * assert.equal(error.code, "ERR_STORE_OPEN");
 * ```
 */
export class StoreError extends PabError {
  /** Make a store error. */
  constructor(code: "ERR_STORE_OPEN" | "ERR_STORE_WRITE" | "ERR_STORE_LIMIT", message: string, options?: ErrorOptions) {
    super(code, message, options);
    this.name = "StoreError";
  }
}
