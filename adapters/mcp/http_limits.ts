/**
 * The size limit on what a Streamable HTTP server sends: a JSON answer as a
 * whole, and each event of a server-sent event stream, may be no longer than
 * the limit `pab mcp` applies to stdio lines. Counted as the bytes arrive, so
 * an oversized message is never held whole.
 *
 * @module
 */
import { parseJson } from "../json/mod.ts";

const LF = 0x0a;
const CR = 0x0d;

/**
 * A byte stream that passes `body` through while each message in it stays
 * within `maxBytes`: for `text/event-stream`, each event (up to a blank
 * line); otherwise the whole body. On the first message over the limit it
 * calls `onTooLarge` once and errors the stream.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { limitMessages } from "./http_limits.ts";
 * const events = "data: 1\n\n" + `data: ${"x".repeat(64)}\n\n`;
 * let over = 0;
 * const stream = new Response(events).body!.pipeThrough(limitMessages(32, true, () => over++));
 * await assert.rejects(new Response(stream).text(), /larger than 32 bytes/);
 * assert.equal(over, 1);
 * assert.equal(await new Response(new Response("data: 1\n\n").body!.pipeThrough(limitMessages(32, true, () => {}))).text(), "data: 1\n\n");
 * ```
 */
export function limitMessages(
  maxBytes: number,
  eventStream: boolean,
  onTooLarge: () => void,
): TransformStream<Uint8Array, Uint8Array> {
  let run = 0;
  let atLineStart = true;
  return new TransformStream({
    transform(chunk, controller) {
      if (!eventStream) run += chunk.byteLength;
      else {
        for (const byte of chunk) {
          if (byte === LF) {
            // A line feed at the start of a line is a blank line: the event ends.
            if (atLineStart) run = 0;
            atLineStart = true;
          } else if (byte !== CR) {
            atLineStart = false;
            run++;
          }
          if (run > maxBytes) break;
        }
      }
      if (run > maxBytes) {
        onTooLarge();
        controller.error(new Error(`the server sent a message larger than ${maxBytes} bytes`));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/**
 * The ids of the JSON-RPC requests in a request body (one message or a
 * batch), so that an answer cut for its size can be given to them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestIds } from "./http_limits.ts";
 * assert.deepEqual(requestIds('{"jsonrpc":"2.0","id":3,"method":"tools/call"}'), [3]);
 * assert.deepEqual(requestIds('{"jsonrpc":"2.0","method":"notifications/initialized"}'), []);
 * assert.deepEqual(requestIds(undefined), []);
 * ```
 */
export function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== "string") return [];
  let parsed: unknown;
  try {
    parsed = parseJson(body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((message) => {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    return typeof method === "string" && (typeof id === "string" || typeof id === "number") ? [id] : [];
  });
}
