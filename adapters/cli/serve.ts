/**
 * `pab serve`: the guard behind an HTTP JSON API on localhost.
 *
 * @module
 */
import config from "../../deno.json" with { type: "json" };
import { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "../claude_code/mod.ts";
import { SessionHost, startServer } from "../serve/mod.ts";
import { openStore } from "../store/mod.ts";
import { UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import { loadPolicyFile } from "./load_policy.ts";
import { parseArgs } from "./parse_args.ts";

const HELP = `Usage: pab serve --policy FILE [--port N] [--store PATH|URL] [--hostname H --token T]

Serve pab's guard over an HTTP JSON API (see the README's "pab serve"
section for the endpoints; POST /v1/hooks/claude-code answers Claude Code's
http hooks). Prints the server's URL on stdout once it listens;
SIGINT or SIGTERM stop it after the requests in flight finish.

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
      help: { type: "boolean", short: "h" },
    }, "serve");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, "serve");
    if (typeof values.policy !== "string") throw new UsageError("missing --policy FILE", "serve");
    const port = integer(values.port, "port", 4517, 0, 65535);
    const maxBody = integer(values["max-body"], "max-body", 256 * 1024, 1024, 64 * 1024 * 1024);
    const policy = await loadPolicyFile(values.policy, io);
    const store = await openStore(typeof values.store === "string" ? values.store : ":memory:");
    try {
      let host: SessionHost;
      try {
        host = new SessionHost(policy, store);
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
          ...(typeof values.hostname === "string" ? { hostname: values.hostname } : {}),
          ...(typeof values.token === "string" ? { token: values.token } : {}),
        });
      } catch (error) {
        if (error instanceof TypeError) throw new UsageError(error.message, "serve");
        throw error;
      }
      const stop = () => void server.shutdown();
      const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
      for (const signal of signals) Deno.addSignalListener(signal, stop);
      await io.stdout.write(`${server.url}\n`);
      await io.stderr.write(
        `pab serve: listening on ${server.url} (policy "${values.policy}", store ${store.description})\n`,
      );
      try {
        await server.finished;
      } finally {
        for (const signal of signals) Deno.removeSignalListener(signal, stop);
      }
      await io.stderr.write("pab serve: stopped\n");
      return 0;
    } finally {
      store.close();
    }
  },
};

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
