/**
 * A server that never answers pab's own `tools/list` holds no call for ever
 * (issue 18, item 6): past the relay's `listTimeoutMs`, the listing ends with
 * what came, the call is decided and relayed, and the session goes on.
 */
import assert from "node:assert/strict";
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { McpRelay } from "../adapters/mcp/mod.ts";

const POLICY = parsePolicy("version: 1\ntools:\n  echo: {output: trusted, on_tainted: allow}\n");

Deno.test("McpRelay decides a call when the server never answers its tools/list, once listTimeoutMs passed", async () => {
  const [clientSide, agent] = InMemoryTransport.createLinkedPair();
  const [serverSide, tools] = InMemoryTransport.createLinkedPair();
  const lists: unknown[] = [];
  tools.onmessage = (message: Record<string, unknown>) => {
    if (message.method === "tools/list") return void lists.push(message.id); // never answered
    if (message.method === "tools/call") {
      void tools.send({
        jsonrpc: "2.0",
        id: message.id as string,
        result: { content: [{ type: "text", text: "ok" }] },
      });
    }
  };
  const answers: Record<string, unknown>[] = [];
  agent.onmessage = (message: Record<string, unknown>) => void answers.push(message);
  const log: string[] = [];
  const relay = new McpRelay({
    policy: POLICY,
    client: clientSide,
    server: serverSide,
    listTimeoutMs: 50,
    log: (line) => log.push(line),
  });
  await relay.start();
  await tools.start();
  await agent.start();
  try {
    await agent.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } });
    for (let i = 0; i < 100 && !answers.length; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(answers, [{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ok" }] } }]);
    assert.equal(lists.length, 1);
    assert.ok(log.includes("pab mcp: the server did not answer tools/list within 0.05 s"), log.join("\n"));
  } finally {
    await relay.close();
  }
});
