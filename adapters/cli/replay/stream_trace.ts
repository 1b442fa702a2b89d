/**
 * Replay a trace file for `pab check` as it is read: a pab trace line by
 * line in bounded memory, any other format (a single JSON document) whole.
 *
 * @module
 */
import type { GuardOptions, Policy } from "../../../guard/mod.ts";
import {
  detectTraceFormat,
  type NumberedEvent,
  openPabTrace,
  replayEvents,
  textLines,
  type TraceEvent,
  type TraceReplay,
} from "../../trace/mod.ts";
import { type Io, isStdin } from "../io/io.ts";
import { callLines, parseTrace } from "./load_trace.ts";
import { readInputChunks } from "../io/read_input.ts";

/**
 * One trace file, replayed.
 *
 * @example
 * ```ts
 * import type { ReplayedFile } from "./stream_trace.ts";
 * const replayed: ReplayedFile = { file: "t.jsonl", lines: new Map([["c1", 2]]), replay: { trace: "t", calls: [] } };
 * ```
 */
export interface ReplayedFile {
  /** The path as given (`-` for standard input). */
  readonly file: string;
  /** The line of each tool call, by call id. */
  readonly lines: ReadonlyMap<string, number>;
  /** Every call with pab's decision. */
  readonly replay: TraceReplay;
}

/**
 * Read and replay the trace at `path` under `policy`. A pab trace (its first
 * line is a JSON object with `"pab"` or `"type"`) is read and replayed one
 * line at a time: only the current line, the calls' decisions and the guard's
 * own state are held, never the trace. Other formats are JSON documents and
 * are read whole. Throws the errors of `readInputText()` and
 * `TraceError` naming the file and line of the first problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replayTraceFile } from "./stream_trace.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * import { parsePolicy } from "../../../guard/policy/text/mod.ts";
 * const { io } = memoryIo({
 *   files: { "t.jsonl": '{"pab":"trace","schemaVersion":1,"id":"t"}\n\n{"type":"call","id":"c1","tool":"x","args":{}}\n' },
 * });
 * const replayed = await replayTraceFile("t.jsonl", io, parsePolicy("version: 1\n"));
 * assert.equal(replayed.lines.get("c1"), 3);
 * assert.equal(replayed.replay.calls[0].decision, "allow");
 * ```
 */
export async function replayTraceFile(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  policy: Policy,
  options: { readonly maxBytes?: number; readonly guard?: GuardOptions } = {},
): Promise<ReplayedFile> {
  const source = isStdin(path) ? "-" : path;
  const lines = textLines(readInputChunks(path, io, { what: "trace", maxBytes: options.maxBytes }))[
    Symbol.asyncIterator
  ]();
  // Peek at the first line with text to tell a pab trace (JSONL) from a JSON document.
  const head: string[] = [];
  let first: string | undefined;
  while (true) {
    const next = await lines.next();
    if (next.done) break;
    head.push(next.value);
    if (!next.value.trim()) continue;
    first = next.value;
    break;
  }
  const rest = async function* () {
    yield* head;
    while (true) {
      const next = await lines.next();
      if (next.done) return;
      yield next.value;
    }
  };
  // A pab trace's first line is its header (or, wrongly, an event: the reader names the line).
  if (first !== undefined && detectTraceFormat(first) === "pab") {
    const trace = await openPabTrace(rest(), { source });
    const callLine = new Map<string, number>();
    const replay = await replayEvents(trace.id, noteCallLines(trace.events, callLine), policy, {
      guard: options.guard,
    });
    return { file: path, lines: callLine, replay };
  }
  const all: string[] = [];
  for await (const line of rest()) all.push(line);
  const text = all.join("\n");
  const trace = parseTrace(text, source);
  const replay = await replayEvents(trace.id, toAsync(trace.events), policy, { guard: options.guard });
  return { file: path, lines: callLines(text, trace), replay };
}

/** The events, noting the line of each call in `lines` as it passes. */
async function* noteCallLines(
  events: AsyncIterable<NumberedEvent>,
  lines: Map<string, number>,
): AsyncGenerator<TraceEvent> {
  for await (const { line, event } of events) {
    if (event.type === "call") lines.set(event.id, line);
    yield event;
  }
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
