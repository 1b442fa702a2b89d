/**
 * Read a Claude Code transcript (the JSONL session file under
 * `~/.claude/projects/`) as a trace. Each `user` or `assistant` line holds an
 * Anthropic message in `message`: the user's words, the model's `tool_use`
 * calls (`Bash`, `Read`, `mcp__server__tool`, ...) and the `tool_result`
 * blocks that answer them, read with the Anthropic reader's checks. Lines
 * Claude Code adds for itself (`isMeta` notes, summaries, snapshots, progress)
 * are skipped; a non-text block inside a tool result (an image) is kept as a
 * placeholder, so the result still counts as read.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";
import { jsonLines } from "./json_lines.ts";
import { MessageReader } from "./read_anthropic_log.ts";
import { traceFailure as fail } from "./read_json_log.ts";
import type { ReadTraceOptions, Trace, TraceEvent } from "./trace.ts";

const FIX = "a Claude Code transcript holds one JSON object per line, as Claude Code writes it";

/**
 * Whether a parsed JSONL line looks like a Claude Code transcript line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isClaudeCodeLine } from "./read_claude_code_log.ts";
 * assert.equal(isClaudeCodeLine({ type: "summary", summary: "x", leafUuid: "u" }), true);
 * assert.equal(isClaudeCodeLine({ type: "user", content: "hi" }), false); // a pab trace event
 * ```
 */
export function isClaudeCodeLine(value: Record<string, unknown>): boolean {
  if (["uuid", "parentUuid", "sessionId", "leafUuid"].some((key) => Object.hasOwn(value, key))) return true;
  return isRecord(value.message) && (value.type === "user" || value.type === "assistant");
}

/**
 * Convert a Claude Code transcript to a trace. Throws `TraceError` naming the
 * file and line of the first problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readClaudeCodeLog } from "./read_claude_code_log.ts";
 * const lines = [
 *   { type: "user", sessionId: "s", message: { role: "user", content: "Fix the failing test" } },
 *   { type: "assistant", sessionId: "s", message: { role: "assistant", content: [
 *     { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "npm test" } },
 *   ] } },
 *   { type: "user", sessionId: "s", message: { role: "user", content: [
 *     { type: "tool_result", tool_use_id: "toolu_1", content: "1 failing" },
 *   ] }, toolUseResult: { stdout: "1 failing", stderr: "" } },
 * ];
 * const trace = readClaudeCodeLog(lines.map((line) => JSON.stringify(line)).join("\n"), { source: "s.jsonl" });
 * assert.deepEqual(trace.events.map((event) => event.type), ["user", "call", "result"]);
 * ```
 */
export function readClaudeCodeLog(text: string, options: ReadTraceOptions = {}): Trace {
  const source = options.source ?? "trace";
  const events: TraceEvent[] = [];
  const reader = new MessageReader(events);
  let session: string | undefined;
  let cwd: string | undefined;
  for (const { value, where } of jsonLines(text, source, FIX)) {
    if (!isRecord(value)) throw fail(where, "expected a JSON object", FIX);
    if (typeof value.sessionId === "string") session ??= value.sessionId;
    if (typeof value.cwd === "string") cwd ??= value.cwd;
    if ((value.type !== "user" && value.type !== "assistant") || value.isMeta === true) continue;
    if (!isRecord(value.message)) throw fail(where, `a ${value.type} line needs a "message" object`, FIX);
    reader.read(withTextResults(value.message), where);
  }
  return Object.freeze({
    id: session ?? source,
    meta: Object.freeze({
      format: "claude-code-transcript",
      ...(session ? { sessionId: session } : {}),
      ...(cwd ? { cwd } : {}),
    }),
    events: Object.freeze(events),
  });
}

/** The message with every non-text block inside a tool_result written as a placeholder text block. */
function withTextResults(message: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(message.content)) return message;
  const content = message.content.map((block: unknown) => {
    if (!isRecord(block) || block.type !== "tool_result" || !Array.isArray(block.content)) return block;
    return {
      ...block,
      content: block.content.map((part: unknown) =>
        isRecord(part) && part.type === "text"
          ? part
          : { type: "text", text: `[${isRecord(part) ? String(part.type) : typeof part} block: not text]` }
      ),
    };
  });
  return { ...message, content };
}
