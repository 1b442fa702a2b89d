/**
 * `pab mcp --policy FILE -- CMD [ARGS...]`: put the guard in front of an MCP
 * server, as the server an MCP client starts.
 *
 * @module
 */
import { type Label, makeLabel, PabError } from "../../core/mod.ts";
import type { Policy } from "../../guard/mod.ts";
import { StoredSession } from "../serve/mod.ts";
import { openStore, type PabStore } from "../store/mod.ts";
import { IoError, UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import type { Io } from "./io.ts";
import { loadPolicyFile } from "./load_policy.ts";
import { loadMcpAdapter } from "./mcp_sdk.ts";
import { parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";

/** The stored session `pab mcp --store` uses unless `--session` names one. */
export const DEFAULT_MCP_SESSION = "mcp";

const HELP =
  `Usage: pab mcp --policy FILE [--hide TOOLS] [--ceiling LABEL] [--store PATH|URL [--session ID]] -- CMD [ARGS...]

Run the MCP server CMD ARGS as a child and speak MCP on stdin/stdout in its
place, deciding every tools/call with the policy before the server sees it.
A denied call never reaches the server: the client gets a tool result with
isError and the decision, with the way to yes. When a call needs the user's
confirmation and the client supports elicitation, pab asks the user.
Everything else (tools/list, resources, prompts, notifications) passes
through. The server's stderr is passed to pab's stderr; when the server exits,
pab exits.

Options:
  -p, --policy FILE    The policy (.yaml, .yml, .json or .jsonc); required
      --hide TOOLS     Comma-separated tools to leave out of tools/list and refuse
      --ceiling LABEL  Let the server's own signals (GitHub's _meta.ifc labels,
                       tool annotations) label tools the policy does not name,
                       never above LABEL (trusted, attested, untrusted or a
                       label of the policy); without it they stay unlabelled
      --store PATH|URL Keep the sources, the ledger (effects and reservations),
                       rulings and the audit log in a Deno KV file or a remote
                       Deno KV (denokv, Deno Deploy) instead of memory: a
                       restart keeps them, and proxies on one store share
                       the session's once effects
      --session ID     The stored session (default mcp); proxies naming the
                       same session share what it read, too
  -h, --help           Show this help

Needs --allow-run (to start the server), which deno task pab does not grant:
  deno run --lock=adapters/mcp/deno.lock --unstable-kv --allow-net=localhost --allow-read \\
    --allow-write=/tmp/pab --allow-env=DENO_KV_ACCESS_TOKEN --allow-run \\
    cli.ts mcp --policy FILE -- CMD ARGS
(--allow-run=CMD grants that one command; --unstable-kv and the store's
folder or host are needed for --store. --lock=adapters/mcp/deno.lock pins the MCP SDK,
which deno.lock leaves out.)

Exit codes: 0 the client or the server closed the session; 2 bad usage, a
policy that cannot be read, or a server that cannot start.
`;

/**
 * `pab mcp`: an MCP proxy that guards every tool call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpCommand } from "./mcp.ts";
 * import { memoryIo } from "./memory_io.ts";
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

async function mcp(args: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs(args, {
      policy: { type: "string", short: "p" },
      hide: { type: "string" },
      ceiling: { type: "string" },
      store: { type: "string" },
      session: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, "mcp");
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
      const why = error instanceof Error ? error.message : String(error);
      throw new IoError(`Cannot start MCP server "${command}": ${why} (check the command; pab mcp needs --allow-run)`);
    } finally {
      store?.close();
    }
  } catch (error) {
    return await reportError(error, io);
  }
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
export class RunPermissionError extends PabError {
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
