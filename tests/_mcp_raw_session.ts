/**
 * A relay between two raw JSON-RPC ends in memory, for the protocol tests: the
 * test scripts both the client (the agent) and the server, hostile or not.
 */
import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
import { McpRelay, type McpRelayOptions } from "../adapters/mcp/mod.ts";
import type { Policy } from "../guard/mod.ts";

export type Raw = Record<string, unknown> & { id?: string | number | null; method?: string; params?: unknown };

export interface RawSession {
  readonly relay: McpRelay;
  /** Messages the client received, in order. */
  readonly toClient: Raw[];
  /** Messages the server received, in order. */
  readonly toServer: Raw[];
  /** Send as the client. */
  client(message: Raw): Promise<void>;
  /** Send as the server. */
  server(message: Raw): Promise<void>;
  /** Let the relay work until `done` holds (or give up after `ticks` turns). */
  until(done: () => boolean, ticks?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** How a scripted end answers what it receives: return messages to send back (or nothing). */
export type Script = (message: Raw, send: (message: Raw) => Promise<void>) => void | Promise<void>;

export async function rawSession(
  policy: Policy,
  scripts: { client?: Script; server?: Script },
  options: Partial<McpRelayOptions> = {},
): Promise<RawSession> {
  const [clientSide, agent] = InMemoryTransport.createLinkedPair();
  const [serverSide, tool] = InMemoryTransport.createLinkedPair();
  const toClient: Raw[] = [];
  const toServer: Raw[] = [];
  const sendAgent = (message: Raw) => agent.send(message as never);
  const sendTool = (message: Raw) => tool.send(message as never);
  agent.onmessage = (message: unknown) => {
    toClient.push(message as Raw);
    void scripts.client?.(message as Raw, sendAgent);
  };
  tool.onmessage = (message: unknown) => {
    toServer.push(message as Raw);
    void scripts.server?.(message as Raw, sendTool);
  };
  const relay = new McpRelay({ policy, client: clientSide, server: serverSide, ...options });
  await relay.start();
  await tool.start();
  await agent.start();
  return {
    relay,
    toClient,
    toServer,
    client: sendAgent,
    server: sendTool,
    until: async (done, ticks = 400) => {
      for (let i = 0; i < ticks && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 0));
      return done();
    },
    close: () => relay.close(),
  };
}

/** A server that lists `tools` and answers every call with `answer(name, args)` as text. */
export function listingServer(
  tools: () => readonly Record<string, unknown>[],
  answer: (name: string, args: Record<string, unknown>) => Record<string, unknown> = (name) => ({
    content: [{ type: "text", text: `${name} done` }],
  }),
): Script {
  return async (message, send) => {
    if (message.id === undefined || message.method === undefined) return;
    const params = (message.params ?? {}) as { name?: string; arguments?: Record<string, unknown> };
    if (message.method === "tools/list") {
      return await send({ jsonrpc: "2.0", id: message.id, result: { tools: tools() } });
    }
    if (message.method === "tools/call") {
      return await send({ jsonrpc: "2.0", id: message.id, result: answer(params.name ?? "", params.arguments ?? {}) });
    }
    await send({ jsonrpc: "2.0", id: message.id, result: {} });
  };
}

/** The initialize request of a client that can (or cannot) ask the user. */
export function initialize(id: number, canAsk: boolean): Raw {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: canAsk ? { elicitation: {} } : {},
      clientInfo: { name: "test", version: "1" },
    },
  };
}

export function textOf(message: Raw | undefined): string {
  const result = (message?.result ?? {}) as { content?: { text?: string }[] };
  return (result.content ?? []).map((item) => item.text ?? "").join("\n");
}
