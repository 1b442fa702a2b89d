/**
 * `pab mcp config`: the exact entry an MCP host (Claude Desktop, Cursor,
 * VS Code) needs to start a server behind `pab mcp`: absolute paths, the
 * lock file that pins the MCP SDK, and the permissions, for a clone or a
 * compiled binary.
 *
 * @module
 */
import { UsageError } from "../shell/cli_error.ts";

/** The hosts whose configuration format is known. */
export const MCP_HOSTS = Object.freeze(["claude-desktop", "cursor", "vscode"] as const);

/** One of {@linkcode MCP_HOSTS}. */
export type McpHost = typeof MCP_HOSTS[number];

/** Where pab runs from. */
export type PabInstall =
  | {
    /** A clone: run `cli.ts` with Deno. */
    readonly kind: "clone";
    /** The clone's absolute path. */
    readonly root: string;
    /** The Deno executable's absolute path. */
    readonly deno: string;
  }
  | {
    /** A compiled binary (its permissions were fixed when it was compiled). */
    readonly kind: "binary";
    /** The binary's absolute path. */
    readonly path: string;
  };

/** What the entry starts. */
export interface ProxyEntry {
  /** The server's name in the host's configuration. */
  readonly name: string;
  /** `pab mcp`'s own options (`--policy` with an absolute path, ...), as they will be passed. */
  readonly options: readonly string[];
  /** The real server's command and arguments (empty when `url` names a server that is already running). */
  readonly server: readonly string[];
  /** The server's Streamable HTTP endpoint, when it is reached over HTTP (`--url`, also among the options). */
  readonly url?: URL;
  /** Whether `--store` is among the options (the store's token is then read from the environment). */
  readonly store?: boolean;
}

/**
 * The command and arguments that start `pab mcp` in front of a server, with
 * the CLI's sandbox plus `--allow-run` for that one command (a server behind
 * `url` needs none; a host other than localhost is added to `--allow-net`).
 * From a clone: Deno with the repository's `deno.json` and
 * `adapters/mcp/deno.lock` (frozen), so it runs the same from any working
 * directory. From a binary: the binary, whose sandbox was fixed when it was
 * compiled (the caller checks that it can run the entry).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { proxyCommand } from "./mcp_config.ts";
 * const started = proxyCommand({ kind: "clone", root: "/src/pab", deno: "/usr/bin/deno" }, {
 *   name: "memory",
 *   options: ["--policy", "/etc/pab/memory.yaml"],
 *   server: ["npx", "-y", "@modelcontextprotocol/server-memory"],
 * });
 * assert.equal(started.command, "/usr/bin/deno");
 * assert.deepEqual(started.args.slice(0, 3), ["run", "--config=/src/pab/deno.json", "--lock=/src/pab/adapters/mcp/deno.lock"]);
 * assert.ok(started.args.includes("--allow-run=npx"));
 * assert.deepEqual(started.args.slice(-6), ["--policy", "/etc/pab/memory.yaml", "--", "npx", "-y", "@modelcontextprotocol/server-memory"]);
 * const binary = proxyCommand({ kind: "binary", path: "/usr/local/bin/pab" }, { name: "fs", options: [], server: ["/usr/bin/srv"] });
 * assert.deepEqual(binary, { command: "/usr/local/bin/pab", args: ["mcp", "--", "/usr/bin/srv"] });
 * const url = new URL("http://localhost:3000/mcp");
 * const http = proxyCommand({ kind: "clone", root: "/src/pab", deno: "/usr/bin/deno" }, {
 *   name: "notes",
 *   options: ["--policy", "/etc/pab/notes.yaml", "--url", url.href],
 *   server: [],
 *   url,
 * });
 * assert.ok(http.args.includes("--allow-net=localhost") && !http.args.some((arg) => arg.startsWith("--allow-run")));
 * assert.deepEqual(http.args.slice(-5), ["mcp", "--policy", "/etc/pab/notes.yaml", "--url", "http://localhost:3000/mcp"]);
 * ```
 */
export function proxyCommand(install: PabInstall, entry: ProxyEntry): { command: string; args: string[] } {
  const [program] = entry.server;
  if (!program && !entry.url) {
    throw new UsageError(
      "name the server: pab mcp config --policy FILE -- CMD ARGS, or --url http://localhost:PORT/mcp",
      "mcp",
    );
  }
  if (program && entry.url) throw new UsageError("name the server once: -- CMD ARGS or --url URL", "mcp");
  const tail = ["mcp", ...entry.options, ...(program ? ["--", ...entry.server] : [])];
  const hosts = ["localhost", ...(entry.url && entry.url.hostname !== "localhost" ? [entry.url.host] : [])];
  if (install.kind === "binary") return { command: install.path, args: tail };
  const root = install.root.replace(/\/+$/, "");
  return {
    command: install.deno,
    args: [
      "run",
      `--config=${root}/deno.json`,
      `--lock=${root}/adapters/mcp/deno.lock`,
      "--frozen",
      "--no-prompt",
      ...(entry.store ? ["--unstable-kv", "--allow-env=DENO_KV_ACCESS_TOKEN"] : []),
      `--allow-net=${hosts.join(",")}`,
      "--allow-read",
      "--allow-write=/tmp/pab",
      ...(program ? [`--allow-run=${program}`] : []),
      `${root}/cli.ts`,
      ...tail,
    ],
  };
}

/**
 * The JSON a host's configuration file takes for one server (the whole file
 * when it has no other server): `mcpServers` for Claude Desktop
 * (`claude_desktop_config.json`) and Cursor (`.cursor/mcp.json`), `servers`
 * with `type: stdio` for VS Code (`.vscode/mcp.json`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostEntry } from "./mcp_config.ts";
 * const started = { command: "/usr/bin/deno", args: ["run", "cli.ts"] };
 * assert.deepEqual(hostEntry("vscode", "fs", started), { servers: { fs: { type: "stdio", command: "/usr/bin/deno", args: ["run", "cli.ts"] } } });
 * assert.deepEqual(hostEntry("cursor", "fs", started), { mcpServers: { fs: { command: "/usr/bin/deno", args: ["run", "cli.ts"] } } });
 * ```
 */
export function hostEntry(
  host: McpHost,
  name: string,
  started: { readonly command: string; readonly args: readonly string[] },
): Record<string, unknown> {
  const server = { command: started.command, args: [...started.args] };
  if (host === "vscode") return { servers: { [name]: { type: "stdio", ...server } } };
  return { mcpServers: { [name]: server } };
}

/** Where each host keeps the file, for the text output. */
export const HOST_FILES: Readonly<Record<McpHost, string>> = Object.freeze({
  "claude-desktop":
    "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\)",
  cursor: "~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)",
  vscode: ".vscode/mcp.json in the workspace (or the user settings' mcp.servers)",
});

/**
 * Where this pab runs from: a compiled binary when the running module is
 * embedded in the executable, else the clone holding `cli.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { currentInstall } from "./mcp_config.ts";
 * const install = currentInstall(new URL("../../../cli.ts", import.meta.url).href, "/usr/bin/deno");
 * assert.equal(install.kind, "clone");
 * ```
 */
export function currentInstall(cliUrl: string, execPath: string): PabInstall {
  const url = new URL(cliUrl);
  // deno compile serves embedded modules from a virtual folder named after the binary's temporary root.
  if (url.protocol !== "file:" || /\/deno-compile-[^/]+\//.test(url.pathname)) {
    return { kind: "binary", path: execPath };
  }
  return { kind: "clone", root: decodeURIComponent(url.pathname).replace(/\/cli\.ts$/, ""), deno: execPath };
}
