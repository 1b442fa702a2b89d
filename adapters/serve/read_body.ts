/**
 * Read a request's JSON body with a size limit: a body over the limit is
 * refused before it is read whole, invalid UTF-8 or JSON is a 400.
 *
 * @module
 */
import { RequestError } from "./request_error.ts";

/**
 * The JSON body of `request` (`{}` when there is none), at most `limit` bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonBody } from "./read_body.ts";
 * const request = new Request("http://localhost/v1/sessions", { method: "POST", body: '{"role":"user"}' });
 * assert.deepEqual(await readJsonBody(request, 1024), { role: "user" });
 * await assert.rejects(readJsonBody(new Request("http://localhost/", { method: "POST", body: "x".repeat(2000) }), 1024), {
 *   code: "ERR_REQUEST_TOO_LARGE",
 * });
 * ```
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!request.body) return {};
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (size === 0) return {};
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new RequestError(400, "ERR_REQUEST_JSON", "Cannot read the request body: it is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RequestError(
      400,
      "ERR_REQUEST_JSON",
      `Cannot read the request body: it is not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

function tooLarge(limit: number): RequestError {
  return new RequestError(413, "ERR_REQUEST_TOO_LARGE", `Cannot read the request body: it is over ${limit} bytes`);
}
