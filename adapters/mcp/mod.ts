/**
 * pab in front of an MCP server: a proxy that decides every `tools/call`
 * before the real server sees it, records every result under its label, and
 * lets everything else pass.
 *
 * Imported on its own (`@pab/pab/mcp`), so the MCP SDK stays out of pab's
 * main module and browser bundle.
 *
 * @example Relay through the guard in memory
 * ```ts
 * import assert from "node:assert/strict";
 * import { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { McpRelay } from "./mod.ts";
 * const [client, agent] = InMemoryTransport.createLinkedPair();
 * const [server, tools] = InMemoryTransport.createLinkedPair();
 * const relay = new McpRelay({ policy: parsePolicy("version: 1\n"), client, server });
 * await relay.start();
 * await relay.close();
 * assert.equal(relay.guard, undefined);
 * ```
 *
 * @module
 */
export { McpRelay } from "./mcp_relay.ts";
export type { McpRelayOptions, Proposer, ProposerFactory } from "./relay_options.ts";
export {
  type ChildServer,
  type HttpServer,
  type ProxyOptions,
  runStdioProxy,
  type StdioProxyOptions,
} from "./stdio_proxy.ts";
export { guardForServer, labelServerTools, MCP_CAST, type ServerGuardOptions } from "./guard_for_server.ts";
export { labelFromAnnotations, labelFromIfc, ServerSignals, type ToolAnnotations } from "./server_signals.ts";
export {
  type AllowQuestion,
  deniedResult,
  rulingElicitation,
  type ToolResult,
  userAllowed,
} from "./tool_call_answers.ts";
