/**
 * Read a request's JSON body within bounds: a body over the size limit is
 * refused before it is read whole, one that arrives too slowly (or while the
 * server stops) is cut off, one nested deeper than the depth limit is refused
 * before it is parsed, and invalid UTF-8 or JSON is a 400.
 *
 * @module
 */
import { errorText } from "../../core/mod.ts";
import type { BodyDeadlines } from "./body_deadlines.ts";
import { RequestError } from "./request_error.ts";
import { parseJson } from "../json/mod.ts";

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const LENIENT_UTF8 = new TextDecoder("utf-8");

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_BODY_DEPTH = 128;

/** Bounds of {@linkcode readJsonBody}. */
export interface BodyBounds {
  /** The largest body in bytes. */
  readonly limit: number;
  /** How long the whole body may take to arrive, and the server's stop signal (default: no deadline). */
  readonly deadlines?: BodyDeadlines;
  /** The deepest nesting allowed (default {@linkcode MAX_BODY_DEPTH}). */
  readonly depth?: number;
  /**
   * The request came from `Deno.serve`, whose HTTP framing holds a body to the
   * length its `Content-Length` declares (a longer or conflicting one is
   * refused before the handler runs): a body declared within the limit is
   * then read in one call, not chunk by chunk (default false).
   */
  readonly framed?: boolean;
}

/**
 * The JSON body of `request` (`{}` when there is none) within `bounds` (or a
 * byte limit). Refusals: 413 `ERR_REQUEST_TOO_LARGE`, 408
 * `ERR_REQUEST_TIMEOUT`, 503 `ERR_SHUTTING_DOWN`, 400 `ERR_REQUEST_BODY` (broken
 * framing, or the connection failed), 400 `ERR_REQUEST_TOO_DEEP` and 400
 * `ERR_REQUEST_JSON`.
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
 * await assert.rejects(readJsonBody(new Request("http://localhost/", { method: "POST", body: "[".repeat(200) }), 1024), {
 *   code: "ERR_REQUEST_TOO_DEEP",
 * });
 * ```
 */
export async function readJsonBody(request: Request, bounds: number | BodyBounds): Promise<unknown> {
  const { depth = MAX_BODY_DEPTH } = typeof bounds === "number" ? {} : bounds;
  return parseJsonBytes(await readBodyBytes(request, bounds), depth);
}

/**
 * A body's bytes as JSON (`{}` for none), refusing invalid UTF-8 or JSON (400
 * `ERR_REQUEST_JSON`) and nesting deeper than `depth` (400
 * `ERR_REQUEST_TOO_DEEP`) before parsing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonBytes } from "./read_body.ts";
 * assert.deepEqual(parseJsonBytes(new TextEncoder().encode('{"a":1}')), { a: 1 });
 * assert.deepEqual(parseJsonBytes(null), {});
 * assert.throws(() => parseJsonBytes(new TextEncoder().encode("[[[")), { code: "ERR_REQUEST_JSON" });
 * ```
 */
export function parseJsonBytes(bytes: Uint8Array | null, depth: number = MAX_BODY_DEPTH): unknown {
  if (bytes === null || bytes.byteLength === 0) return {};
  // The lenient decoder is many times faster; it gives the strict one's text for valid UTF-8, and writes U+FFFD for
  // each invalid sequence: a text with U+FFFD (invalid, or a real U+FFFD) is decoded again strictly, which refuses.
  let text = LENIENT_UTF8.decode(bytes);
  if (text.includes("\uFFFD")) {
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw new RequestError("ERR_REQUEST_JSON", "Cannot read the request body: it is not valid UTF-8");
    }
  }
  if (openersOver(text, depth) && nestingOver(text, depth)) {
    throw new RequestError(
      "ERR_REQUEST_TOO_DEEP",
      `Cannot read the request body: it nests arrays and objects more than ${depth} levels deep`,
    );
  }
  try {
    return parseJson(text);
  } catch (error) {
    throw new RequestError(
      "ERR_REQUEST_JSON",
      `Cannot read the request body: it is not JSON (${errorText(error)})`,
    );
  }
}

/**
 * The bytes of `request`'s body (`null` when there is none) within `bounds`:
 * the size limit, the deadline and the stop signal of
 * {@linkcode readJsonBody}, with its refusals.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBodyBytes } from "./read_body.ts";
 * const request = new Request("http://localhost/", { method: "POST", body: "{}" });
 * assert.deepEqual(await readBodyBytes(request, 1024), new TextEncoder().encode("{}"));
 * assert.equal(await readBodyBytes(new Request("http://localhost/"), 1024), null);
 * ```
 */
export async function readBodyBytes(
  request: Request,
  bounds: number | BodyBounds,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const { limit, deadlines, framed } = typeof bounds === "number" ? { limit: bounds } : bounds;
  const header = request.headers.get("content-length");
  const declared = Number(header);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  // The framing holds the body to its declared length, within the limit: read it whole (a GET or HEAD has none to
  // read, as below; asking for a body's stream costs more than reading it).
  if (framed && header !== null && DIGITS.test(header) && request.method !== "GET" && request.method !== "HEAD") {
    return await readWhole(request, limit, deadlines);
  }
  if (!request.body) return null;
  return await readBytes(request.body, limit, deadlines);
}

const DIGITS = /^[0-9]+$/;

/**
 * The whole body of a request whose framing bounds it (see `BodyBounds.framed`), in one read: no chunk buffers and
 * no stream reads. Cut off (past the deadline, or the server stopping), it ends early and says why; the read left
 * behind ends with the connection, which the server closes since its body was not read.
 */
async function readWhole(
  request: Request,
  limit: number,
  deadlines: BodyDeadlines | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  const read = request.bytes();
  if (deadlines === undefined) return within(await read.catch((error) => Promise.reject(brokenBody(error))), limit);
  let cut = () => {};
  const stopped = new Promise<null>((resolve) => cut = () => resolve(null));
  const watched = deadlines.watch(cut);
  try {
    const bytes = await Promise.race([read, stopped]);
    if (bytes !== null && watched.error === undefined) return within(bytes, limit);
  } catch (error) {
    throw error instanceof RequestError ? error : watched.error ?? brokenBody(error);
  } finally {
    watched.done();
  }
  read.catch(() => {});
  throw watched.error;
}

/** `bytes` when within `limit` (413 otherwise). */
function within(bytes: Uint8Array<ArrayBuffer>, limit: number): Uint8Array<ArrayBuffer> {
  if (bytes.byteLength > limit) throw tooLarge(limit);
  return bytes;
}

async function readBytes(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  limit: number,
  deadlines: BodyDeadlines | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  // Cut off (past the deadline, or the server stopping), the read ends early and says why.
  const watched = deadlines?.watch(() => void reader.cancel().catch(() => {}));
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (watched?.error) throw watched.error;
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge(limit);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error instanceof RequestError ? error : watched?.error ?? brokenBody(error);
  } finally {
    watched?.done();
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Whether JSON text has more than `depth` opening brackets (`[` or `{`), in strings or not: the cheap test before
 * {@linkcode nestingOver}, which it can only pass through (to nest deeper than `depth`, a text opens more than
 * `depth` arrays or objects). A body with few brackets, however long, is done in a few native searches.
 */
function openersOver(text: string, depth: number): boolean {
  let openers = 0;
  for (let at = text.indexOf("["); at !== -1; at = text.indexOf("[", at + 1)) if (++openers > depth) return true;
  for (let at = text.indexOf("{"); at !== -1; at = text.indexOf("{", at + 1)) if (++openers > depth) return true;
  return false;
}

/** Whether JSON text nests arrays and objects deeper than `depth` (brackets inside strings do not count). */
function nestingOver(text: string, depth: number): boolean {
  let level = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++level > depth) return true;
    } else if (code === 0x5d || code === 0x7d) level--;
  }
  return false;
}

/**
 * The body's stream failed: its framing is broken (a chunk size that is not hex, a chunk longer or shorter than its
 * size) or the connection failed while it arrived. The client's fault, never the server's: 400.
 */
function brokenBody(error: unknown): RequestError {
  return new RequestError(
    "ERR_REQUEST_BODY",
    `Cannot read the request body: its HTTP framing is broken or its connection failed while it arrived (${
      errorText(error)
    }); send the body whole, with a Content-Length or valid chunked encoding`,
  );
}

function tooLarge(limit: number): RequestError {
  return new RequestError("ERR_REQUEST_TOO_LARGE", `Cannot read the request body: it is over ${limit} bytes`);
}
