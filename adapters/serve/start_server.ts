/**
 * Start `pab serve`'s HTTP server: on a loopback interface unless a token is
 * required, answering only to the names it listens on, with a bound on the
 * connections served at once; shutting down cuts off bodies still arriving
 * and finishes the requests in flight.
 *
 * @module
 */
import { type ConnectionGate, connectionGate } from "./connection_gate.ts";
import { apiHandler, type ApiOptions } from "./http_api.ts";
import { lastingServe, type LastingServer } from "./lasting_server.ts";
import type { SessionHost } from "./session_host.ts";
import { type HostNames, listenedHosts } from "./web_checks.ts";

/** Options of {@linkcode startServer}. */
export interface ServerOptions extends Omit<ApiOptions, "hosts" | "signal" | "framed"> {
  /** The port (0 picks a free one; default 4517). */
  readonly port?: number;
  /** The interface (default `localhost`); any other needs `token`. */
  readonly hostname?: string;
  /** More names clients may reach it by (a reverse proxy's, say), without a port: each is accepted with the port. */
  readonly allowHosts?: readonly string[];
}

/** A running server. */
export interface RunningServer {
  /** Its base URL, such as `http://localhost:4517`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stop accepting connections and wait for the requests in flight. */
  shutdown(): Promise<void>;
  /** Settles when the server has stopped. */
  readonly finished: Promise<void>;
  /** Why the server stopped on its own (a worker thread died), once it has; `undefined` otherwise. */
  readonly fault?: () => Error | undefined;
}

/** The default port of `pab serve`. */
export const DEFAULT_PORT = 4517;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/**
 * Whether `hostname` is a loopback interface.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLoopback } from "./start_server.ts";
 * assert.equal(isLoopback("localhost"), true);
 * assert.equal(isLoopback("0.0.0.0"), false);
 * ```
 */
export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase());
}

/**
 * Start serving `host`. Throws `TypeError` at once for a non-loopback
 * interface without a token, or a token shorter than 16 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { SessionHost } from "./session_host.ts";
 * import { startServer } from "./start_server.ts";
 * const host = new SessionHost(parsePolicy("version: 1\ntools: {}\n", { source: "p.yaml" }), await openStore());
 * const server = startServer(host, { version: "0.1.0", port: 0 });
 * const response = await fetch(`${server.url}/v1/health`);
 * assert.equal(response.status, 200);
 * await response.body?.cancel();
 * await server.shutdown();
 * host.store.close();
 * ```
 */
export function startServer(host: SessionHost, options: ServerOptions): RunningServer {
  const stopping = new AbortController();
  const { server, port, url } = listenFor(
    options,
    connectionGate(host.limits.maxConnections),
    (hosts) => apiHandler(host, { ...options, hosts, signal: stopping.signal, framed: true }),
  );
  return {
    url,
    port,
    shutdown: () => {
      stopping.abort();
      return server.shutdown();
    },
    finished: server.finished,
  };
}

/** Where to listen: the options `listenFor` reads. */
export interface ListenOptions extends Pick<ServerOptions, "hostname" | "token" | "port" | "allowHosts"> {
  /** Share the port with other listeners (Linux `SO_REUSEPORT`: the kernel spreads connections among them). */
  readonly reusePort?: boolean;
}

/**
 * Listen as `options` say, with the connection cap `gate`, serving with the
 * handler `handle` makes (given the `Host` values accepted, known once the
 * port is): what `startServer` and the worker threads of `startWorkerServer`
 * share. Throws `TypeError` for a non-loopback interface without a token, or
 * a token shorter than 16 characters. The server listens again when its
 * accept fails (see `lastingServe`).
 */
export function listenFor(
  options: ListenOptions,
  gate: ConnectionGate,
  handle: (hosts: () => HostNames) => (request: Request) => Promise<Response>,
): { server: LastingServer; port: number; url: string } {
  const hostname = checkListen(options);
  let hosts = listenedHosts(hostname, 0);
  const handler = handle(() => hosts);
  const server = lastingServe({
    hostname,
    port: options.port ?? DEFAULT_PORT,
    ...(options.reusePort ? { reusePort: true } : {}),
    onListen: () => {},
    onError: () =>
      new Response('{"error":{"code":"ERR_INTERNAL","message":"pab failed unexpectedly"}}', { status: 500 }),
  }, (request, info) => gate(request, info, () => handler(request)));
  const port = server.addr.port;
  hosts = listenedHosts(hostname, port, options.allowHosts ?? []);
  return { server, port, url: serverUrl(hostname, port) };
}

/**
 * The interface `options` name (default `localhost`), once checked: throws
 * `TypeError` for a non-loopback interface without a token, or a token
 * shorter than 16 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkListen } from "./start_server.ts";
 * assert.equal(checkListen({}), "localhost");
 * assert.throws(() => checkListen({ hostname: "0.0.0.0" }), TypeError);
 * ```
 */
export function checkListen(options: Pick<ListenOptions, "hostname" | "token">): string {
  const hostname = options.hostname ?? "localhost";
  if (!isLoopback(hostname) && options.token === undefined) {
    throw new TypeError(`Cannot serve on "${hostname}": other interfaces than localhost need --token`);
  }
  if (options.token !== undefined && options.token.length < 16) {
    throw new TypeError("Cannot serve with this token: use at least 16 characters");
  }
  return hostname;
}

/**
 * The base URL of a server on `hostname:port`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { serverUrl } from "./start_server.ts";
 * assert.equal(serverUrl("::1", 4517), "http://[::1]:4517");
 * ```
 */
export function serverUrl(hostname: string, port: number): string {
  const shown = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  return `http://${shown}:${port}`;
}
