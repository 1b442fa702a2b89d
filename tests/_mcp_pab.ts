/**
 * How the MCP tests start `pab mcp` and their test servers in processes of
 * their own: the CLI's sandbox (as `deno task pab`) plus `--allow-run`, which
 * `pab mcp` needs to start a server, under the lock that pins the MCP SDK.
 */

/** The repository's root, as a path ending in `/`. */
export const ROOT = new URL("../", import.meta.url).pathname;

/** `deno` arguments that run `cli.ts` as `pab mcp` needs (add `mcp` and its options). */
export const PAB_MCP_RUN = [
  "run",
  // adapters/mcp/deno.lock pins the MCP SDK, which deno.lock leaves out (so that deno task start does not download it).
  `--lock=${ROOT}adapters/mcp/deno.lock`,
  "--frozen",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp/pab",
  "--allow-run",
  `${ROOT}cli.ts`,
];
