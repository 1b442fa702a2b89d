/**
 * `pab mcp` over stdio: this process is the MCP server its client started;
 * the real server runs as its child (with this process's environment), and
 * the guard sits between them.
 *
 * @module
 */
import process from "node:process";
import { StdioServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/stdio.js";
import type { Label } from "../../core/mod.ts";
import type { Policy } from "../../guard/mod.ts";
import { ChildTransport } from "./child_transport.ts";
import { McpRelay, type ProposerFactory } from "./mcp_relay.ts";

/** How to start the proxy. */
export interface StdioProxyOptions {
  /** The policy every call is decided by. */
  readonly policy: Policy;
  /** The real server's command. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** Tools left out of `tools/list` and refused if called anyway. */
  readonly hide?: readonly string[];
  /** Ceiling for the server's signals on tools the policy does not name. */
  readonly ceiling?: Label;
  /** Diagnostics, for stderr (stdout belongs to the MCP client). */
  readonly log?: (line: string) => void;
  /** Makes what decides and records the calls (default: a guard in this process's memory). */
  readonly proposer?: ProposerFactory;
}

/**
 * Run the proxy until the client closes stdin or the real server exits. The
 * child's stderr is passed to this process's stderr. Resolves to an exit code;
 * rejects only when the server cannot be started (with the runtime's error).
 *
 * @example
 * ```ts ignore
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { runStdioProxy } from "./stdio_proxy.ts";
 * const code = await runStdioProxy({ policy: parsePolicy("version: 1\n"), command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] });
 * ```
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const server = new ChildTransport(options.command, options.args ?? []);
  const client = new StdioServerTransport();
  let exited = false;
  const relay = new McpRelay({
    policy: options.policy,
    client,
    server,
    ...(options.hide ? { hide: options.hide } : {}),
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.proposer ? { proposer: options.proposer } : {}),
  });
  server.onclose = () => exited = true;
  const ended = () => void relay.close();
  try {
    await relay.start();
  } catch (error) {
    await relay.close();
    throw error;
  }
  process.stdin.once("end", ended);
  await relay.closed;
  process.stdin.off("end", ended);
  process.stdin.pause();
  process.stdin.unref?.();
  if (exited) options.log?.("pab mcp: the server exited; closing");
  return 0;
}
