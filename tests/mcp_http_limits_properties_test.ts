/**
 * The size limit on a Streamable HTTP server's messages (`pab mcp --url`):
 * however the bytes are cut into chunks, an event stream passes whole exactly
 * when every event is within the limit, and otherwise is cut once.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { limitMessages } from "../adapters/mcp/http_limits.ts";

/** `bytes` cut at the given points. */
function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces = [0, ...points, bytes.length].flatMap((at, i, all) => i ? [bytes.slice(all[i - 1], at)] : []);
  return ReadableStream.from(pieces.filter((piece) => piece.length));
}

Deno.test("limitMessages() passes an event stream whole iff every event fits, however it is chunked (property)", async () => {
  await fc.assert(fc.asyncProperty(
    fc.array(fc.tuple(fc.nat({ max: 80 }), fc.constantFrom("\n\n", "\r\n\r\n")), { minLength: 1, maxLength: 8 }),
    fc.array(fc.nat(), { maxLength: 6 }),
    fc.integer({ min: 8, max: 64 }),
    async (events, cuts, max) => {
      // Each event: "data: " and its payload, then its end; its size is what is not a line end.
      const text = events.map(([size, end]) => `data: ${"x".repeat(size)}${end}`).join("");
      const fits = events.every(([size]) => 6 + size <= max);
      let over = 0;
      const stream = chunked(new TextEncoder().encode(text), cuts).pipeThrough(limitMessages(max, true, () => over++));
      const read = await new Response(stream).text().then((body) => body, () => undefined);
      assert.equal(read, fits ? text : undefined);
      assert.equal(over, fits ? 0 : 1);
    },
  ));
});

Deno.test("limitMessages() holds a JSON answer to the limit as a whole (property)", async () => {
  await fc.assert(fc.asyncProperty(fc.nat({ max: 200 }), fc.array(fc.nat(), { maxLength: 6 }), async (size, cuts) => {
    const text = JSON.stringify({ text: "y".repeat(size) });
    let over = 0;
    const stream = chunked(new TextEncoder().encode(text), cuts).pipeThrough(limitMessages(100, false, () => over++));
    const read = await new Response(stream).text().then((body) => body, () => undefined);
    assert.equal(read, text.length <= 100 ? text : undefined);
    assert.equal(over, text.length <= 100 ? 0 : 1);
  }));
});
