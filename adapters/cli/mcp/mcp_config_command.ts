/**
 * `pab mcp config`: print the entry an MCP host's configuration takes to
 * start a server behind `pab mcp`, with the same options as the proxy.
 *
 * @module
 */
import { PermissionError, UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { defineCommand } from "../shell/define_command.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import {
  currentInstall,
  HOST_FILES,
  hostEntry,
  MCP_HOSTS,
  type McpHost,
  type PabInstall,
  proxyCommand,
} from "./mcp_config.ts";
import { ceilingLabel, checkProxyInput, PROXY_OPTIONS, proxyArguments } from "./mcp_options.ts";
import { requireNetPermission } from "./mcp_permissions.ts";

/**
 * `pab mcp config`, declared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcpConfigCommand } from "./mcp_config_command.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo({ files: { "p.yaml": "version: 1\n" } });
 * assert.equal(await mcpConfigCommand.run(["--host", "emacs", "--policy", "p.yaml", "--", "srv"], memory.io), 2);
 * assert.match(memory.stderr(), /unknown host "emacs" for --host \(use one of claude-desktop, cursor, vscode\)/);
 * ```
 */
export const mcpConfigCommand: Command = defineCommand({
  name: "mcp config",
  summary: "Print the entry an MCP host's configuration takes for pab mcp",
  description: `Print the entry Claude Desktop, Cursor or VS Code takes to start a server
behind pab mcp, with the proxy's options (the same as pab mcp's): absolute
paths, the lock that pins the MCP SDK, and the permissions, as JSON with
--host, or for every host with where its file lives.

From a clone the entry runs Deno with the CLI's sandbox plus --allow-run for
the server's command only (none with --url). From the compiled binary the
entry is the binary; its sandbox was fixed when it was compiled (localhost
network, writes under /tmp/pab, no --allow-run), so it takes a server that
is already running at --url http://localhost:PORT/mcp (Streamable HTTP) and
refuses -- CMD, saying so, rather than print an entry that cannot start.`,
  options: {
    ...PROXY_OPTIONS,
    host: {
      type: "string",
      value: "NAME",
      description: `One host's JSON: ${MCP_HOSTS.join(", ")} (default: every host, each named)`,
    },
    name: { type: "string", value: "NAME", description: "The server's name in the host's file (default pab)" },
  },
  arguments: { name: "-- CMD ARGS", max: Infinity },
  exitCodes: "0 the entry was printed; 2 bad usage, a policy that cannot be read, or a server this pab\n" +
    "cannot start or reach.",
  run: async (input, io) => {
    const host = input.string("host");
    if (host !== undefined && !MCP_HOSTS.includes(host as McpHost)) {
      throw new UsageError(`unknown host "${host}" for --host (use one of ${MCP_HOSTS.join(", ")})`, "mcp");
    }
    const checked = checkProxyInput(input);
    // The policy and the ceiling are checked now, so that the host does not find out at its first start.
    const policy = await loadPolicyFile(checked.policy, io);
    const ceiling = input.string("ceiling");
    if (ceiling !== undefined) ceilingLabel(policy, ceiling);
    const name = input.string("name") ?? "pab";
    const install = currentInstall(new URL("../../../cli.ts", import.meta.url).href, Deno.execPath());
    requireRunnableEntry(install, checked);
    const transient = transientDeno(install);
    if (transient) await io.stderr.write(`note: ${transient}\n`);
    const started = proxyCommand(install, {
      name,
      options: proxyArguments(input, Deno.cwd()),
      server: checked.server,
      ...(checked.url ? { url: checked.url } : {}),
      store: input.string("store") !== undefined,
    });
    if (host !== undefined) {
      await io.stdout.write(`${JSON.stringify(hostEntry(host as McpHost, name, started), null, 2)}\n`);
      return 0;
    }
    for (const each of MCP_HOSTS) {
      await io.stdout.write(`// ${each}: ${HOST_FILES[each]}\n`);
      await io.stdout.write(`${JSON.stringify(hostEntry(each, name, started), null, 2)}\n`);
    }
    return 0;
  },
});

/**
 * Throw `PermissionError` when `install` is a compiled binary whose sandbox
 * (fixed when it was compiled, and this process's own) cannot run the entry:
 * start the server's command, or reach its URL. A clone's entry grants what
 * it needs, so it is never refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireRunnableEntry } from "./mcp_config_command.ts";
 * requireRunnableEntry({ kind: "clone", root: "/src/pab", deno: "/usr/bin/deno" }, { server: ["npx"] });
 * if (Deno.permissions.querySync({ name: "run", command: "pab-no-such-server" }).state !== "granted") {
 *   assert.throws(
 *     () => requireRunnableEntry({ kind: "binary", path: "/usr/local/bin/pab" }, { server: ["pab-no-such-server"] }),
 *     /^PermissionError: Cannot print an entry that starts "pab-no-such-server": this pab is a compiled binary/,
 *   );
 * }
 * ```
 */
export function requireRunnableEntry(
  install: PabInstall,
  entry: { readonly server: readonly string[]; readonly url?: URL },
): void {
  if (install.kind !== "binary") return;
  if (entry.url) return requireNetPermission(entry.url);
  const [command] = entry.server;
  if (Deno.permissions.querySync({ name: "run", command }).state === "granted") return;
  throw new PermissionError(
    `Cannot print an entry that starts "${command}": this pab is a compiled binary, and its sandbox starts no ` +
      `program (run the server over Streamable HTTP on localhost and pass --url http://localhost:PORT/mcp, or print ` +
      `the entry from a clone of pab, which grants --allow-run for that command only)`,
  );
}

/**
 * Why the entry may stop working when the Deno that runs it is npx's cached
 * copy (`npx -y deno@...`): npm may clear its cache, and the entry names that
 * copy's path. Undefined for any other Deno, and for a binary.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { transientDeno } from "./mcp_config_command.ts";
 * assert.match(transientDeno({ kind: "clone", root: "/src/pab", deno: "/home/u/.npm/_npx/1a2b/node_modules/deno/deno" })!, /npm's cache/);
 * assert.equal(transientDeno({ kind: "clone", root: "/src/pab", deno: "/usr/local/bin/deno" }), undefined);
 * ```
 */
export function transientDeno(install: PabInstall): string | undefined {
  if (install.kind !== "clone" || !/[/\\]_npx[/\\]/.test(install.deno)) return undefined;
  return `the entry runs the Deno that npx keeps in npm's cache (${install.deno}), which npm may clear; ` +
    "for an entry that lasts, install Deno (https://docs.deno.com/runtime/getting_started/installation/) and run " +
    "pab mcp config with it";
}
