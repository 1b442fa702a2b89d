/**
 * `pab serve`: the guard behind an HTTP JSON API on localhost.
 *
 * @module
 */
import config from "../../../deno.json" with { type: "json" };
import { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "../../claude_code/mod.ts";
import { DEFAULT_LIMITS, DEFAULT_PORT, SESSION_TOKEN_HEADER, SessionHost, startServer } from "../../serve/mod.ts";
import { openStore } from "../../store/mod.ts";
import { UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import { parseArgs } from "../shell/parse_args.ts";
import { stopSignal } from "../io/stop_signal.ts";

const HELP = `Usage: pab serve --policy FILE [--port N] [--store PATH|URL] [--hostname H --token T]
       pab serve delete SESSION --session-token T [--url URL] [--token T]

Serve pab's guard over an HTTP JSON API (see the README's "pab serve"
section for the endpoints; POST /v1/hooks/claude-code answers Claude Code's
http hooks). Prints the server's URL on stdout once it listens;
SIGINT or SIGTERM stop it after the requests in flight finish (bodies still
arriving are cut off).

It answers only requests whose Host is a name it listens on, refuses
browsers' cross-site requests and bodies not sent as application/json, and
every call on a session needs the token POST /v1/sessions returned with it.

"pab serve delete" ends a session on a running server (later calls on it are
refused; its audit chain stays).

Options:
  -p, --policy FILE    The policy (.yaml, .yml, .json or .jsonc)
      --port N         The port (default 4517; 0 picks a free one)
      --store PATH|URL Where sessions, the ledger and the audit log live:
                       :memory: (default), a Deno KV file, or the URL of a
                       remote Deno KV (a denokv server or Deno Deploy; set
                       DENO_KV_ACCESS_TOKEN)
      --hostname H     The interface (default localhost); any other needs --token
      --token T        Require "Authorization: Bearer T" (at least 16 characters)
      --max-body N     The largest request body in bytes (default 262144)
      --allow-host H   Also answer to Host H (a name clients use, such as a
                       reverse proxy's); comma-separated for several
      --max-sessions N Sessions alive at once (default 10000)
      --idle-minutes N Minutes an unused session lives (default 60)
      --url URL        For delete: the server (default http://localhost:4517)
      --session-token T  For delete: the session's token

Permissions: --unstable-kv --allow-net=localhost --allow-read, and
--allow-write for a store file's folder, --allow-env=DENO_KV_ACCESS_TOKEN for a
remote store.
`;

/**
 * The `pab serve` command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveCommand } from "./serve.ts";
 * assert.equal(serveCommand.name, "serve");
 * ```
 */
export const serveCommand: Command = {
  name: "serve",
  summary: "Serve the guard over an HTTP JSON API on localhost",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseArgs(args, {
      policy: { type: "string", short: "p" },
      port: { type: "string" },
      store: { type: "string" },
      hostname: { type: "string" },
      token: { type: "string" },
      "max-body": { type: "string" },
      "allow-host": { type: "string" },
      "max-sessions": { type: "string" },
      "idle-minutes": { type: "string" },
      url: { type: "string" },
      "session-token": { type: "string" },
      help: { type: "boolean", short: "h" },
    }, "serve");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (positionals[0] === "delete") return await deleteSession(positionals.slice(1), values, io);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, "serve");
    if (typeof values.policy !== "string") throw new UsageError("missing --policy FILE", "serve");
    const port = integer(values.port, "port", 4517, 0, 65535);
    const maxBody = integer(values["max-body"], "max-body", 256 * 1024, 1024, 64 * 1024 * 1024);
    const limits = {
      maxSessions: integer(values["max-sessions"], "max-sessions", DEFAULT_LIMITS.maxSessions, 1, 10_000_000),
      idleSeconds: 60 * integer(values["idle-minutes"], "idle-minutes", DEFAULT_LIMITS.idleSeconds / 60, 1, 525_600),
    };
    const allowHosts = typeof values["allow-host"] === "string"
      ? values["allow-host"].split(",").map((host) => host.trim()).filter(Boolean)
      : [];
    const policy = await loadPolicyFile(values.policy, io);
    const store = await openStore(typeof values.store === "string" ? values.store : ":memory:");
    try {
      let host: SessionHost;
      try {
        host = new SessionHost(policy, store, { limits });
      } catch (error) {
        throw new UsageError(`cannot serve policy "${values.policy}": ${(error as Error).message}`, "serve");
      }
      let server;
      try {
        server = startServer(host, {
          version: config.version,
          port,
          maxBody,
          routes: { [CLAUDE_CODE_HOOK_PATH]: claudeCodeRoute(host) },
          allowHosts,
          ...(typeof values.hostname === "string" ? { hostname: values.hostname } : {}),
          ...(typeof values.token === "string" ? { token: values.token } : {}),
        });
      } catch (error) {
        if (error instanceof TypeError) throw new UsageError(error.message, "serve");
        throw error;
      }
      const stop = stopSignal();
      stop.signal.addEventListener("abort", () => void server.shutdown(), { once: true });
      await io.stdout.write(`${server.url}\n`);
      await io.stderr.write(
        `pab serve: listening on ${server.url} (policy "${values.policy}", store ${store.description})\n`,
      );
      try {
        await server.finished;
      } finally {
        stop.dispose();
      }
      await io.stderr.write("pab serve: stopped\n");
      return 0;
    } finally {
      store.close();
    }
  },
};

async function deleteSession(
  positionals: readonly string[],
  values: Readonly<Record<string, string | number | boolean | undefined>>,
  io: Parameters<Command["run"]>[1],
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("name one session: pab serve delete SESSION", "serve");
  const token = values["session-token"];
  if (typeof token !== "string") {
    throw new UsageError("missing --session-token T (the token the session was made with)", "serve");
  }
  const base = typeof values.url === "string" ? values.url.replace(/\/+$/, "") : `http://localhost:${DEFAULT_PORT}`;
  const headers: Record<string, string> = { [SESSION_TOKEN_HEADER]: token };
  if (typeof values.token === "string") headers.authorization = `Bearer ${values.token}`;
  let response: Response;
  try {
    response = await fetch(`${base}/v1/sessions/${encodeURIComponent(positionals[0])}`, { method: "DELETE", headers });
  } catch (error) {
    throw new UsageError(`cannot reach pab serve at ${base}: ${(error as Error).message}`, "serve");
  }
  const answer = await response.text();
  if (response.status === 200) {
    await io.stdout.write(`deleted session ${positionals[0]}\n`);
    return 0;
  }
  await io.stderr.write(`pab serve delete: ${response.status} ${answer}\n`);
  return 1;
}

function integer(
  text: string | boolean | number | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  const whole = typeof text === "number" ? Number.isInteger(text) : typeof text === "string" && /^\d+$/.test(text);
  if (!whole || value < min || value > max) {
    throw new UsageError(
      `option --${name} must be a whole number from ${min} to ${max}, not "${String(text)}"`,
      "serve",
    );
  }
  return value;
}
