/**
 * Read a trace in any format pab knows, telling the format from the content.
 *
 * @module
 */
import { TraceError } from "./trace_error.ts";
import { readOpenAiLog } from "./read_openai_log.ts";
import { readPabTrace } from "./read_pab_trace.ts";
import type { ReadTraceOptions, Trace } from "./trace.ts";

/**
 * The trace formats pab reads.
 *
 * @example
 * ```ts
 * import type { TraceFormat } from "./read_trace.ts";
 * const format: TraceFormat = "openai";
 * ```
 */
export type TraceFormat = "pab" | "openai";

/**
 * Which format a trace's text is in: a pab trace (JSONL whose first line is a
 * `{"pab":"trace",...}` header) or an OpenAI chat-completions log (a JSON
 * array of messages, or an object with `messages`). Text that is neither is
 * reported as `pab`, so that reading it names the line that is wrong.
 *
 * @example
 * ```ts
 * import { detectTraceFormat } from "./read_trace.ts";
 * console.log(detectTraceFormat('{"pab":"trace","schemaVersion":1,"id":"t"}\n')); // "pab"
 * console.log(detectTraceFormat('[{"role":"user","content":"hi"}]')); // "openai"
 * ```
 */
export function detectTraceFormat(text: string): TraceFormat {
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body.startsWith("[")) return "openai";
  const firstLine = body.split("\n", 1)[0];
  const first = tryParse(firstLine);
  if (isPlainObject(first) && Object.hasOwn(first, "pab")) return "pab";
  const whole = first === undefined || firstLine.length !== body.trimEnd().length ? tryParse(body) : first;
  if (isPlainObject(whole) && Object.hasOwn(whole, "messages")) return "openai";
  return "pab";
}

/**
 * Read a trace, telling its format from the content. Throws
 * {@linkcode TraceError} naming the file and line of the first problem.
 *
 * @example
 * ```ts
 * import { readTrace } from "./read_trace.ts";
 * const trace = readTrace(JSON.stringify({ messages: [{ role: "user", content: "Read my inbox" }] }), { source: "log.json" });
 * console.log(trace.events); // [{ type: "user", content: "Read my inbox" }]
 * ```
 */
export function readTrace(text: string, options: ReadTraceOptions = {}): Trace {
  if (typeof text !== "string") throw new TypeError("Cannot read a trace: pass its text as a string");
  if (!text.replace(/^\uFEFF/, "").trim()) {
    throw new TraceError(
      `Cannot read trace ${options.source ?? "trace"}:1: the file is empty ` +
        `(write a pab trace, starting with a {"pab":"trace",...} header line, or an OpenAI message log)`,
    );
  }
  return detectTraceFormat(text) === "openai" ? readOpenAiLog(text, options) : readPabTrace(text, options);
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
