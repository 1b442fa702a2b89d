/**
 * What one MCP JSON-RPC message is, checked as the MCP SDK checks what it
 * reads (`JSONRPCMessageSchema`): anything pab relays, an SDK peer accepts.
 * A message the peer's SDK would reject is never passed on, because the SDK
 * drops it with no answer and its sender would wait for ever; pab answers it
 * with `-32600` instead.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";

/** The members a request or notification may have, and a response; any other is left out when the message is relayed. */
const REQUEST_MEMBERS: readonly string[] = ["jsonrpc", "id", "method", "params"];
const RESPONSE_MEMBERS: readonly string[] = ["jsonrpc", "id", "result", "error"];

/** A request id as MCP takes it: a string, or an integer JavaScript holds exactly (the SDK's `RequestIdSchema`). */
export function isRequestId(id: unknown): id is string | number {
  return typeof id === "string" || Number.isSafeInteger(id);
}

/**
 * An id that can be echoed in an error answer exactly as it was sent: a
 * string or a finite number that is not an integer too large to hold
 * exactly (which would come back as another number).
 */
export function echoableId(id: unknown): string | number | null {
  if (typeof id === "string") return id;
  if (typeof id !== "number" || !Number.isFinite(id)) return null;
  return Number.isInteger(id) && !Number.isSafeInteger(id) ? null : id;
}

/**
 * What keeps `message` (a parsed JSON object) from being one MCP JSON-RPC
 * message, or undefined when it is one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { messageProblem } from "./json_rpc_message.ts";
 * assert.equal(messageProblem({ jsonrpc: "2.0", id: 1, method: "ping" }), undefined);
 * assert.match(messageProblem({ jsonrpc: "2.0", id: 1.5, method: "ping" })!, /integer/);
 * assert.match(messageProblem({ jsonrpc: "2.0", id: 1, result: [] })!, /result is not an object/);
 * ```
 */
export function messageProblem(message: Record<string, unknown>): string | undefined {
  if (message.jsonrpc !== "2.0") return 'it lacks "jsonrpc": "2.0"';
  if ("method" in message) {
    if (typeof message.method !== "string" || !message.method) return "its method is not a non-empty string";
    if ("id" in message && !isRequestId(message.id)) return `its id ${ID_RULE}`;
    if ("result" in message || "error" in message) return "it has both a method and a result or error";
    if ("params" in message && !isRecord(message.params)) return "its params are not an object";
    return metaProblem(message.params, "params");
  }
  const results = Number("result" in message) + Number("error" in message);
  if (results !== 1) return "it is neither a request, a notification nor a response (one of result or error)";
  if ("error" in message) {
    // An error may name no request (no id, or null as JSON-RPC writes it): the MCP SDK reads one without an id.
    if ("id" in message && message.id !== null && !isRequestId(message.id)) return `its id ${ID_RULE} (nor null)`;
    const error = message.error;
    if (!isRecord(error) || !Number.isSafeInteger(error.code) || typeof error.message !== "string") {
      return "its error is not an object with an integer code and a text message";
    }
    return undefined;
  }
  if (!isRequestId(message.id)) return `its id ${ID_RULE}`;
  if (!isRecord(message.result)) return "its result is not an object";
  return metaProblem(message.result, "result");
}

const ID_RULE = "is neither a string nor an integer of at most 2^53 (the MCP SDK drops such a message unanswered)";

/** The `_meta` of params or a result, as the SDK reads it: an object, its progress token an id, its task a task id. */
function metaProblem(holder: unknown, where: string): string | undefined {
  if (!isRecord(holder) || !("_meta" in holder)) return undefined;
  const meta = holder._meta;
  if (!isRecord(meta)) return `its ${where}._meta is not an object`;
  if ("progressToken" in meta && meta.progressToken !== undefined && !isRequestId(meta.progressToken)) {
    return `its ${where}._meta.progressToken is neither a string nor an integer`;
  }
  const task = meta["io.modelcontextprotocol/related-task"];
  if (task !== undefined && !(isRecord(task) && typeof task.taskId === "string")) {
    return `its ${where}._meta["io.modelcontextprotocol/related-task"] has no text taskId`;
  }
  return undefined;
}

/**
 * The message (one {@linkcode messageProblem} passed) with only the
 * JSON-RPC members of its kind, as it is relayed: other top-level members
 * mean nothing to JSON-RPC, and an SDK peer rejects a message that has them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { jsonRpcMembers } from "./json_rpc_message.ts";
 * assert.deepEqual(jsonRpcMembers({ jsonrpc: "2.0", id: 1, method: "ping", trace: "x" }), { jsonrpc: "2.0", id: 1, method: "ping" });
 * const error = { code: -32700, message: "Parse error" };
 * assert.deepEqual(jsonRpcMembers({ jsonrpc: "2.0", id: null, error }), { jsonrpc: "2.0", error });
 * ```
 */
export function jsonRpcMembers(message: Record<string, unknown>): Record<string, unknown> {
  const members = "method" in message ? REQUEST_MEMBERS : RESPONSE_MEMBERS;
  // An error that names no request is written without an id (the MCP SDK refuses a null one and takes none).
  const nullId = !("method" in message) && message.id === null;
  if (!nullId && Object.keys(message).every((name) => members.includes(name))) return message;
  const kept: Record<string, unknown> = {};
  for (const name of members) if (name in message && !(nullId && name === "id")) kept[name] = message[name];
  return kept;
}

/**
 * Text that may hold a number past a 64-bit float (an exponent of three
 * digits, or a run of 309 digits): worth a look. Linear in the text: a run of
 * digits is tried only from its start.
 */
const HUGE_NUMBER = /[eE]\+?\d{3}|(?:^|\D)\d{309}/;

/**
 * Whether a value parsed from `text` holds a number JSON.parse made infinite
 * (`1e400`): written on, it would be `null`, another value than the one pab
 * decided on. The value is walked (iteratively, any depth) only when the text
 * may hold one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { holdsInfinity } from "./json_rpc_message.ts";
 * assert.equal(holdsInfinity('{"a":[1e400]}', { a: [Infinity] }), true);
 * assert.equal(holdsInfinity('{"a":"1e400"}', { a: "1e400" }), false);
 * ```
 */
export function holdsInfinity(text: string, value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (!HUGE_NUMBER.test(text) || typeof value !== "object" || value === null) return false;
  const stack: object[] = [value];
  while (stack.length) {
    const next = stack.pop()!;
    for (const item of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof item === "number" && !Number.isFinite(item)) return true;
      if (typeof item === "object" && item !== null) stack.push(item);
    }
  }
  return false;
}
