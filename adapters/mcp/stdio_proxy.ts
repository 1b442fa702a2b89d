/**
 * `pab mcp` over stdio: this process is the MCP server its client started;
 * the real server runs as its child (with this process's environment), or
 * listens at a URL and speaks Streamable HTTP, and the guard sits between them.
 *
 * @module
 */
import type { Label } from "../../core/mod.ts";
import type { Policy } from "../../guard/mod.ts";
import { ChildTransport } from "./child_transport.ts";
import { LineTransport } from "./line_transport.ts";
import { McpRelay } from "./mcp_relay.ts";
import type { ProposerFactory } from "./relay_options.ts";

/** How to start the proxy: the policy, and the real server as a command to start or a URL to connect to. */
export type StdioProxyOptions = ProxyOptions & (ChildServer | HttpServer);

/** The real server, started as a child that speaks MCP on its stdin and stdout. */
export interface ChildServer {
  /** The real server's command. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** Not with a command. */
  readonly url?: undefined;
}

/** The real server, already running, reached over Streamable HTTP (what a sandbox without `--allow-run` can do). */
export interface HttpServer {
  /** Its MCP endpoint, such as `http://localhost:3000/mcp`. */
  readonly url: string | URL;
  /** Not with a URL. */
  readonly command?: undefined;
}

/** What the proxy takes whichever way it reaches the server. */
export interface ProxyOptions {
  /** The policy every call is decided by. */
  readonly policy: Policy;
  /** Tools left out of `tools/list` and refused if called anyway. */
  readonly hide?: readonly string[];
  /** Ceiling for the server's signals on tools the policy does not name. */
  readonly ceiling?: Label;
  /** The user's request, when the host knows it: recorded as the user's words before the first call. */
  readonly request?: string;
  /** Whether to ask the user if values found in no input came from them (default `true`). */
  readonly askValues?: boolean;
  /** The most bytes one message from either side may have (default 10 MiB, as the MCP SDK). */
  readonly maxMessageBytes?: number;
  /** Diagnostics, for stderr (stdout belongs to the MCP client). */
  readonly log?: (line: string) => void;
  /** Makes what decides and records the calls (default: a guard in this process's memory). */
  readonly proposer?: ProposerFactory;
}

/**
 * Run the proxy until the client closes stdin or the real server exits. Both
 * stdio sides are read as newline-delimited JSON-RPC in linear time; a line
 * that is not a message is answered with a JSON-RPC error, never dropped. The
 * child's stderr is passed to this process's stderr. With `url`, the server is
 * reached over Streamable HTTP instead, and a request it cannot be reached for
 * is answered with a JSON-RPC error. Resolves to an exit code; rejects only
 * when the server cannot be started (with the runtime's error).
 *
 * @example
 * ```ts ignore
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { runStdioProxy } from "./stdio_proxy.ts";
 * const code = await runStdioProxy({ policy: parsePolicy("version: 1\n"), command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] });
 * ```
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const limit = options.maxMessageBytes ? { maxMessageBytes: options.maxMessageBytes } : {};
  const server = options.url !== undefined
    ? new (await loadHttpTransport()).HttpServerTransport(new URL(options.url), limit)
    : new ChildTransport(options.command, options.args ?? [], limit);
  const client = new LineTransport({ readable: Deno.stdin.readable, writable: Deno.stdout.writable, ...limit });
  let exited = false;
  const relay = new McpRelay({
    policy: options.policy,
    client,
    server,
    ...(options.hide ? { hide: options.hide } : {}),
    ...(options.ceiling ? { ceiling: options.ceiling } : {}),
    ...(options.request !== undefined ? { request: options.request } : {}),
    ...(options.askValues !== undefined ? { askValues: options.askValues } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.proposer ? { proposer: options.proposer } : {}),
  });
  try {
    await relay.start();
  } catch (error) {
    await relay.close();
    throw error;
  }
  // Say so when the server ended the session, not when it was stopped because the client did.
  let ended = false;
  const clientClosed = client.onclose;
  client.onclose = () => {
    ended = true;
    clientClosed?.();
  };
  const serverClosed = server.onclose;
  server.onclose = () => {
    exited = !ended;
    serverClosed?.();
  };
  await relay.closed;
  if (exited) options.log?.("pab mcp: the server exited; closing");
  return 0;
}

/**
 * The HTTP transport needs the MCP SDK's client at run time, which the stdio
 * proxy does not (it takes only the SDK's types): loaded by a name that is not
 * a literal, so that `deno run` does not resolve the SDK for every `pab mcp`
 * (`adapters/cli/mcp/mcp_sdk.ts` says why; `deno task compile` embeds it with
 * `--include`).
 */
const HTTP_TRANSPORT = "./http_transport.ts";

async function loadHttpTransport(): Promise<typeof import("./http_transport.ts")> {
  return await import(HTTP_TRANSPORT);
}
