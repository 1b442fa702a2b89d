/**
 * Read a trace in any format pab knows, telling the format from the content.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";
import { checkJsonShape } from "./json_shape.ts";
import { TraceError } from "./trace_error.ts";
import { readAnthropicLog } from "./read_anthropic_log.ts";
import { isClaudeCodeLine, readClaudeCodeLog } from "./read_claude_code_log.ts";
import { jsonRpcMessage, readMcpTraffic } from "./read_mcp_traffic.ts";
import { readOpenAiLog } from "./read_openai_log.ts";
import { readPabTrace } from "./read_pab_trace.ts";
import { readResponsesLog } from "./read_responses_log.ts";
import type { ReadTraceOptions, Trace } from "./trace.ts";
import { parseJson } from "../json/mod.ts";

/**
 * The trace formats pab reads: a pab trace, an OpenAI chat-completions log,
 * an OpenAI Responses API log, an Anthropic Messages log.
 *
 * @example
 * ```ts
 * import type { TraceFormat } from "./read_trace.ts";
 * const format: TraceFormat = "anthropic";
 * ```
 */
export type TraceFormat = "pab" | "openai" | "openai-responses" | "anthropic" | "claude-code" | "mcp";

/** What every "not a trace" error lists: the formats, and how each one starts. */
const EXPECTED = 'expected a pab trace (JSONL starting with a {"pab":"trace",...} header line), ' +
  'an OpenAI chat log (an array of messages, or {"messages":[...]}), ' +
  'an OpenAI Responses log (an array of items, or {"input":[...]} / {"output":[...]}), ' +
  'an Anthropic Messages log ({"system":...,"messages":[...]}), ' +
  "a Claude Code transcript (JSONL, as under ~/.claude/projects/), " +
  'or MCP traffic (JSONL of JSON-RPC messages, {"jsonrpc":"2.0",...})';
/** Formats read line by line (each line's shape is checked by its reader). */
const JSONL_FORMATS: ReadonlySet<TraceFormat> = new Set(["pab", "claude-code", "mcp"]);
const RESPONSES_ITEMS = new Set([
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "reasoning",
]);
const RESPONSES_PARTS = new Set(["input_text", "output_text"]);
const ANTHROPIC_BLOCKS = new Set(["tool_use", "tool_result", "thinking"]);

/**
 * Which format a trace's text is in, told from its content: a pab trace
 * (JSONL; its first line is a `{"pab":"trace",...}` header, or at least a JSON
 * object, so that reading it names the line that is wrong), an OpenAI chat
 * log, an OpenAI Responses log or an Anthropic Messages log. `undefined` when
 * it is none of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectTraceFormat } from "./read_trace.ts";
 * assert.equal(detectTraceFormat('{"pab":"trace","schemaVersion":1,"id":"t"}\n'), "pab");
 * assert.equal(detectTraceFormat('[{"role":"user","content":"hi"}]'), "openai");
 * assert.equal(detectTraceFormat('{"input":[{"type":"function_call_output","call_id":"c","output":"x"}]}'), "openai-responses");
 * assert.equal(detectTraceFormat('{"system":"Be brief.","messages":[]}'), "anthropic");
 * assert.equal(detectTraceFormat("hello"), undefined);
 * ```
 */
export function detectTraceFormat(text: string): TraceFormat | undefined {
  const body = text.replace(/^\uFEFF/, "").trim();
  const whole = tryParse(body);
  if (Array.isArray(whole)) return listFormat(whole);
  if (isRecord(whole)) {
    const line = lineFormat(whole);
    if (line) return line;
    if (Array.isArray(whole.messages)) {
      return Object.hasOwn(whole, "system") || listFormat(whole.messages) === "anthropic" ? "anthropic" : "openai";
    }
    if (Object.hasOwn(whole, "input") || Object.hasOwn(whole, "output")) return "openai-responses";
    if (Object.hasOwn(whole, "messages")) return "openai";
    return undefined;
  }
  if (whole !== undefined) return undefined;
  const first = tryParse(body.split("\n", 1)[0]);
  return isRecord(first) ? lineFormat(first) ?? "pab" : undefined;
}

/** The JSONL format a line belongs to, if it tells: a pab header or event, a JSON-RPC message, a Claude Code line. */
function lineFormat(line: Record<string, unknown>): TraceFormat | undefined {
  if (Object.hasOwn(line, "pab")) return "pab";
  if (jsonRpcMessage(line)) return "mcp";
  if (isClaudeCodeLine(line)) return "claude-code";
  return Object.hasOwn(line, "type") ? "pab" : undefined;
}

/**
 * Read a trace, telling its format from the content. Throws
 * {@linkcode TraceError} naming the file and line of the first problem, and
 * also for a file that is none of the formats or holds no messages (nothing
 * but system instructions, if that): a log that reads as "0 calls" must never
 * pass a check by accident.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readTrace } from "./read_trace.ts";
 * const trace = readTrace(JSON.stringify({ messages: [{ role: "user", content: "Read my inbox" }] }), { source: "log.json" });
 * assert.deepEqual(trace.events, [{ type: "user", content: "Read my inbox" }]);
 * assert.throws(() => readTrace('{"messages":[]}', { source: "log.json" }), /log\.json: it holds no messages/);
 * assert.throws(() => readTrace('{"model":"x"}', { source: "log.json" }), /log\.json:1: not a trace pab reads/);
 * ```
 */
export function readTrace(text: string, options: ReadTraceOptions = {}): Trace {
  if (typeof text !== "string") throw new TypeError("Cannot read a trace: pass its text as a string");
  const source = options.source ?? "trace";
  if (!text.replace(/^\uFEFF/, "").trim()) {
    throw new TraceError(`Cannot read trace ${source}:1: the file is empty (${EXPECTED})`);
  }
  const format = detectTraceFormat(text);
  if (!format) throw new TraceError(`Cannot read trace ${source}:1: not a trace pab reads (${EXPECTED})`);
  if (!JSONL_FORMATS.has(format)) checkJsonShape(text.replace(/^\uFEFF/, ""), source);
  const trace = READERS[format](text, options);
  if (!trace.events.some((event) => event.type !== "system")) throw noMessages(source, format);
  return trace;
}

/** The error for a trace with nothing but system instructions: it would pass a check as 0 calls. */
export function noMessages(source: string, format: TraceFormat): TraceError {
  return new TraceError(
    `Cannot read trace ${source}: it holds no messages (a ${FORMAT_NAMES[format]} with at least one user, ` +
      "assistant or tool message is expected; an empty log would pass a check as 0 calls)",
  );
}

const READERS: Readonly<Record<TraceFormat, (text: string, options: ReadTraceOptions) => Trace>> = {
  pab: readPabTrace,
  openai: readOpenAiLog,
  "openai-responses": readResponsesLog,
  anthropic: readAnthropicLog,
  "claude-code": readClaudeCodeLog,
  mcp: readMcpTraffic,
};

const FORMAT_NAMES: Readonly<Record<TraceFormat, string>> = {
  pab: "pab trace",
  openai: "OpenAI chat log",
  "openai-responses": "OpenAI Responses log",
  anthropic: "Anthropic Messages log",
  "claude-code": "Claude Code transcript",
  mcp: "MCP traffic log",
};

/** The format of a JSON array: Responses items, Anthropic messages, or (by default) OpenAI chat messages. */
function listFormat(list: readonly unknown[]): TraceFormat {
  for (const item of list) {
    if (!isRecord(item)) continue;
    if (typeof item.type === "string" && RESPONSES_ITEMS.has(item.type) && item.type !== "message") {
      return "openai-responses";
    }
    if (Array.isArray(item.content)) {
      for (const part of item.content) {
        if (!isRecord(part) || typeof part.type !== "string") continue;
        if (RESPONSES_PARTS.has(part.type)) return "openai-responses";
        if (ANTHROPIC_BLOCKS.has(part.type)) return "anthropic";
      }
    }
    if (item.type === "message") return "openai-responses";
  }
  return "openai";
}

function tryParse(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}
