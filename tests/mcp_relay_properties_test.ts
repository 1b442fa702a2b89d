import assert from "node:assert/strict";
import fc from "fast-check";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
import { McpServer } from "npm:@modelcontextprotocol/sdk@1.32.2/server/mcp.js";
import * as z from "zod";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { McpRelay } from "../adapters/mcp/mod.ts";

const POLICY = parsePolicy(`version: 1
tools:
  read_inbox: {output: untrusted, on_tainted: allow}
  get_contacts: {output: trusted, on_tainted: allow}
  send_email:
    output: trusted
    on_tainted: allow
    args:
      to: {require: trusted, on_violation: block}
`);
const ATTACKERS = ["eve@attacker.example", "mallory@evil.example", "trudy@phish.example"];
const CONTACTS = ["alice@corp.example", "bob@corp.example", "carol@corp.example"];

type Step =
  | { readonly tool: "read_inbox"; readonly shows: readonly string[] }
  | { readonly tool: "get_contacts"; readonly shows: readonly string[] }
  | { readonly tool: "send_email"; readonly to: string };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ tool: fc.constant("read_inbox" as const), shows: fc.subarray(ATTACKERS, { minLength: 1 }) }),
  fc.record({ tool: fc.constant("get_contacts" as const), shows: fc.subarray(CONTACTS, { minLength: 1 }) }),
  fc.record({ tool: fc.constant("send_email" as const), to: fc.constantFrom(...ATTACKERS, ...CONTACTS) }),
);

/** A client, the relay and an SDK-built server, linked in memory; the server logs every call it receives. */
async function session(steps: readonly Step[]) {
  const received: string[] = [];
  const server = new McpServer({ name: "inbox", version: "1" });
  let next = 0;
  const shown = () => {
    const current = steps[next++];
    return { content: [{ type: "text" as const, text: "shows" in current ? current.shows.join(", ") : "" }] };
  };
  server.registerTool("read_inbox", {}, () => {
    received.push("read_inbox");
    return shown();
  });
  server.registerTool("get_contacts", {}, () => {
    received.push("get_contacts");
    return shown();
  });
  server.registerTool("send_email", { inputSchema: { to: z.string() } }, ({ to }: { to: string }) => {
    received.push(`send_email:${to}`);
    next++;
    return { content: [{ type: "text" as const, text: `sent to ${to}` }] };
  });
  const [clientSide, agentSide] = InMemoryTransport.createLinkedPair();
  const [serverSide, toolSide] = InMemoryTransport.createLinkedPair();
  await server.connect(toolSide);
  const relay = new McpRelay({ policy: POLICY, client: clientSide, server: serverSide });
  await relay.start();
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(agentSide);
  return {
    received,
    skip: () => next++,
    client,
    close: async () => {
      await client.close();
      await relay.close();
      await server.close();
    },
  };
}

Deno.test("McpRelay relays a send only to an address a trusted output showed, and answers every denied call itself", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
      const s = await session(steps);
      try {
        const trusted = new Set<string>();
        const expected: string[] = [];
        for (const current of steps) {
          if (current.tool === "send_email") {
            const result = await s.client.callTool({ name: "send_email", arguments: { to: current.to } });
            const text = (result.content as { text: string }[])[0].text;
            if (trusted.has(current.to)) {
              expected.push(`send_email:${current.to}`);
              assert.equal(text, `sent to ${current.to}`);
            } else {
              s.skip();
              assert.equal(result.isError, true);
              assert.match(text, /^pab denied this call: send_email: block/);
            }
          } else {
            await s.client.callTool({ name: current.tool, arguments: {} });
            expected.push(current.tool);
            if (current.tool === "get_contacts") current.shows.forEach((address) => trusted.add(address));
          }
        }
        assert.deepEqual(s.received, expected);
      } finally {
        await s.close();
      }
    }),
    { numRuns: 60 },
  );
});

Deno.test("McpRelay answers every call exactly once, whatever a hostile server lists and returns", async () => {
  const hostile = fc.oneof(
    fc.jsonValue(),
    fc.record({
      content: fc.oneof(
        fc.jsonValue(),
        fc.array(fc.dictionary(fc.constantFrom("type", "text", "resource", "uri"), fc.jsonValue())),
      ),
      isError: fc.jsonValue(),
      structuredContent: fc.jsonValue(),
      _meta: fc.oneof(fc.jsonValue(), fc.record({ ifc: fc.jsonValue() })),
    }, { requiredKeys: [] }),
  );
  const reply = fc.oneof(
    hostile.map((result) => ({ result })),
    fc.record({ error: fc.record({ code: fc.integer(), message: fc.string() }) }),
  );
  const call = fc.record({
    name: fc.oneof(fc.constantFrom("read", "send", "__proto__", "constructor", ""), fc.jsonValue()),
    arguments: fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue()), fc.jsonValue()),
  }, { requiredKeys: [] });
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(call, reply), { minLength: 1, maxLength: 6 }), hostile, async (calls, tools) => {
      const [clientSide, agent] = InMemoryTransport.createLinkedPair();
      const [serverSide, tool] = InMemoryTransport.createLinkedPair();
      const replies = calls.map(([, r]) => r);
      tool.onmessage = (message: unknown) => {
        const m = message as { id?: number | string; method?: string };
        if (m.id === undefined || m.method === undefined) return;
        const answer = m.method === "tools/list" ? { result: { tools } } : replies.shift() ?? { result: {} };
        void tool.send({ jsonrpc: "2.0", id: m.id, ...answer } as never);
      };
      const answered = new Map<number, number>();
      agent.onmessage = (message: unknown) => {
        const id = (message as { id?: number }).id;
        if (typeof id === "number") answered.set(id, (answered.get(id) ?? 0) + 1);
      };
      const relay = new McpRelay({ policy: POLICY, client: clientSide, server: serverSide });
      await relay.start();
      await tool.start();
      await agent.start();
      for (const [index, [params]] of calls.entries()) {
        await agent.send({ jsonrpc: "2.0", id: index + 1, method: "tools/call", params } as never);
        for (let wait = 0; wait < 200 && !answered.has(index + 1); wait++) await new Promise((r) => setTimeout(r, 1));
      }
      await relay.close();
      assert.deepEqual([...answered.entries()].sort(([a], [b]) => a - b), calls.map((_, i) => [i + 1, 1]));
    }),
    { numRuns: 100 },
  );
});
