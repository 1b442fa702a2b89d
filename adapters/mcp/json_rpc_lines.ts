/**
 * Newline-delimited JSON-RPC, read in time linear in its size: a stream of
 * byte chunks is cut into lines (each byte scanned once, each line joined and
 * decoded once), and each line is read as one JSON-RPC message or as a
 * problem with the JSON-RPC error code to answer it with. A line longer than
 * the limit is never held whole: only its first and last bytes are kept, to
 * find the id of the request it carried.
 *
 * @module
 */
import { errorText, isRecord } from "../../core/mod.ts";
import { parseJson } from "../json/mod.ts";
import { echoableId, holdsInfinity, jsonRpcMembers, messageProblem } from "./json_rpc_message.ts";

/** The most bytes one message may have unless the caller says otherwise: the MCP SDK's stdio limit (10 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** An id a JSON-RPC message may carry (`null` when it cannot be read). */
type MessageId = string | number | null;

/** A line that is not a JSON-RPC message, and how to answer it. */
export interface LineProblem {
  /** `-32700` not JSON, `-32600` JSON but not a JSON-RPC 2.0 message (or over the size limit). */
  readonly code: -32700 | -32600;
  /** `parse`, `invalid` or `oversize`. */
  readonly kind: "parse" | "invalid" | "oversize";
  /** What is wrong, for a person. */
  readonly message: string;
  /** The id of the request the line carried, when it can be read (answers go to it); otherwise `null`. */
  readonly id: string | number | null;
  /** Whether the line was a request (it had a method and an id): only a request is answered with its own id. */
  readonly request: boolean;
  /** The line's length in bytes. */
  readonly bytes: number;
}

/** One line read: a message, or a problem. */
export type LineRead = { readonly message: Record<string, unknown> } | { readonly problem: LineProblem };

const NEWLINE = 0x0a;
const KEPT = 4096;

/**
 * Cuts byte chunks into lines, linear in their total size, and reads each
 * line as a message ({@linkcode readLine}). Lines over `maxBytes` are
 * reported as `oversize` problems, with the id read from their first or last
 * bytes when it is at the top level there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineSplitter } from "./json_rpc_lines.ts";
 * const read: unknown[] = [];
 * const lines = new LineSplitter(64, (line) => read.push(line));
 * const bytes = new TextEncoder().encode('{"jsonrpc":"2.0","method":"a"}\nnot json\n');
 * lines.push(bytes.subarray(0, 7));
 * lines.push(bytes.subarray(7));
 * assert.deepEqual(read[0], { message: { jsonrpc: "2.0", method: "a" } });
 * assert.equal((read[1] as { problem: { code: number } }).problem.code, -32700);
 * ```
 */
export class LineSplitter {
  readonly #max: number;
  readonly #emit: (read: LineRead) => void;
  #parts: Uint8Array[] = [];
  #length = 0;
  #head: Uint8Array | undefined;
  #tail: Uint8Array = new Uint8Array(0);
  readonly #decoder = new TextDecoder();

  /** Split lines of at most `maxBytes` bytes each (longer ones are problems), calling `emit` once per line. */
  constructor(maxBytes: number, emit: (read: LineRead) => void) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new TypeError(`Cannot split lines: the limit must be a positive integer of bytes, got ${maxBytes}`);
    }
    this.#max = maxBytes;
    this.#emit = emit;
  }

  /** Take one chunk; every line it completes is emitted before this returns. */
  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end < 0) {
        this.#keep(chunk.subarray(start));
        return;
      }
      this.#keep(chunk.subarray(start, end));
      start = end + 1;
      this.#line();
    }
  }

  /** The stream ended: a last line without a newline is read too. */
  end(): void {
    if (this.#length > 0 || this.#head) this.#line();
  }

  #keep(bytes: Uint8Array): void {
    if (!bytes.length) return;
    if (this.#head === undefined) {
      if (this.#length + bytes.length <= this.#max) {
        // Copied: the reader may reuse its buffer.
        this.#parts.push(bytes.slice());
        this.#length += bytes.length;
        return;
      }
      // Over the limit: from here on, only the first and last bytes are kept.
      const all = concat([...this.#parts, bytes], this.#length + bytes.length);
      this.#parts = [];
      this.#length = all.length;
      this.#head = all.slice(0, KEPT);
      this.#tail = all.slice(Math.max(0, all.length - KEPT));
      return;
    }
    this.#length += bytes.length;
    const tail = bytes.length >= KEPT
      ? bytes.subarray(bytes.length - KEPT)
      : concat([this.#tail, bytes], this.#tail.length + bytes.length);
    this.#tail = tail.slice(Math.max(0, tail.length - KEPT));
  }

  #line(): void {
    const length = this.#length;
    const head = this.#head;
    const tail = this.#tail;
    const parts = this.#parts;
    this.#parts = [];
    this.#length = 0;
    this.#head = undefined;
    this.#tail = new Uint8Array(0);
    if (head) return this.#emit(oversize(this.#decoder.decode(head), this.#decoder.decode(tail), length, this.#max));
    let text = this.#decoder.decode(concat(parts, length));
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (!text.trim()) return;
    this.#emit(readLine(text, length));
  }
}

/**
 * Read one line as a JSON-RPC 2.0 message: a request, a notification or a
 * response. A line that is not JSON is a `-32700` problem; JSON that is not
 * one JSON-RPC 2.0 message (a batch, a wrong `jsonrpc`, a bad id or method)
 * is a `-32600` problem, with the id when one can be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLine } from "./json_rpc_lines.ts";
 * assert.deepEqual(readLine('{"jsonrpc":"2.0","id":1,"result":{}}'), { message: { jsonrpc: "2.0", id: 1, result: {} } });
 * const wrong = readLine('{"jsonrpc":"1.0","id":7,"method":"ping"}');
 * assert.ok("problem" in wrong && wrong.problem.code === -32600 && wrong.problem.id === 7);
 * ```
 */
export function readLine(text: string, bytes = text.length): LineRead {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    // A cut or broken line: a request id at its very start is certain, so the request it carried is answered.
    const id = idAt(text.slice(0, KEPT), "");
    const request = id !== null && TOP_METHOD_FIRST.test(text.slice(0, KEPT));
    return problem(-32700, "parse", `the line is not JSON (${errorText(error)})`, id, request, bytes);
  }
  if (!isRecord(value)) {
    const what = Array.isArray(value) ? "a batch (an array), which MCP does not use" : `JSON ${typeof value}`;
    return problem(-32600, "invalid", `the line is ${what}, not one JSON-RPC message`, null, false, bytes);
  }
  const id = echoableId(value.id);
  const wrong = messageProblem(value) ??
    (holdsInfinity(text, value) ? "it holds a number too large for JSON (it would be written on as null)" : undefined);
  if (wrong) return problem(-32600, "invalid", wrong, id, id !== null && "method" in value, bytes);
  return { message: jsonRpcMembers(value) };
}

function oversize(head: string, tail: string, bytes: number, max: number): LineRead {
  const id = idAt(head, tail);
  const method = TOP_METHOD_FIRST.test(head) || TOP_METHOD_LAST.test(tail);
  return problem(
    -32600,
    "oversize",
    `the message has ${bytes} bytes, over the limit of ${max} bytes (raise it with --max-message-bytes)`,
    id,
    id !== null && method,
    bytes,
  );
}

const ID = String.raw`("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`;
const TOP_ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}(?=\s*[,}])`);
const TOP_ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
const TOP_KEYS = String.raw`(?:"(?:jsonrpc|id)"\s*:\s*${ID}\s*,\s*)*`;
const TOP_METHOD_FIRST = new RegExp(String.raw`^\s*\{\s*${TOP_KEYS}"method"\s*:`);
const TOP_METHOD_LAST = new RegExp(
  String.raw`"method"\s*:\s*"(?:[^"\\]|\\.)*"\s*(?:,\s*"(?:jsonrpc|id)"\s*:\s*${ID}\s*)*\}\s*$`,
);

/** The id of a cut message, where it is certainly at the top level: first (after jsonrpc) or last. */
function idAt(head: string, tail: string): MessageId {
  const found = TOP_ID_FIRST.exec(head) ?? TOP_ID_LAST.exec(tail);
  if (!found) return null;
  try {
    return echoableId(JSON.parse(found[1]));
  } catch {
    return null;
  }
}

function problem(
  code: -32700 | -32600,
  kind: LineProblem["kind"],
  message: string,
  id: MessageId,
  request: boolean,
  bytes: number,
): LineRead {
  return { problem: Object.freeze({ code, kind, message, id, request, bytes }) };
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
