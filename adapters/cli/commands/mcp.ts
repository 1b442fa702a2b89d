/**
 * `pab mcp --policy FILE -- CMD [ARGS...]` (or `--url URL`): put the guard in
 * front of an MCP server, as the server an MCP client starts; `pab mcp config`
 * prints a host's entry for it.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { StoredSession } from "../../serve/mod.ts";
import { openStore, type PabStore } from "../../store/mod.ts";
import { IoError, UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { defineCommand } from "../shell/define_command.ts";
import type { Io } from "../io/io.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import { ceilingLabel, checkProxyInput, DEFAULT_MCP_SESSION, PROXY_OPTIONS } from "../mcp/mcp_options.ts";
import { mcpConfigCommand } from "../mcp/mcp_config_command.ts";
import { requireNetPermission, requireRunPermission } from "../mcp/mcp_permissions.ts";
import { loadMcpAdapter, loadMcpHttp } from "../mcp/mcp_sdk.ts";
import { reportError } from "../shell/report_error.ts";

export { DEFAULT_MCP_SESSION };

/**
 * `pab mcp` itself: the proxy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpProxyCommand } from "./mcp.ts";
 * assert.match(mcpProxyCommand.help, /^Usage: pab mcp --policy FILE \[OPTIONS\] \[-- CMD ARGS\.\.\.\]\n/);
 * ```
 */
export const mcpProxyCommand: Command = defineCommand({
  name: "mcp",
  summary: "Guard an MCP server: decide every tool call before the server sees it",
  description: `Run the MCP server CMD ARGS as a child, or reach the one running at --url,
and speak MCP on stdin/stdout in its place, deciding every tools/call with the
policy before the server sees it. A denied call never reaches the server: the
client gets a tool result with isError and the decision, with the way to yes.
When a call needs the user's confirmation and the client supports
elicitation, pab asks the user. Everything else (tools/list, resources,
prompts, notifications) passes through. A child's stderr is passed to pab's
stderr; when it exits, pab exits. A request that a server at --url
(Streamable HTTP) cannot be reached for is answered with a JSON-RPC error
naming the URL.

pab cannot see what the user types to the assistant. When a call is blocked
only by values found in no input pab saw, and the client supports
elicitation, pab asks the user whether the values are theirs (--no-ask-values
turns this off); a host that knows the user's request passes it with
--request or --request-file, read once at start, before the server runs.

The server's tool definitions reach the model: they are recorded as untrusted
input (unless the policy labels the tool "tools/list"), and a tool whose
definition changes after the first full listing is held until the user
approves it. A line that is not JSON-RPC, or longer than --max-message-bytes,
is answered with a JSON-RPC error (-32700 or -32600) and reported once on
stderr.`,
  options: PROXY_OPTIONS,
  arguments: { name: "-- CMD ARGS", max: Infinity },
  notes: `Other form:
  pab mcp config [--host claude-desktop|cursor|vscode] [--name NAME] --policy FILE [OPTIONS]
      (-- CMD [ARGS...] | --url URL)
      prints the entry a host's configuration takes for this proxy (see its --help)

Permissions: starting CMD needs --allow-run, which pab's sandbox (deno task
pab, the compiled binary) does not grant; --url needs only --allow-net for
the server's host, and the sandbox grants localhost (name it localhost, not
127.0.0.1). From a clone, with --allow-run for the server's command only:
  deno run --lock=adapters/mcp/deno.lock --unstable-kv --allow-net=localhost --allow-read \\
    --allow-write=/tmp/pab --allow-env=DENO_KV_ACCESS_TOKEN --allow-run=CMD \\
    cli.ts mcp --policy FILE -- CMD ARGS
(--unstable-kv and the store's folder or host are needed for --store.
--lock=adapters/mcp/deno.lock pins the MCP SDK, which deno.lock leaves out.
pab mcp config prints exactly this, with absolute paths.)`,
  exitCodes: "0 the client or the server closed the session; 2 bad usage, a policy that cannot be read,\n" +
    "or a server that cannot be started or reached for want of a permission.",
  run: async (input, io) => {
    if (input.flag("quiet")) throw new UsageError("--quiet would silence the MCP session itself: leave it out", "mcp");
    const checked = checkProxyInput(input);
    const policy = await loadPolicyFile(checked.policy, io);
    const ceilingName = input.string("ceiling");
    const ceiling = ceilingName === undefined ? undefined : ceilingLabel(policy, ceilingName);
    // Read once, before the server starts: nothing the server does can change it.
    const requestFile = input.string("request-file");
    const request = requestFile !== undefined ? await readRequest(requestFile, io) : input.string("request");
    const [command, ...rest] = checked.server;
    if (checked.url) requireNetPermission(checked.url);
    else requireRunPermission(command);
    const { labelServerTools, runStdioProxy } = await loadMcpAdapter();
    // Loaded here, where a lock file that does not pin the SDK is a DependencyError that says which lock to use.
    if (checked.url) await loadMcpHttp();
    const storeAt = input.string("store");
    const store: PabStore | undefined = storeAt === undefined ? undefined : await openStore(storeAt);
    const session = input.string("session") ?? DEFAULT_MCP_SESSION;
    try {
      return await runStdioProxy({
        policy,
        ...(checked.url ? { url: checked.url } : { command, args: rest }),
        hide: checked.hide,
        ...(ceiling ? { ceiling } : {}),
        ...(request !== undefined ? { request } : {}),
        ...(input.flag("no-ask-values") ? { askValues: false } : {}),
        ...(checked.maxMessageBytes !== undefined ? { maxMessageBytes: checked.maxMessageBytes } : {}),
        ...(store
          ? {
            proposer: (server) => {
              const labelled = labelServerTools(policy, server);
              return StoredSession.open(labelled.policy, store, session, { casts: labelled.casts });
            },
          }
          : {}),
        log: (line) => void io.stderr.write(`${line}\n`),
      });
    } catch (error) {
      // runStdioProxy throws only when the server cannot be started.
      const why = errorText(error);
      if (checked.url) throw new IoError(`Cannot reach the MCP server at ${checked.url.href}: ${why} (check --url)`);
      throw new IoError(`Cannot start MCP server "${command}": ${why} (check the command; pab mcp needs --allow-run)`);
    } finally {
      store?.close();
    }
  },
});

/**
 * `pab mcp`: an MCP proxy that guards every tool call; `pab mcp config ...`
 * prints a host's entry for it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpCommand } from "./mcp.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo({ files: {} });
 * assert.equal(await mcpCommand.run(["--policy", "p.yaml"], memory.io), 2);
 * assert.match(memory.stderr(), /name the server to start after --/);
 * ```
 */
export const mcpCommand: Command = {
  name: "mcp",
  summary: mcpProxyCommand.summary,
  get help() {
    return mcpProxyCommand.help;
  },
  run: async (args, io) => {
    if (args[0] === "config") return await mcpConfigCommand.run(args.slice(1), io);
    const own = args.includes("--") ? args.slice(0, args.indexOf("--")) : args;
    const configOnly = own.find((arg) => /^--(host|name)(=|$)/.test(arg));
    if (configOnly !== undefined) {
      const flag = configOnly.replace(/=.*$/s, "");
      return await reportError(
        new UsageError(`${flag} is an option of pab mcp config (pab mcp config ${flag} ...)`, "mcp"),
        io,
      );
    }
    return await mcpProxyCommand.run(args, io);
  },
};

async function readRequest(path: string, io: Io): Promise<string> {
  try {
    return await io.readTextFile(path);
  } catch (error) {
    const why = errorText(error);
    throw new IoError(`Cannot read the user's request "${path}": ${why} (check --request-file)`);
  }
}
