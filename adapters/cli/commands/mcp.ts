/**
 * `pab mcp --policy FILE -- CMD [ARGS...]`: put the guard in front of an MCP
 * server, as the server an MCP client starts.
 *
 * @module
 */
import { resolve } from "node:path";
import { errorText, type Label, makeLabel, PabError } from "../../../core/mod.ts";
import type { Policy } from "../../../guard/mod.ts";
import { StoredSession } from "../../serve/mod.ts";
import { openStore, type PabStore } from "../../store/mod.ts";
import { IoError, UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import type { Io } from "../io/io.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import { currentInstall, HOST_FILES, hostEntry, MCP_HOSTS, type McpHost, proxyCommand } from "../mcp/mcp_config.ts";
import { loadMcpAdapter } from "../mcp/mcp_sdk.ts";
import { parseArgs } from "../shell/parse_args.ts";
import { reportError } from "../shell/report_error.ts";

/** The stored session `pab mcp --store` uses unless `--session` names one. */
export const DEFAULT_MCP_SESSION = "mcp";

const USAGE = "pab mcp --policy FILE [--hide TOOLS] [--ceiling LABEL] [--request TEXT|--request-file FILE] " +
  "[--no-ask-values] [--max-message-bytes N] [--store PATH|URL [--session ID]] -- CMD [ARGS...]";

const HELP = `Usage: ${USAGE}
       pab mcp config [--host claude-desktop|cursor|vscode] [--name NAME] --policy FILE [OPTIONS] -- CMD [ARGS...]

Run the MCP server CMD ARGS as a child and speak MCP on stdin/stdout in its
place, deciding every tools/call with the policy before the server sees it.
A denied call never reaches the server: the client gets a tool result with
isError and the decision, with the way to yes. When a call needs the user's
confirmation and the client supports elicitation, pab asks the user.
Everything else (tools/list, resources, prompts, notifications) passes
through. The server's stderr is passed to pab's stderr; when the server exits,
pab exits.

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
stderr.

pab mcp config prints the entry a host's configuration takes for this proxy
(absolute paths, the lock, the permissions), as JSON with --host, or for every
host with where its file lives.

Options:
  -p, --policy FILE    The policy (.yaml, .yml, .json or .jsonc); required
      --hide TOOLS     Comma-separated tools to leave out of tools/list and refuse
      --ceiling LABEL  Let the server's own signals (GitHub's _meta.ifc labels,
                       tool annotations) label tools the policy does not name,
                       never above LABEL (trusted, attested, untrusted or a
                       label of the policy); without it they stay unlabelled
      --request TEXT   The user's request: recorded as the user's words
      --request-file FILE
                       The same, read from FILE once, before the server starts
      --no-ask-values  Never ask the user whether values pab saw in no input are theirs
      --max-message-bytes N
                       The longest message either side may send (default
                       10485760, the MCP SDK's stdio limit)
      --store PATH|URL Keep the sources, the ledger (effects and reservations),
                       rulings and the audit log in a Deno KV file or a remote
                       Deno KV (denokv, Deno Deploy) instead of memory: a
                       restart keeps them, and proxies on one store share
                       the session's once effects
      --session ID     The stored session (default mcp); proxies naming the
                       same session share what it read, too
      --host NAME      (config) One host's JSON: claude-desktop, cursor or vscode
      --name NAME      (config) The server's name in the host's file (default pab)
  -h, --help           Show this help

Needs --allow-run (to start the server), which deno task pab does not grant:
  deno run --lock=adapters/mcp/deno.lock --unstable-kv --allow-net=localhost --allow-read \\
    --allow-write=/tmp/pab --allow-env=DENO_KV_ACCESS_TOKEN --allow-run \\
    cli.ts mcp --policy FILE -- CMD ARGS
(--allow-run=CMD grants that one command; --unstable-kv and the store's
folder or host are needed for --store. --lock=adapters/mcp/deno.lock pins the MCP SDK,
which deno.lock leaves out. pab mcp config prints exactly this, with absolute paths.)

Exit codes: 0 the client or the server closed the session (or the entry was
printed); 2 bad usage, a policy that cannot be read, or a server that cannot start.
`;

/**
 * `pab mcp`: an MCP proxy that guards every tool call.
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
  summary: "Guard an MCP server: decide every tool call before the server sees it",
  help: HELP,
  run: mcp,
};

const OPTIONS = {
  policy: { type: "string", short: "p" },
  hide: { type: "string" },
  ceiling: { type: "string" },
  request: { type: "string" },
  "request-file": { type: "string" },
  "no-ask-values": { type: "boolean" },
  "max-message-bytes": { type: "integer" },
  store: { type: "string" },
  session: { type: "string" },
  host: { type: "string" },
  name: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function mcp(args: string[], io: Io): Promise<number> {
  try {
    const config = args[0] === "config";
    const { values, positionals } = parseArgs(config ? args.slice(1) : args, OPTIONS, "mcp");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (typeof values.policy !== "string") throw new UsageError("missing --policy FILE", "mcp");
    const [command, ...rest] = positionals;
    if (!command) throw new UsageError("name the server to start after --: pab mcp --policy FILE -- CMD ARGS", "mcp");
    const policy = await loadPolicyFile(values.policy, io);
    const ceiling = typeof values.ceiling === "string" ? labelNamed(policy, values.ceiling) : undefined;
    const hide = typeof values.hide === "string" ? values.hide.split(",").map((t) => t.trim()).filter(Boolean) : [];
    if (typeof values.session === "string" && typeof values.store !== "string") {
      throw new UsageError("--session names a stored session: add --store PATH|URL", "mcp");
    }
    if (typeof values.request === "string" && typeof values["request-file"] === "string") {
      throw new UsageError("give the user's request once: --request TEXT or --request-file FILE", "mcp");
    }
    const maxMessageBytes = values["max-message-bytes"];
    if (maxMessageBytes !== undefined && (typeof maxMessageBytes !== "number" || maxMessageBytes < 1024)) {
      throw new UsageError("--max-message-bytes needs at least 1024 bytes", "mcp");
    }
    if (config) return await printConfig(args.slice(1), values, positionals, io);
    if (typeof values.host === "string" || typeof values.name === "string") {
      throw new UsageError("--host and --name are options of pab mcp config", "mcp");
    }
    // Read once, before the server starts: nothing the server does can change it.
    const request = typeof values["request-file"] === "string"
      ? await readRequest(values["request-file"], io)
      : typeof values.request === "string"
      ? values.request
      : undefined;
    requireRunPermission(command);
    const { labelServerTools, runStdioProxy } = await loadMcpAdapter();
    const store: PabStore | undefined = typeof values.store === "string" ? await openStore(values.store) : undefined;
    const session = typeof values.session === "string" ? values.session : DEFAULT_MCP_SESSION;
    try {
      return await runStdioProxy({
        policy,
        command,
        args: rest,
        hide,
        ...(ceiling ? { ceiling } : {}),
        ...(request !== undefined ? { request } : {}),
        ...(values["no-ask-values"] ? { askValues: false } : {}),
        ...(typeof maxMessageBytes === "number" ? { maxMessageBytes } : {}),
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
      throw new IoError(`Cannot start MCP server "${command}": ${why} (check the command; pab mcp needs --allow-run)`);
    } finally {
      store?.close();
    }
  } catch (error) {
    return await reportError(error, io);
  }
}

async function readRequest(path: string, io: Io): Promise<string> {
  try {
    return await io.readTextFile(path);
  } catch (error) {
    const why = errorText(error);
    throw new IoError(`Cannot read the user's request "${path}": ${why} (check --request-file)`);
  }
}

/** `pab mcp config`: the host entry for the same options, with absolute paths. */
async function printConfig(
  args: readonly string[],
  values: Readonly<Record<string, unknown>>,
  server: readonly string[],
  io: Io,
): Promise<number> {
  const host = values.host;
  if (host !== undefined && !MCP_HOSTS.includes(host as McpHost)) {
    throw new UsageError(`unknown host "${host}" for --host (use one of ${MCP_HOSTS.join(", ")})`, "mcp");
  }
  const name = typeof values.name === "string" ? values.name : "pab";
  const options = passedOptions(args.slice(0, args.length - server.length));
  const install = currentInstall(new URL("../../../cli.ts", import.meta.url).href, Deno.execPath());
  // A binary's permissions were fixed when it was compiled: an entry it cannot run is refused, not printed.
  if (install.kind === "binary" && server[0]) requireRunPermission(server[0]);
  const started = proxyCommand(install, { name, options, server, store: typeof values.store === "string" });
  if (typeof host === "string") {
    await io.stdout.write(`${JSON.stringify(hostEntry(host as McpHost, name, started), null, 2)}\n`);
    return 0;
  }
  for (const each of MCP_HOSTS) {
    await io.stdout.write(`// ${each}: ${HOST_FILES[each]}\n`);
    await io.stdout.write(`${JSON.stringify(hostEntry(each, name, started), null, 2)}\n`);
  }
  return 0;
}

/** The proxy's own options as given, without config's, with files made absolute. */
function passedOptions(args: readonly string[]): string[] {
  const kept: string[] = [];
  const files = new Set(["--policy", "-p", "--request-file"]);
  const dropped = new Set(["--host", "--name"]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") break;
    const [flag, inline] = arg.startsWith("--") && arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const takesValue = !["--no-ask-values", "--help", "-h"].includes(flag);
    const value = inline ?? (takesValue ? args[++i] : undefined);
    if (dropped.has(flag)) continue;
    const local = flag === "--store" && value !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(value);
    const absolute = value !== undefined && (files.has(flag) || local) ? resolve(value) : value;
    kept.push(flag === "-p" ? "--policy" : flag, ...(absolute !== undefined ? [absolute] : []));
  }
  return kept;
}

/**
 * `pab mcp` runs without permission to start its server: the flag it needs,
 * and the command line with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RunPermissionError } from "./mcp.ts";
 * const error = new RunPermissionError("npx");
 * assert.equal(error.code, "ERR_CLI_PERMISSION");
 * assert.match(error.message, /^Cannot start MCP server "npx": pab mcp needs --allow-run/);
 * ```
 */
export class RunPermissionError extends PabError<"ERR_CLI_PERMISSION"> {
  /** Make the error for `command`. */
  constructor(command: string) {
    super(
      "ERR_CLI_PERMISSION",
      `Cannot start MCP server "${command}": pab mcp needs --allow-run, which deno task pab does not grant ` +
        `(run: deno run --lock=adapters/mcp/deno.lock --unstable-kv --allow-net=localhost --allow-read --allow-write=/tmp/pab ` +
        `--allow-env=DENO_KV_ACCESS_TOKEN --allow-run cli.ts mcp ...)`,
    );
    this.name = "RunPermissionError";
  }
}

/**
 * Throw {@linkcode RunPermissionError} unless this process may run `command`
 * (granted by `--allow-run` or `--allow-run=CMD`; never asked interactively,
 * since stdin belongs to the MCP client).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireRunPermission, RunPermissionError } from "./mcp.ts";
 * const granted = Deno.permissions.querySync({ name: "run", command: "pab-test-server" }).state === "granted";
 * if (granted) requireRunPermission("pab-test-server");
 * else assert.throws(() => requireRunPermission("pab-test-server"), RunPermissionError);
 * ```
 */
export function requireRunPermission(command: string): void {
  if (Deno.permissions.querySync({ name: "run", command }).state !== "granted") {
    throw new RunPermissionError(command);
  }
}

function labelNamed(policy: Policy, name: string): Label {
  if (name === "trusted" || name === "attested") return makeLabel(policy.top.readers, name);
  if (name === "untrusted" || name === "suspicious") return makeLabel(policy.top.readers, "suspicious");
  if (Object.hasOwn(policy.labels, name)) return policy.labels[name];
  const known = ["trusted", "attested", "untrusted", ...Object.keys(policy.labels)];
  throw new UsageError(`unknown label "${name}" for --ceiling (use one of ${known.join(", ")})`, "mcp");
}
