/**
 * A call the client cancelled never runs (issue 18, item 6): cancelled while
 * pab asks the user, the question is withdrawn and a late yes does not relay
 * the call; cancelled while the server runs it, the server is told under the
 * id it knows the call by; the session goes on.
 */
import assert from "node:assert/strict";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
import { McpServer } from "npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js";
import { ElicitRequestSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import * as z from "zod";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { McpRelay } from "../adapters/mcp/mod.ts";

const POLICY = parsePolicy(`version: 1
tools:
  tools/list: {output: trusted}
  read_inbox: {output: untrusted, on_tainted: allow}
  slow: {output: trusted, on_tainted: allow}
  send_email: {output: trusted, on_tainted: confirm}
`);

async function session() {
  const sent: string[] = [];
  const slowAborted: boolean[] = [];
  const server = new McpServer({ name: "inbox", version: "1" });
  server.registerTool(
    "read_inbox",
    {},
    () => ({ content: [{ type: "text" as const, text: "mail bob@corp.example" }] }),
  );
  server.registerTool("send_email", { inputSchema: { to: z.string() } }, ({ to }: { to: string }) => {
    sent.push(to);
    return { content: [{ type: "text" as const, text: `sent to ${to}` }] };
  });
  server.registerTool("slow", {}, async (extra: { signal: AbortSignal }) => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    slowAborted.push(extra.signal.aborted);
    return { content: [{ type: "text" as const, text: "done" }] };
  });
  const [clientSide, agentSide] = InMemoryTransport.createLinkedPair();
  const [serverSide, toolSide] = InMemoryTransport.createLinkedPair();
  await server.connect(toolSide);
  const log: string[] = [];
  const relay = new McpRelay({ policy: POLICY, client: clientSide, server: serverSide, log: (line) => log.push(line) });
  await relay.start();
  const client = new Client({ name: "agent", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  const questions: { signal: AbortSignal; answer: (allow: boolean) => void }[] = [];
  client.setRequestHandler(
    ElicitRequestSchema,
    (_request: unknown, extra: { signal: AbortSignal }) =>
      new Promise((resolve) => {
        questions.push({
          signal: extra.signal,
          answer: (allow) => resolve({ action: "accept", content: { allow } }),
        });
      }),
  );
  await client.connect(agentSide);
  return {
    client,
    sent,
    slowAborted,
    questions,
    log,
    close: async () => {
      await client.close();
      await relay.close();
      await server.close();
    },
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(check());
};

Deno.test("McpRelay withdraws the question of a call the client cancelled, and a late yes does not run it", async () => {
  const s = await session();
  try {
    await s.client.callTool({ name: "read_inbox", arguments: {} });
    const abort = new AbortController();
    const call = s.client.callTool({ name: "send_email", arguments: { to: "bob@corp.example" } }, undefined, {
      signal: abort.signal,
    });
    await until(() => s.questions.length === 1);
    abort.abort("the user moved on");
    await assert.rejects(call);
    await until(() => s.questions[0].signal.aborted);
    s.questions[0].answer(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(s.sent, []);
    assert.ok(s.log.some((line) => /cancelled tools\/call .*: not relayed/.test(line)), s.log.join("\n"));
    // The session goes on: the same call, asked again and allowed, runs once.
    const again = s.client.callTool({ name: "send_email", arguments: { to: "bob@corp.example" } });
    await until(() => s.questions.length === 2);
    s.questions[1].answer(true);
    await again;
    assert.deepEqual(s.sent, ["bob@corp.example"]);
  } finally {
    await s.close();
  }
});

Deno.test("McpRelay cancels a call the server runs under the id the server knows it by", async () => {
  const s = await session();
  try {
    const abort = new AbortController();
    const call = s.client.callTool({ name: "slow", arguments: {} }, undefined, { signal: abort.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    abort.abort("enough");
    await assert.rejects(call);
    await until(() => s.slowAborted.length === 1);
    assert.deepEqual(s.slowAborted, [true]);
    assert.ok(s.log.some((line) => /cancelled tools\/call .*: cancelled at the server/.test(line)), s.log.join("\n"));
  } finally {
    await s.close();
  }
});
