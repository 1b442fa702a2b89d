/**
 * What `pab mcp` needs from Deno's sandbox, asked before anything starts: to
 * run the server's command (`--allow-run`), or to reach the server's URL
 * (`--allow-net`). Never prompted for: stdin belongs to the MCP client.
 *
 * @module
 */
import { PermissionError, UsageError } from "../shell/cli_error.ts";

/** Where pab runs with Deno's sandbox as `deno task pab` sets it (the compiled binary's, plus `--allow-run`). */
const CLONE_COMMAND = "deno run --lock=adapters/mcp/deno.lock --unstable-kv --allow-net=localhost --allow-read " +
  "--allow-write=/tmp/pab --allow-env=DENO_KV_ACCESS_TOKEN --allow-run=CMD cli.ts mcp ...";

/**
 * Throw `PermissionError` (`ERR_CLI_PERMISSION`) unless this process may run
 * `command` (granted by `--allow-run` or `--allow-run=CMD`). A compiled pab
 * never may: the message then names the way a sandboxed binary can reach a
 * server (`--url`, Streamable HTTP on localhost).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireRunPermission } from "./mcp_permissions.ts";
 * const granted = Deno.permissions.querySync({ name: "run", command: "pab-test-server" }).state === "granted";
 * if (granted) requireRunPermission("pab-test-server");
 * else assert.throws(() => requireRunPermission("pab-test-server"), /^PermissionError: Cannot start MCP server "pab-test-server": pab mcp needs --allow-run/);
 * ```
 */
export function requireRunPermission(command: string): void {
  if (Deno.permissions.querySync({ name: "run", command }).state === "granted") return;
  throw new PermissionError(
    `Cannot start MCP server "${command}": pab mcp needs --allow-run, which pab's sandbox (deno task pab, the ` +
      `compiled binary) does not grant (run the server over Streamable HTTP on localhost and pass --url ` +
      `http://localhost:PORT/mcp, or run pab from a clone with --allow-run for that command only: ${CLONE_COMMAND})`,
  );
}

/**
 * Check a server's URL for `pab mcp --url`: `http:` or `https:`, no user name
 * or password (they would be printed in hosts' configurations and logs).
 * Throws `UsageError` otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverUrl } from "./mcp_permissions.ts";
 * assert.equal(serverUrl("http://localhost:3000/mcp").port, "3000");
 * assert.throws(() => serverUrl("file:///etc/passwd"), /--url needs an http: or https: URL/);
 * ```
 */
export function serverUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--url needs the server's MCP endpoint, such as http://localhost:3000/mcp, got "${text}"`,
      "mcp",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`--url needs an http: or https: URL, got "${url.protocol}"`, "mcp");
  }
  if (url.username || url.password) {
    throw new UsageError("--url must not carry a user name or password: they would be printed and logged", "mcp");
  }
  return url;
}

/**
 * Throw `PermissionError` (`ERR_CLI_PERMISSION`) unless this process may
 * connect to `url`'s host. pab's sandbox grants `localhost` only (by that
 * name: `127.0.0.1` is another host to Deno).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requireNetPermission } from "./mcp_permissions.ts";
 * const url = new URL("http://pab-test.invalid:1/mcp");
 * if (Deno.permissions.querySync({ name: "net", host: url.host }).state !== "granted") {
 *   assert.throws(() => requireNetPermission(url), /^PermissionError: Cannot reach the MCP server at http:\/\/pab-test\.invalid:1\/mcp/);
 * }
 * ```
 */
export function requireNetPermission(url: URL): void {
  if (Deno.permissions.querySync({ name: "net", host: url.host }).state === "granted") return;
  const loopback = /^(127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname);
  throw new PermissionError(
    `Cannot reach the MCP server at ${url.href}: pab's sandbox grants the network for localhost only (${
      loopback
        ? "name the host localhost: Deno treats an address as another host"
        : `run the server on localhost, or run pab from a clone with --allow-net=localhost,${url.host}`
    })`,
  );
}
