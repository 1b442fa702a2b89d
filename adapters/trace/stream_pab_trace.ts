/**
 * Read a pab trace as a stream, one line at a time, so that a trace of any
 * length is checked and replayed in bounded memory.
 *
 * @module
 */
import { type PabTraceHeader, pabTraceLines } from "./read_pab_trace.ts";
import { noMessages } from "./read_trace.ts";
import type { ReadTraceOptions, TraceEvent } from "./trace.ts";

/**
 * One event of a streamed trace and the line it is on.
 *
 * @example
 * ```ts
 * import type { NumberedEvent } from "./stream_pab_trace.ts";
 * const event: NumberedEvent = { line: 2, event: { type: "user", content: "Read my inbox" } };
 * ```
 */
export interface NumberedEvent {
  /** The line (1-based). */
  readonly line: number;
  /** The event on it. */
  readonly event: TraceEvent;
}

/**
 * A pab trace being read: its header, and its events as they are read.
 *
 * @example
 * ```ts
 * import type { StreamedPabTrace } from "./stream_pab_trace.ts";
 * async function count(trace: StreamedPabTrace): Promise<number> {
 *   let events = 0;
 *   for await (const _ of trace.events) events++;
 *   return events;
 * }
 * ```
 */
export interface StreamedPabTrace extends PabTraceHeader {
  /**
   * The events after the header, each checked as it is read. Iterate once; it
   * throws `TraceError` at the first bad line, and at the end for a trace
   * with nothing but system instructions (as `readTrace` does).
   */
  readonly events: AsyncIterable<NumberedEvent>;
}

/**
 * Split text that arrives in pieces into its lines (without the `\n`; a
 * leading byte order mark is dropped). Holds one line at a time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { textLines } from "./stream_pab_trace.ts";
 * async function* pieces() {
 *   yield "\uFEFFone\ntw";
 *   yield "o\n\nthree";
 * }
 * const lines: string[] = [];
 * for await (const line of textLines(pieces())) lines.push(line);
 * assert.deepEqual(lines, ["one", "two", "", "three"]);
 * ```
 */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  // The pieces of the line not yet ended: each chunk is searched once, so a long line costs its length, not its
  // length times its number of chunks.
  let parts: string[] = [];
  let first = true;
  for await (const raw of chunks) {
    const chunk = first ? raw.replace(/^\uFEFF/, "") : raw;
    if (raw) first = false;
    let start = 0;
    let newline = chunk.indexOf("\n");
    while (newline >= 0) {
      parts.push(chunk.slice(start, newline));
      yield parts.length === 1 ? parts[0] : parts.join("");
      parts = [];
      start = newline + 1;
      newline = chunk.indexOf("\n", start);
    }
    if (start < chunk.length) parts.push(start ? chunk.slice(start) : chunk);
  }
  yield parts.join("");
}

/**
 * Open a pab trace from its lines: read up to the header, check it, and
 * return it with the events still to be read. Throws `TraceError` as
 * `readPabTrace` does, naming the line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openPabTrace } from "./stream_pab_trace.ts";
 * async function* lines() {
 *   yield '{"pab":"trace","schemaVersion":1,"id":"t"}';
 *   yield '{"type":"user","content":"Read my inbox"}';
 *   yield '{"type":"call","id":"c1","tool":"read_inbox","args":{}}';
 * }
 * const trace = await openPabTrace(lines(), { source: "t.jsonl" });
 * assert.equal(trace.id, "t");
 * const seen: string[] = [];
 * for await (const { line, event } of trace.events) seen.push(`${line}:${event.type}`);
 * assert.deepEqual(seen, ["2:user", "3:call"]);
 * ```
 */
export async function openPabTrace(
  lines: AsyncIterable<string>,
  options: ReadTraceOptions = {},
): Promise<StreamedPabTrace> {
  const source = options.source ?? "trace";
  const reader = pabTraceLines(source);
  const iterator = lines[Symbol.asyncIterator]();
  let number = 0;
  while (!reader.header) {
    const next = await iterator.next();
    if (next.done) break;
    reader.line(next.value, ++number);
  }
  const header = reader.end();
  async function* events(): AsyncGenerator<NumberedEvent> {
    let messages = false;
    while (true) {
      const next = await iterator.next();
      if (next.done) break;
      const event = reader.line(next.value, ++number);
      if (!event) continue;
      if (event.type !== "system") messages = true;
      yield { line: number, event };
    }
    if (!messages) throw noMessages(source, "pab");
  }
  return { id: header.id, meta: header.meta, events: events() };
}
