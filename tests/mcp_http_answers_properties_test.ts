/**
 * `pab mcp --url` answers every request, whatever the server answers its
 * POST with (issue 18, item 6): the MCP SDK drops an answer with
 * another id, an event that is not a message, or a stream that ends before
 * the response, and the request would wait for ever; pab answers it with a
 * coded error instead, and an answer the SDK fails on names what it got. A
 * stream whose events carry ids is resumable: the SDK resumes it, so pab does
 * not answer for it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { HttpServerTransport } from "../adapters/mcp/http_transport.ts";
import { watchAnswerEnd } from "../adapters/mcp/http_answer_end.ts";

type Part = "response" | "other-id" | "notification" | "not-json" | "not-mcp" | "comment" | "accepted";

const event = (data: string) => `event: message\ndata: ${data}\n\n`;
function partText(part: Part, id: number): string {
  switch (part) {
    case "response":
      return JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } });
    case "other-id":
      return JSON.stringify({ jsonrpc: "2.0", id: id + 1000, result: {} });
    case "notification":
      return JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } });
    case "not-json":
      return "{not json";
    case "not-mcp":
      return JSON.stringify({ jsonrpc: "2.0", id, result: ["not", "an", "object"] });
    case "comment":
    case "accepted":
      return "";
  }
}

/** A server whose answer to every POST is the body the test chose for it. */
function serve(answer: (id: number) => Response) {
  const server = Deno.serve({ hostname: "localhost", port: 0, onListen: () => {} }, async (request) => {
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const message = await request.json();
    return message.id === undefined ? new Response(null, { status: 202 }) : answer(message.id);
  });
  return { url: new URL(`http://localhost:${server.addr.port}/mcp`), close: () => server.shutdown() };
}

const part = fc.constantFrom<Part>(
  "response",
  "other-id",
  "notification",
  "not-json",
  "not-mcp",
  "comment",
  "accepted",
);

Deno.test("HttpServerTransport answers each request, with an error only when the server gave no response, whatever the server's answer holds (property)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.boolean(), fc.array(part, { maxLength: 4 }), async (stream, parts) => {
      const server = serve((id) => {
        // HTTP 202 with no body: taken, never answered.
        if (parts[0] === "accepted") return new Response(null, { status: 202 });
        if (!stream) {
          return new Response(parts.length ? partText(parts[0], id) : "", {
            headers: { "content-type": "application/json" },
          });
        }
        const body = parts.map((p) => p === "comment" ? ": hi\n\n" : event(partText(p, id))).join("");
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      });
      const transport = new HttpServerTransport(server.url);
      const got: Record<string, unknown>[] = [];
      transport.onmessage = (message) => void got.push(message as Record<string, unknown>);
      transport.onerror = () => {};
      try {
        await transport.start();
        await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" });
        for (let i = 0; i < 100 && !got.some((m) => m.id === 1); i++) await new Promise((r) => setTimeout(r, 5));
        await new Promise((resolve) => setTimeout(resolve, 30));
        const answers = got.filter((m) => m.id === 1 && !("method" in m));
        // Each response the server sent passes (the relay drops a second one), and pab adds an error only for none.
        const sent = parts[0] === "accepted"
          ? 0
          : stream
          ? parts.filter((p) => p === "response").length
          : Number(parts[0] === "response");
        assert.equal(answers.length, Math.max(1, sent), JSON.stringify({ stream, parts, got }));
        if (sent) {
          assert.deepEqual(answers[0].result, { content: [] });
        } else {
          const error = answers[0].error as { code: number; message: string };
          assert.equal(error.code, -32000);
          assert.match(error.message, /^pab mcp: the MCP server at http:\/\/localhost:\d+\/mcp /);
          assert.doesNotMatch(error.message, /cannot reach/);
        }
      } finally {
        await transport.close();
        await server.close();
      }
    }),
    { numRuns: 40 },
  );
});

Deno.test("watchAnswerEnd() reports the end once, resumable exactly when an event carried an id, however chunked", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom("data: {}\n\n", ": note\n\n", "id: 4\ndata: {}\n\n", "event: x\r\nid:9\r\n\r\n", "\n")),
      fc.array(fc.nat(), { maxLength: 5 }),
      async (lines, cuts) => {
        const bytes = new TextEncoder().encode(lines.join(""));
        const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...points, bytes.length].flatMap((at, i, all) => i ? [bytes.slice(all[i - 1], at)] : []);
        const ends: boolean[] = [];
        const body = ReadableStream.from(pieces.filter((p) => p.length));
        const text = await new Response(watchAnswerEnd(body, (resumable) => ends.push(resumable))).text();
        assert.equal(text, lines.join(""));
        assert.deepEqual(ends, [lines.some((line) => /(^|\n)id:/.test(line))]);
      },
    ),
  );
});
