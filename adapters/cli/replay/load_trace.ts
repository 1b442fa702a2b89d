/**
 * Read a trace for `pab check`: strict UTF-8 with a size limit, and the line
 * of every tool call, so reports can point at it.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { guardArgs } from "../../claude_code/tool_input/mod.ts";
import { detectTraceFormat, readTrace, type Trace, TraceError } from "../../trace/mod.ts";
import { type Io, isStdin } from "../io/io.ts";
import { readInputText } from "../io/read_input.ts";
import { parseJson } from "../../json/mod.ts";

/**
 * A trace and where it came from.
 *
 * @example
 * ```ts
 * import type { CheckedTrace } from "./load_trace.ts";
 * const checked: CheckedTrace = { file: "t.jsonl", trace: { id: "t", meta: {}, events: [] }, lines: new Map() };
 * ```
 */
export interface CheckedTrace {
  /** The path as given (`-` for standard input). */
  readonly file: string;
  /** The trace. */
  readonly trace: Trace;
  /** The line of each tool call, by call id. */
  readonly lines: ReadonlyMap<string, number>;
}

/**
 * Read and parse a trace. Throws the errors of `readInputText()`, and
 * `TraceError` naming the file and line of the first problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadTrace } from "./load_trace.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const { io } = memoryIo({
 *   files: { "t.jsonl": '{"pab":"trace","schemaVersion":1,"id":"t"}\n\n{"type":"call","id":"c1","tool":"x","args":{}}\n' },
 * });
 * const checked = await loadTrace("t.jsonl", io);
 * assert.equal(checked.lines.get("c1"), 3);
 * ```
 */
export async function loadTrace(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  maxBytes?: number,
): Promise<CheckedTrace> {
  const text = await readInputText(path, io, { what: "trace", maxBytes });
  const trace = parseTrace(text, isStdin(path) ? "-" : path);
  return { file: path, trace, lines: callLines(text, trace) };
}

/**
 * Parse a trace's text in any format; any failure is a `TraceError` naming `source`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseTrace } from "./load_trace.ts";
 * assert.equal(parseTrace('{"messages":[{"role":"user","content":"hi"}]}', "log.json").events.length, 1);
 * assert.throws(() => parseTrace("", "t.jsonl"), { code: "ERR_TRACE_INVALID" });
 * ```
 */
export function parseTrace(text: string, source: string): Trace {
  try {
    return withClaudeCodeArgs(readTrace(text, { source }));
  } catch (error) {
    if (error instanceof TraceError) throw error;
    throw new TraceError(`Cannot read trace ${source}: ${errorText(error)}`);
  }
}

/**
 * A Claude Code transcript's calls with the arguments the Claude Code hook
 * judges ({@linkcode guardArgs}: `Bash`'s URLs, hosts and paths, the file
 * tools' paths resolved with the session's `cwd`), so that a replay decides
 * as the hook would have. Any other trace is returned as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withClaudeCodeArgs } from "./load_trace.ts";
 * const trace = withClaudeCodeArgs({
 *   id: "s",
 *   meta: { format: "claude-code-transcript", cwd: "/p" },
 *   events: [{ type: "call", id: "t1", tool: "Edit", args: { file_path: "/p/a.ts" } }],
 * });
 * assert.deepEqual(trace.events[0], { type: "call", id: "t1", tool: "Edit", args: { file_path: "/p/a.ts", path: "a.ts" } });
 * ```
 */
export function withClaudeCodeArgs(trace: Trace): Trace {
  if (trace.meta.format !== "claude-code-transcript") return trace;
  const cwd = typeof trace.meta.cwd === "string" ? trace.meta.cwd : undefined;
  const events = trace.events.map((event) =>
    event.type === "call" ? Object.freeze({ ...event, args: guardArgs(event.tool, event.args, cwd) }) : event
  );
  return Object.freeze({ ...trace, events: Object.freeze(events) });
}

/**
 * The line of each tool call in a trace's text, by call id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callLines } from "./load_trace.ts";
 * import { readTrace } from "../../trace/mod.ts";
 * const text = '{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"call","id":"c1","tool":"x","args":{}}';
 * assert.deepEqual([...callLines(text, readTrace(text))], [["c1", 2]]);
 * ```
 */
export function callLines(text: string, trace: Trace): Map<string, number> {
  const lines = new Map<string, number>();
  const ids = trace.events.flatMap((event) => event.type === "call" ? [event.id] : []);
  if (detectTraceFormat(text) === "pab") {
    const wanted = new Set(ids);
    let line = 0;
    for (const row of text.split("\n")) {
      line++;
      if (!row.includes('"call"')) continue;
      try {
        const value = parseJson(row) as { type?: unknown; id: string } | null;
        if (value?.type === "call" && wanted.has(value.id) && !lines.has(value.id)) lines.set(value.id, line);
      } catch {
        // Not an event line; the reader already accepted the trace.
      }
    }
    return lines;
  }
  for (const id of ids) {
    const match = new RegExp(`"id"\\s*:\\s*${escapeRegExp(JSON.stringify(id))}`).exec(text);
    if (match) lines.set(id, text.slice(0, match.index).split("\n").length);
  }
  return lines;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
