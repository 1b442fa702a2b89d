/**
 * Write a trace as a pab trace (JSONL).
 *
 * @module
 */
import { TRACE_SCHEMA_VERSION } from "./trace.ts";
import type { Trace, TraceEvent } from "./trace.ts";

/**
 * Render a trace as pab trace text: a header line, then one event per line,
 * keys in a fixed order, ending with a newline. {@linkcode readPabTrace}
 * reads it back unchanged.
 *
 * @example
 * ```ts
 * import { formatTrace } from "./format_trace.ts";
 * const text = formatTrace({ id: "demo", meta: {}, events: [{ type: "user", content: "Read my inbox" }] });
 * console.log(text);
 * // {"pab":"trace","schemaVersion":1,"id":"demo","meta":{}}
 * // {"type":"user","content":"Read my inbox"}
 * ```
 */
export function formatTrace(trace: Trace): string {
  const header = { pab: "trace", schemaVersion: TRACE_SCHEMA_VERSION, id: trace.id, meta: trace.meta };
  return [header, ...trace.events.map(orderKeys)].map((line) => JSON.stringify(line)).join("\n") + "\n";
}

function orderKeys(event: TraceEvent): Record<string, unknown> {
  switch (event.type) {
    case "system":
    case "user":
    case "assistant":
      return { type: event.type, content: event.content };
    case "call":
      return {
        type: "call",
        id: event.id,
        tool: event.tool,
        args: event.args,
        ...(event.actor === undefined ? {} : { actor: event.actor }),
      };
    case "result":
      return {
        type: "result",
        id: event.id,
        content: event.content,
        ...(event.data === undefined ? {} : { data: event.data }),
        ...(event.error === undefined ? {} : { error: event.error }),
      };
  }
}
