/**
 * Load the modules that need the MCP SDK: the MCP adapter (`pab mcp`) and the
 * SDK's client (`pab generate --server`), and nothing else.
 *
 * Their specifiers are not `import()` literals on purpose. `deno run` resolves
 * every literal `import()` of the program before it starts, and checks it
 * against the lock file, so one literal import of the SDK would make
 * `deno task start` and every `deno task pab` download it (about 95
 * packages). `deno.lock` leaves the SDK out; `adapters/mcp/deno.lock` pins it, and the
 * commands that need it run with `--lock=adapters/mcp/deno.lock`. `deno task compile` embeds
 * these modules with `--include` (tests/release_test.ts keeps the list equal to
 * {@linkcode SDK_MODULES}), and `deno check` follows their types.
 *
 * @module
 */
import { DependencyError } from "../shell/cli_error.ts";

/**
 * The modules loaded here, relative to the repository.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SDK_MODULES } from "./mcp_sdk.ts";
 * assert.deepEqual(SDK_MODULES, ["adapters/mcp/mod.ts", "adapters/cli/mcp/mcp_client.ts", "adapters/mcp/http_transport.ts"]);
 * ```
 */
export const SDK_MODULES: readonly string[] = Object.freeze([
  "adapters/mcp/mod.ts",
  "adapters/cli/mcp/mcp_client.ts",
  "adapters/mcp/http_transport.ts",
]);

const ADAPTER = "../../mcp/mod.ts";
const CLIENT = "./mcp_client.ts";
const HTTP = "../../mcp/http_transport.ts";

/**
 * Load the MCP adapter for `pab mcp`. Throws `DependencyError` when the lock
 * file the program runs under does not pin the MCP SDK.
 *
 * @example Under adapters/mcp/deno.lock or the tests' lock (deno.lock does not pin the SDK)
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadMcpAdapter } from "./mcp_sdk.ts";
 * const { runStdioProxy } = await loadMcpAdapter();
 * assert.equal(typeof runStdioProxy, "function");
 * ```
 */
export async function loadMcpAdapter(): Promise<typeof import("../../mcp/mod.ts")> {
  return await load(ADAPTER, "pab mcp", "--allow-run cli.ts mcp --policy FILE -- CMD ARGS");
}

/**
 * Load the MCP adapter's Streamable HTTP transport for `pab mcp --url`, which
 * needs the SDK's client at run time (the stdio proxy needs only its types).
 * Throws `DependencyError` when the lock file does not pin the MCP SDK.
 *
 * @example Under adapters/mcp/deno.lock or the tests' lock (deno.lock does not pin the SDK)
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadMcpHttp } from "./mcp_sdk.ts";
 * const { HttpServerTransport } = await loadMcpHttp();
 * assert.equal(typeof HttpServerTransport, "function");
 * ```
 */
export async function loadMcpHttp(): Promise<typeof import("../../mcp/http_transport.ts")> {
  return await load(HTTP, "pab mcp --url", "cli.ts mcp --policy FILE --url URL");
}

/**
 * Load the MCP SDK's client for `pab generate --server`. Throws
 * `DependencyError` when the lock file does not pin the MCP SDK.
 *
 * @example Under adapters/mcp/deno.lock or the tests' lock (deno.lock does not pin the SDK)
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadMcpClient } from "./mcp_sdk.ts";
 * const { Client, StdioClientTransport } = await loadMcpClient();
 * assert.equal(typeof Client, "function");
 * assert.equal(typeof StdioClientTransport, "function");
 * ```
 */
export async function loadMcpClient(): Promise<typeof import("./mcp_client.ts")> {
  return await load(CLIENT, "pab generate --server", "--allow-run cli.ts generate --server -- CMD ARGS");
}

async function load<T>(specifier: string, command: string, usage: string): Promise<T> {
  try {
    return await import(specifier);
  } catch (error) {
    if (!isLockMiss(error)) throw error;
    throw new DependencyError(
      `Cannot load the MCP SDK for ${command}: the lock file it runs under does not pin it (deno.lock leaves it out ` +
        "so that deno task start does not download it; run with --lock=adapters/mcp/deno.lock, which pins it: " +
        `npx -y deno@2.9.6 run --lock=adapters/mcp/deno.lock --allow-read --allow-write=/tmp/pab ${usage})`,
    );
  }
}

/**
 * Whether `error` is Deno refusing a package that a frozen lock file does not pin.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLockMiss } from "./mcp_sdk.ts";
 * assert.ok(isLockMiss(new TypeError("The lockfile is out of date. Run `deno install --frozen=false`")));
 * assert.ok(!isLockMiss(new TypeError("Module not found")));
 * ```
 */
export function isLockMiss(error: unknown): boolean {
  return error instanceof Error && /lockfile is out of date/i.test(error.message);
}
