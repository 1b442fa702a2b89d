/**
 * `pab serve` on several threads: a front thread takes the connections,
 * admits each request (the connection cap, requests in flight, the token, the
 * checks that keep web pages out, the body read within bounds) and passes it
 * to the worker thread that holds its session; each worker runs the whole API
 * on its own share of the sessions (its own host, and its own handle on the
 * store), so no session's state is shared between threads. The cap on live
 * sessions is shared.
 *
 * @module
 */
import { errorAnswer, jsonTextAnswer } from "./error_answer.ts";
import { SESSION_TOKEN_HEADER } from "./session_credential.ts";
import { BodyDeadlines } from "./body_deadlines.ts";
import { admission, DEFAULT_MAX_BODY } from "./http_api.ts";
import { readBodyBytes } from "./read_body.ts";
import { RequestError } from "./request_error.ts";
import { type ServeLimits, serveLimits } from "./serve_limits.ts";
import { sharedTallyBuffer } from "./session_tally.ts";
import { listenFor, type RunningServer, type ServerOptions } from "./start_server.ts";
import type { WorkerRequest } from "./worker_protocol.ts";
import { sessionOfPath, workerOf } from "./worker_route.ts";
import { WorkerThread } from "./worker_thread.ts";

/** Options of {@linkcode startWorkerServer}. */
export interface WorkerServerOptions extends Omit<ServerOptions, "routes"> {
  /** The worker module: it calls `serveAsWorker` (see `worker_serving.ts`). */
  readonly module: URL;
  /** How many worker threads (at least 1). */
  readonly workers: number;
  /** Settings every worker is given (structured-cloneable): what it needs to build its host. */
  readonly config: unknown;
  /** The bounds (the front keeps the connection, in-flight and body ones; the workers the sessions'). */
  readonly limits?: Partial<ServeLimits>;
  /** POST endpoints the workers add, by path: the session key a body names, so it reaches the same worker each time. */
  readonly routeKeys?: Readonly<Record<string, (body: unknown) => string | undefined>>;
}

/**
 * Start a server whose sessions are served by `options.workers` worker
 * threads. Settles once every worker has started; rejects (and stops what
 * started) when one cannot. Throws `TypeError` for the options
 * `startServer` refuses, or fewer than one worker.
 */
export async function startWorkerServer(options: WorkerServerOptions): Promise<RunningServer> {
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new TypeError(`Cannot serve with ${options.workers} workers: give a whole number from 1`);
  }
  const limits = serveLimits(options.limits);
  const stopping = new AbortController();
  const bounds = {
    limit: options.maxBody ?? DEFAULT_MAX_BODY,
    deadlines: new BodyDeadlines(limits.bodySeconds * 1000, stopping.signal),
  };
  const threads: WorkerThread[] = [];
  let next = 0;
  let inFlight = 0;
  const pick = (path: string, body: Uint8Array | null): WorkerThread => {
    const key = sessionOfPath(path) ?? keyOfBody(path, body, options.routeKeys);
    return threads[key === undefined ? next++ % threads.length : workerOf(key, threads.length)];
  };
  const serve = (admit: (request: Request) => void) => async (request: Request): Promise<Response> => {
    if (inFlight >= limits.maxInFlight) {
      return errorAnswer(
        new RequestError("ERR_OVERLOADED", `Cannot serve the request now: ${inFlight} are in flight; retry later`),
      );
    }
    inFlight++;
    try {
      admit(request);
      const body = await readBodyBytes(request, bounds);
      const path = new URL(request.url).pathname;
      const token = request.headers.get(SESSION_TOKEN_HEADER);
      const message: Omit<WorkerRequest, "id"> = { kind: "request", method: request.method, path, token, body };
      const answer = await pick(path, body).ask(message);
      return jsonTextAnswer(answer.status, answer.body, answer.headers);
    } catch (error) {
      return errorAnswer(error);
    } finally {
      inFlight--;
    }
  };
  const { server, port, url } = listenFor(
    options,
    limits.maxConnections,
    (hosts) => serve(admission({ ...options, hosts })),
  );
  const tally = sharedTallyBuffer();
  for (let index = 0; index < options.workers; index++) {
    const setup = {
      index,
      count: options.workers,
      tally,
      config: options.config,
      limits: options.limits ?? {},
      version: options.version,
    };
    threads.push(new WorkerThread(options.module, setup));
  }
  const stop = async () => {
    stopping.abort();
    await server.shutdown();
    await Promise.all(threads.map((thread) => thread.close()));
  };
  try {
    await Promise.all(threads.map((thread) => thread.ready));
  } catch (error) {
    await stop();
    throw error;
  }
  let stopped: Promise<void> | undefined;
  const shutdown = () => stopped ??= stop();
  return {
    url,
    port,
    shutdown,
    finished: server.finished.then(() => shutdown()),
  };
}

/** The session key a POST body names: a session shared with (`ledger`), or one a `routeKeys` endpoint names. */
function keyOfBody(
  path: string,
  body: Uint8Array | null,
  routeKeys: WorkerServerOptions["routeKeys"],
): string | undefined {
  const keyOf = path === "/v1/sessions"
    ? (value: unknown) => (value as { ledger?: unknown })?.ledger
    : routeKeys && Object.hasOwn(routeKeys, path)
    ? routeKeys[path]
    : undefined;
  if (!keyOf || body === null || body.byteLength === 0) return undefined;
  try {
    const key = keyOf(JSON.parse(new TextDecoder().decode(body)));
    return typeof key === "string" ? key : undefined;
  } catch {
    // The worker answers the body's faults.
    return undefined;
  }
}
