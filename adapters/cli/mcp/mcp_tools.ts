/**
 * Ask a running MCP server for its tools: start its command, speak MCP over
 * stdio with the official SDK, and page through `tools/list`.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { DependencyError, IoError } from "../shell/cli_error.ts";
import { loadMcpClient } from "./mcp_sdk.ts";

/** The part of the SDK's `Client` used here. */
interface McpClient {
  connect(transport: unknown): Promise<void>;
  listTools(params: { cursor?: string }): Promise<{ tools: unknown[]; nextCursor?: string }>;
  close(): Promise<void>;
}

/**
 * Start `command` (the program and its arguments) as an MCP server over
 * stdio, list its tools and stop it. The SDK is loaded only here, so other
 * commands never download it. Needs `--allow-run` and `--allow-env` (the SDK
 * passes the environment on to the server); without them it throws `IoError`
 * saying so.
 *
 * @example Draft a policy from the memory server (needs the network to npm once)
 * ```ts ignore
 * import { listMcpServerTools } from "./mcp_tools.ts";
 * const tools = await listMcpServerTools(["npx", "-y", "@modelcontextprotocol/server-memory"]);
 * ```
 */
export async function listMcpServerTools(command: readonly string[]): Promise<{ tools: unknown[] }> {
  const [program, ...args] = command;
  const shown = command.join(" ");
  let client: McpClient | undefined;
  try {
    // Refused before the SDK loads, so that the message names the permissions first.
    if (Deno.permissions.querySync({ name: "run", command: program }).state !== "granted") {
      throw new Deno.errors.NotCapable(`Requires run access to "${program}"`);
    }
    // Inside the try: the SDK reads the environment as it loads, which the sandbox may refuse.
    const { Client, StdioClientTransport } = await loadMcpClient();
    const connected: McpClient = new Client({ name: "pab generate", version: "1" });
    client = connected;
    await connected.connect(new StdioClientTransport({ command: program, args, stderr: "ignore" }));
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await connected.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined && tools.length < 10_000);
    return { tools };
  } catch (error) {
    if (error instanceof DependencyError) throw error;
    const refused = error instanceof Error && error.name === "NotCapable";
    throw new IoError(
      `Cannot list the tools of the MCP server "${shown}": ${
        refused ? "Deno's permission sandbox refused to start it" : errorText(error)
      } (${
        refused
          ? "starting a server needs --allow-run and --allow-env, which deno task pab does not grant: run " +
            "deno run --lock=adapters/mcp/deno.lock --allow-read --allow-write=/tmp/pab --allow-run --allow-env cli.ts generate --server -- COMMAND"
          : "check that the command starts an MCP server that speaks over stdio"
      })`,
    );
  } finally {
    await client?.close().catch(() => {});
  }
}
