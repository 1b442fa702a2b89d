/**
 * `pab mcp --policy FILE -- CMD [ARGS...]`: put the guard in front of an MCP
 * server, as the server an MCP client starts.
 *
 * @module
 */
import { type Label, makeLabel } from "../../core/mod.ts";
import type { Policy } from "../../guard/mod.ts";
import { IoError, UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import type { Io } from "./io.ts";
import { loadPolicyFile } from "./load_policy.ts";
import { parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";

const HELP = `Usage: pab mcp --policy FILE [--hide TOOLS] [--ceiling LABEL] -- CMD [ARGS...]

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
  -h, --help           Show this help

Needs --allow-run (to start the server) on top of pab's usual permissions;
with --allow-env the server inherits pab's environment.

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
    const { runStdioProxy } = await import("../mcp/mod.ts");
    try {
      return await runStdioProxy({
        policy,
        command,
        args: rest,
        hide,
        ...(ceiling ? { ceiling } : {}),
        log: (line) => void io.stderr.write(`${line}\n`),
      });
    } catch (error) {
      // runStdioProxy throws only when the server cannot be started.
      const why = error instanceof Error ? error.message : String(error);
      throw new IoError(`Cannot start MCP server "${command}": ${why} (check the command; pab mcp needs --allow-run)`);
    }
  } catch (error) {
    return await reportError(error, io);
  }
}

function labelNamed(policy: Policy, name: string): Label {
  if (name === "trusted" || name === "attested") return makeLabel(policy.top.readers, name);
  if (name === "untrusted" || name === "suspicious") return makeLabel(policy.top.readers, "suspicious");
  if (Object.hasOwn(policy.labels, name)) return policy.labels[name];
  const known = ["trusted", "attested", "untrusted", ...Object.keys(policy.labels)];
  throw new UsageError(`unknown label "${name}" for --ceiling (use one of ${known.join(", ")})`, "mcp");
}
