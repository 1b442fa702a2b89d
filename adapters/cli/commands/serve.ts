/**
 * `pab serve`: the guard behind an HTTP JSON API on localhost.
 *
 * @module
 */
import config from "../../../deno.json" with { type: "json" };
import { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "../../claude_code/mod.ts";
import {
  DEFAULT_LIMITS,
  DEFAULT_PORT,
  SESSION_TOKEN_HEADER,
  SessionHost,
  startServer,
  startWorkerServer,
} from "../../serve/mod.ts";
import { parsePolicy } from "../../../guard/policy/text/mod.ts";
import { hookSessionKey, SERVE_WORKER_MODULE, type ServeWorkerConfig } from "./serve_worker.ts";
import { openStore } from "../../store/mod.ts";
import { UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { readPolicyText } from "../policy/load_policy.ts";
import { type CommandInput, defineCommand } from "../shell/define_command.ts";
import type { Io } from "../io/io.ts";
import { stopSignal } from "../io/stop_signal.ts";
import { policyOption } from "../policy/policy_option.ts";

const serveListenCommand: Command = defineCommand({
  name: "serve",
  summary: "Serve the guard over an HTTP JSON API on localhost",
  description: `Serve pab's guard over an HTTP JSON API (see the README's "pab serve"
section for the endpoints; POST /v1/hooks/claude-code answers Claude Code's
http hooks). Prints the server's URL on stdout once it listens;
SIGINT or SIGTERM stop it after the requests in flight finish (bodies still
arriving are cut off).

It answers only requests whose Host is a name it listens on, refuses
browsers' cross-site requests and bodies not sent as application/json, and
every call on a session needs the token POST /v1/sessions returned with it.`,
  options: {
    policy: policyOption(),
    port: { type: "string", value: "N", description: "The port (default 4517; 0 picks a free one)" },
    store: {
      type: "string",
      value: "PATH|URL",
      description: `Where sessions, the ledger and the audit log live: :memory: (default),
a Deno KV file, or the URL of a remote Deno KV (a denokv server or Deno Deploy;
set DENO_KV_ACCESS_TOKEN)`,
    },
    hostname: { type: "string", value: "H", description: "The interface (default localhost); any other needs --token" },
    token: { type: "string", value: "T", description: 'Require "Authorization: Bearer T" (at least 16 characters)' },
    "max-body": { type: "string", value: "N", description: "The largest request body in bytes (default 262144)" },
    "allow-host": {
      type: "string",
      value: "H",
      description: `Also answer to Host H (a name clients use, such as a reverse proxy's);
comma-separated for several`,
    },
    "max-sessions": { type: "string", value: "N", description: "Sessions alive at once (default 10000)" },
    "idle-minutes": { type: "string", value: "N", description: "Minutes an unused session lives (default 60)" },
    workers: {
      type: "string",
      value: "N",
      description: `Serve the sessions on N worker threads (default 1: on this thread); each
session lives in one worker, and with the in-memory store so do its data`,
    },
  },
  notes: `"pab serve delete SESSION --session-token T [--url URL] [--token T]" ends a
session on a running server (later calls on it are refused; its audit chain
stays); see pab serve delete --help.

Permissions: --unstable-kv --allow-net=localhost --allow-read, and
--allow-write for a store file's folder, --allow-env=DENO_KV_ACCESS_TOKEN for a
remote store.`,
  exitCodes: "0 stopped; 2 bad usage, a policy that does not load, or a port or store that cannot be used.",
  run: (input, io) => listen(input, io),
});

/**
 * `pab serve delete SESSION`: end a session on a running server.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveDeleteCommand } from "./serve.ts";
 * assert.match(serveDeleteCommand.help, /^Usage: pab serve delete --session-token T \[OPTIONS\] SESSION\n/);
 * ```
 */
export const serveDeleteCommand: Command = defineCommand({
  name: "serve delete",
  summary: "End a session on a running pab serve",
  description: "End a session on a running server: later calls on it are refused; its audit chain stays.",
  options: {
    "session-token": {
      type: "string",
      value: "T",
      required: true,
      description: "The token the session was made with",
    },
    url: { type: "string", value: "URL", description: `The server (default http://localhost:${DEFAULT_PORT})` },
    token: { type: "string", value: "T", description: "The server's --token, when it has one" },
  },
  arguments: { name: "SESSION", min: 1, max: 1, missing: "name one session: pab serve delete SESSION" },
  exitCodes: "0 deleted; 1 the server refused; 2 bad usage or a server that cannot be reached.",
  run: (input, io) => deleteSession(input, io),
});

/**
 * The `pab serve` command: serve, or with `delete`, end a session.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveCommand } from "./serve.ts";
 * assert.equal(serveCommand.name, "serve");
 * assert.match(serveCommand.help, /^Usage: pab serve --policy FILE \[OPTIONS\]\n/);
 * ```
 */
export const serveCommand: Command = {
  name: "serve",
  summary: serveListenCommand.summary,
  get help() {
    return serveListenCommand.help;
  },
  run: (args, io) =>
    args[0] === "delete" ? serveDeleteCommand.run(args.slice(1), io) : serveListenCommand.run(args, io),
};

async function listen(input: CommandInput, io: Io): Promise<number> {
  const values = {
    policy: input.string("policy")!,
    port: input.string("port"),
    store: input.string("store"),
    hostname: input.string("hostname"),
    token: input.string("token"),
    "max-body": input.string("max-body"),
    "allow-host": input.string("allow-host"),
    "max-sessions": input.string("max-sessions"),
    "idle-minutes": input.string("idle-minutes"),
    workers: input.string("workers"),
  };
  const workers = integer(values.workers, "workers", 1, 1, 64);
  const port = integer(values.port, "port", 4517, 0, 65535);
  const maxBody = integer(values["max-body"], "max-body", 256 * 1024, 1024, 64 * 1024 * 1024);
  const limits = {
    maxSessions: integer(values["max-sessions"], "max-sessions", DEFAULT_LIMITS.maxSessions, 1, 10_000_000),
    idleSeconds: 60 * integer(values["idle-minutes"], "idle-minutes", DEFAULT_LIMITS.idleSeconds / 60, 1, 525_600),
  };
  const allowHosts = typeof values["allow-host"] === "string"
    ? values["allow-host"].split(",").map((host) => host.trim()).filter(Boolean)
    : [];
  // A Host header names a host and the port; a name given with a port, a scheme or a path would never match one.
  const unmatchable = allowHosts.find((host) => !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)$/.test(host));
  if (unmatchable !== undefined) {
    throw new UsageError(
      `option --allow-host takes host names without a port, scheme or path (the server's port is added), not "${unmatchable}"`,
      "serve",
    );
  }
  const text = await readPolicyText(values.policy, io);
  const policy = parsePolicy(text.text, { source: values.policy, format: text.format });
  const where = typeof values.store === "string" ? values.store : ":memory:";
  const store = await openStore(where);
  try {
    let host: SessionHost;
    try {
      host = new SessionHost(policy, store, { limits });
    } catch (error) {
      throw new UsageError(`cannot serve policy "${values.policy}": ${(error as Error).message}`, "serve");
    }
    const options = {
      version: config.version,
      port,
      maxBody,
      allowHosts,
      ...(typeof values.hostname === "string" ? { hostname: values.hostname } : {}),
      ...(typeof values.token === "string" ? { token: values.token } : {}),
    };
    let server;
    try {
      if (workers === 1) {
        server = startServer(host, { ...options, routes: { [CLAUDE_CODE_HOOK_PATH]: claudeCodeRoute(host) } });
      } else {
        // Each worker opens the store itself (its own share of an in-memory one).
        const shared: ServeWorkerConfig = { policy: { ...text, source: values.policy }, store: where };
        server = await startWorkerServer({
          ...options,
          module: SERVE_WORKER_MODULE,
          workers,
          config: shared,
          limits,
          routeKeys: { [CLAUDE_CODE_HOOK_PATH]: hookSessionKey },
        });
      }
    } catch (error) {
      if (error instanceof TypeError) throw new UsageError(error.message, "serve");
      if (workers > 1) throw new UsageError(`cannot start the workers: ${(error as Error).message}`, "serve");
      if (cannotListen(error)) {
        throw new UsageError(
          `cannot listen on ${options.hostname ?? "localhost"} port ${port}: ${
            (error as Error).message
          } (pick another --port, 0 for a free one, or grant --allow-net for the interface)`,
          "serve",
        );
      }
      throw error;
    }
    const stop = stopSignal();
    stop.signal.addEventListener("abort", () => void server.shutdown(), { once: true });
    await io.stdout.write(`${server.url}\n`);
    await io.stderr.write(
      `pab serve: listening on ${server.url} (policy "${values.policy}", store ${store.description}${
        workers > 1 ? `, ${workers} workers` : ""
      })\n`,
    );
    try {
      await server.finished;
    } finally {
      stop.dispose();
    }
    const fault = server.fault?.();
    if (fault) {
      await io.stderr.write(`pab serve: stopped: ${fault.message}\n`);
      return 2;
    }
    await io.stderr.write("pab serve: stopped\n");
    return 0;
  } finally {
    store.close();
  }
}

async function deleteSession(input: CommandInput, io: Io): Promise<number> {
  const positionals = input.positionals;
  const token = input.string("session-token")!;
  const base = input.string("url")?.replace(/\/+$/, "") ?? `http://localhost:${DEFAULT_PORT}`;
  const headers: Record<string, string> = { [SESSION_TOKEN_HEADER]: token };
  if (input.string("token") !== undefined) headers.authorization = `Bearer ${input.string("token")}`;
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

/** Whether `error` is the system's or the sandbox's refusal to listen (a port in use, an interface not granted). */
function cannotListen(error: unknown): boolean {
  const { AddrInUse, AddrNotAvailable, NotCapable, PermissionDenied } = Deno.errors;
  return [AddrInUse, AddrNotAvailable, NotCapable, PermissionDenied].some((kind) => error instanceof kind);
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
