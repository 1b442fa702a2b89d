/**
 * How `pab serve` answers an error: the HTTP status and retry hint for each
 * kind of error, in one table, and the `{"error": {"code", "message"}}` body.
 *
 * @module
 */
import { errorText, PabError } from "../../core/mod.ts";
import { StoreError } from "../store/mod.ts";
import { type AnswerCode, HTTP_STATUS } from "./request_error.ts";

/** Seconds a client should wait before retrying a store fault or an overload. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * The HTTP answer to `error`: a coded error the server, the store, the guard
 * or the policy raises answers with its code and the status
 * {@linkcode HTTP_STATUS} gives it (a store fault is 503, except
 * `ERR_STORE_LIMIT`, a value too large for the store, 413); another layer's
 * coded error (a hook input that cannot be read) is 400 with its code, and a
 * `TypeError` (a value the guard cannot take) is 400 `ERR_REQUEST_INVALID`;
 * anything else is 500 `ERR_INTERNAL`. A 429 or
 * 503 carries `Retry-After`: the store's own hint when it gives one (none
 * when it says only an operator can help), else one second.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StoreError } from "../store/mod.ts";
 * import { errorAnswer } from "./error_answer.ts";
 * const answer = errorAnswer(new StoreError("ERR_STORE_WRITE", "Cannot write: the disk is full"));
 * assert.equal(answer.status, 503);
 * assert.equal(answer.headers.get("retry-after"), "1");
 * assert.equal((await answer.json()).error.code, "ERR_STORE_WRITE");
 * ```
 */
export function errorAnswer(error: unknown, headers: Record<string, string> = {}): Response {
  const parts = errorParts(error);
  return jsonAnswer(parts.status, parts.body, { ...parts.headers, ...headers });
}

/**
 * The parts of {@linkcode errorAnswer}: its status, its JSON body, and its
 * `Retry-After` header when it has one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { errorParts } from "./error_answer.ts";
 * assert.deepEqual(errorParts(new TypeError("Cannot use x")), {
 *   status: 400,
 *   body: { error: { code: "ERR_REQUEST_INVALID", message: "Cannot use x" } },
 *   headers: {},
 * });
 * ```
 */
export function errorParts(error: unknown): { status: number; body: unknown; headers: Record<string, string> } {
  const [status, code, message]: [number, string, string] = error instanceof PabError
    ? [isAnswerCode(error.code) ? HTTP_STATUS[error.code] : 400, error.code, error.message]
    : error instanceof TypeError
    ? [HTTP_STATUS.ERR_REQUEST_INVALID, "ERR_REQUEST_INVALID", error.message]
    : [HTTP_STATUS.ERR_INTERNAL, "ERR_INTERNAL", `pab failed unexpectedly: ${errorText(error)}`];
  const retry: Record<string, string> = {};
  const after = retryAfter(error);
  if ((status === 429 || status === 503) && after !== null) retry["retry-after"] = String(after);
  return { status, body: { error: { code, message } }, headers: retry };
}

function isAnswerCode(code: string): code is AnswerCode {
  return Object.hasOwn(HTTP_STATUS, code);
}

/** The store's own retry hint when it gives one (`null`: only an operator can help), else the default. */
function retryAfter(error: unknown): number | null {
  const hint = error instanceof StoreError ? (error as { retryAfter?: unknown }).retryAfter : undefined;
  if (hint === null) return null;
  return typeof hint === "number" && Number.isFinite(hint) && hint > 0 ? Math.ceil(hint) : RETRY_AFTER_SECONDS;
}

/** The headers of every JSON answer. */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
});

/** A JSON answer. */
export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return jsonTextAnswer(status, JSON.stringify(body), headers);
}

/**
 * A JSON answer from its text: {@linkcode JSON_HEADERS}, then `headers` (a
 * name in both takes the value of `headers`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonTextAnswer } from "./error_answer.ts";
 * const answer = jsonTextAnswer(503, '{"ok":false}', { "retry-after": "1" });
 * assert.deepEqual([...answer.headers], [
 *   ["cache-control", "no-store"],
 *   ["content-type", "application/json; charset=utf-8"],
 *   ["retry-after", "1"],
 * ]);
 * assert.equal(await answer.text(), '{"ok":false}');
 * ```
 */
export function jsonTextAnswer(status: number, text: string, headers: Record<string, string> = {}): Response {
  // Set one by one: the same header list as a `headers` record in the init (a text body's own content type is
  // replaced in place, the rest follow in order), at a tenth of the cost of converting a record.
  const answer = new Response(text, { status });
  answer.headers.set("content-type", JSON_HEADERS["content-type"]);
  answer.headers.set("cache-control", JSON_HEADERS["cache-control"]);
  for (const name of Object.keys(headers)) answer.headers.set(name, headers[name]);
  return answer;
}
