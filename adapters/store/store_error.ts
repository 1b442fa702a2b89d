/**
 * Errors of the store, one stable code per kind of fault, each with a retry
 * hint: how long a caller should wait before trying again, or `null` when
 * only an operator can fix it.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/**
 * Every code a {@linkcode StoreError} carries (a closed list).
 *
 * - `ERR_STORE_OPEN`: the store cannot be opened (bad path or URL, no permission, not a store)
 * - `ERR_STORE_UNSAFE_PATH`: the path goes through a symbolic link, or its folder is shared with other users
 * - `ERR_STORE_WRITE`: other writers kept a write conflicting (the store is busy)
 * - `ERR_STORE_LIMIT`: a value or a call is too large for the store
 * - `ERR_STORE_FULL`: the disk is full
 * - `ERR_STORE_IO`: the disk or file system reported an I/O error
 * - `ERR_STORE_READONLY`: the store file or its folder cannot be written
 * - `ERR_STORE_CORRUPT`: the store file is damaged or is not a Deno KV file (or an audit record's input is missing)
 * - `ERR_STORE_GONE`: the store file was deleted or replaced while open
 * - `ERR_STORE_UNREACHABLE`: the remote KV server (`denokv`) does not answer
 * - `ERR_STORE_TIMEOUT`: a call missed its deadline
 * - `ERR_STORE_CLOSED`: the store was closed
 */
export type StoreErrorCode =
  | "ERR_STORE_OPEN"
  | "ERR_STORE_UNSAFE_PATH"
  | "ERR_STORE_WRITE"
  | "ERR_STORE_LIMIT"
  | "ERR_STORE_FULL"
  | "ERR_STORE_IO"
  | "ERR_STORE_READONLY"
  | "ERR_STORE_CORRUPT"
  | "ERR_STORE_GONE"
  | "ERR_STORE_UNREACHABLE"
  | "ERR_STORE_TIMEOUT"
  | "ERR_STORE_CLOSED";

/** Seconds to wait before retrying, by code; `null`: retrying will not help until an operator acts. */
const RETRY_AFTER: Readonly<Record<StoreErrorCode, number | null>> = {
  ERR_STORE_OPEN: null,
  ERR_STORE_UNSAFE_PATH: null,
  ERR_STORE_WRITE: 1,
  ERR_STORE_LIMIT: null,
  ERR_STORE_FULL: null,
  ERR_STORE_IO: 5,
  ERR_STORE_READONLY: null,
  ERR_STORE_CORRUPT: null,
  ERR_STORE_GONE: null,
  ERR_STORE_UNREACHABLE: 5,
  ERR_STORE_TIMEOUT: 2,
  ERR_STORE_CLOSED: null,
};

/**
 * Every {@linkcode StoreErrorCode}, at run time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STORE_ERROR_CODES } from "./store_error.ts";
 * assert.ok(STORE_ERROR_CODES.includes("ERR_STORE_GONE"));
 * ```
 */
export const STORE_ERROR_CODES: readonly StoreErrorCode[] = Object.freeze(Object.keys(RETRY_AFTER) as StoreErrorCode[]);

/**
 * A store could not be opened or used. `code` says which fault (see
 * {@linkcode StoreErrorCode}); `retryAfter` says how many seconds to wait
 * before retrying, or `null` when retrying will not help until an operator
 * fixes the cause (a full disk, a deleted file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreError } from "./store_error.ts";
 * const error = new StoreError("ERR_STORE_UNREACHABLE", 'Cannot reach store "http://localhost:4512/": connection refused');
 * assert.equal(error.code, "ERR_STORE_UNREACHABLE");
 * assert.equal(error.retryAfter, 5);
 * assert.equal(new StoreError("ERR_STORE_FULL", "Cannot write: disk full").retryAfter, null);
 * ```
 */
export class StoreError extends PabError<StoreErrorCode> {
  /** Seconds to wait before retrying, or `null`: retrying will not help until an operator acts. */
  readonly retryAfter: number | null;

  /** Make a store error. */
  constructor(code: StoreErrorCode, message: string, options?: ErrorOptions) {
    super(code, message, options);
    this.name = "StoreError";
    this.retryAfter = RETRY_AFTER[code];
  }
}

/**
 * Whether a value is one of the {@linkcode StoreErrorCode}s.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStoreErrorCode } from "./store_error.ts";
 * assert.equal(isStoreErrorCode("ERR_STORE_GONE"), true);
 * assert.equal(isStoreErrorCode("ERR_POLICY_INVALID"), false);
 * ```
 */
export function isStoreErrorCode(value: unknown): value is StoreErrorCode {
  return typeof value === "string" && Object.hasOwn(RETRY_AFTER, value);
}
