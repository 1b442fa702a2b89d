/**
 * Every request the client sends through `pab mcp` is answered exactly once,
 * whatever the server does with each request it gets (answers it, fails it,
 * answers with a cut line or with what the MCP SDK rejects, or never answers)
 * and whether the client closes its input or the server goes away first
 * (issue 18, item 6). Both sides speak newline-delimited JSON-RPC over byte
 * streams, as over stdio.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { McpRelay } from "../adapters/mcp/mod.ts";
import { LineTransport } from "../adapters/mcp/line_transport.ts";

const POLICY = parsePolicy(
  "version: 1\ntools:\n  tools/list: {output: trusted}\n  echo: {output: trusted, on_tainted: allow}\n",
);

type Fate = "answer" | "error" | "cut" | "not-mcp" | "ignore";
const fate = fc.constantFrom<Fate>("answer", "error", "cut", "not-mcp", "ignore");

/** Lines written to, and read from, one side of the relay. */
function side() {
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const output = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const transport = new LineTransport({ readable: input.readable, writable: output.writable });
  const read: Record<string, unknown>[] = [];
  let onLine: (message: Record<string, unknown>) => void = () => {};
  const done = (async () => {
    let pending = "";
    for await (const chunk of output.readable.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      for (let end; (end = pending.indexOf("\n")) >= 0; pending = pending.slice(end + 1)) {
        const message = JSON.parse(pending.slice(0, end));
        read.push(message);
        onLine(message);
      }
    }
  })();
  const write = (line: string) => writer.write(new TextEncoder().encode(`${line}\n`)).catch(() => {});
  return {
    transport,
    read,
    done,
    write,
    end: () => writer.close().catch(() => {}),
    on: (handler: (message: Record<string, unknown>) => void) => onLine = handler,
  };
}

Deno.test("McpRelay answers every client request exactly once, whatever the server does and whoever ends first (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom("ping", "tools/call"), fate), { minLength: 1, maxLength: 5 }),
      fate,
      fc.boolean(),
      async (requests, listFate, clientEndsFirst) => {
        const client = side();
        const server = side();
        const fates = new Map<string, Fate>();
        server.on((message) => {
          if (message.id === undefined || typeof message.method !== "string") return;
          const id = JSON.stringify(message.id);
          const what = message.method === "tools/list"
            ? listFate
            : fates.get(message.method === "tools/call" ? "call" : `ping:${id}`) ?? "answer";
          const result = message.method === "tools/list"
            ? { tools: [{ name: "echo", inputSchema: { type: "object" } }] }
            : message.method === "tools/call"
            ? { content: [{ type: "text", text: "echoed" }] }
            : {};
          if (what === "answer") void server.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
          if (what === "error") {
            void server.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: 1, message: "no" } }));
          }
          if (what === "cut") void server.write(`{"jsonrpc":"2.0","id":${id},"result":{"con`);
          if (what === "not-mcp") void server.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: [1] }));
        });
        const relay = new McpRelay({ policy: POLICY, client: client.transport, server: server.transport });
        await relay.start();
        for (const [i, [method, what]] of requests.entries()) {
          const id = i + 1;
          // A relayed call reaches the server under pab's id: its fate is looked up by method (one call at a time).
          if (method === "ping") fates.set(`ping:${id}`, what);
          else fates.set("call", what);
          const params = method === "tools/call" ? { name: "echo", arguments: {} } : {};
          await client.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
          if (method === "tools/call") {
            // Wait for the call to be settled at the server before the next one takes "call".
            for (let t = 0; t < 50 && !client.read.some((m) => m.id === id); t++) {
              await new Promise((resolve) => setTimeout(resolve, 2));
            }
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (clientEndsFirst) {
          await client.end();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await server.end();
        await relay.closed;
        await client.done;
        for (const id of requests.map((_, i) => i + 1)) {
          const answers = client.read.filter((m) => m.id === id && !("method" in m));
          assert.equal(answers.length, 1, `id ${id}: ${JSON.stringify(client.read)}`);
        }
      },
    ),
    { numRuns: 60 },
  );
});
