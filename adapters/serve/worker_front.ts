/**
 * `pab serve` on several worker threads. Each worker runs the whole API on
 * its own share of the sessions (its own host, and its own handle on the
 * store), so no session's state is shared between threads; the caps on live
 * sessions, connections and requests in flight are shared.
 *
 * Where the port can be shared (Linux `SO_REUSEPORT`, with `--unstable-net`),
 * every worker listens on it and the kernel spreads connections among them
 * (see `shared_port_server.ts`). Elsewhere a front thread takes the
 * connections, admits each request and passes it to the worker that holds
 * its session (this file).
 *
 * @module
 */
import { BodyDeadlines } from "./body_deadlines.ts";
import { connectionGate } from "./connection_gate.ts";
import { admission, DEFAULT_MAX_BODY } from "./http_api.ts";
import { requestIntake } from "./request_intake.ts";
import { serveLimits } from "./serve_limits.ts";
import { localTally, sharedTallyBuffer } from "./session_tally.ts";
import { startSharedPortServer } from "./shared_port_server.ts";
import { checkListen, listenFor, type RunningServer } from "./start_server.ts";
import { TALLY_CELLS } from "./worker_protocol.ts";
import { routeKeyOf, workerOf } from "./worker_route.ts";
import type { WorkerServerOptions } from "./worker_server_options.ts";
import { stopTogether, WorkerThread } from "./worker_thread.ts";

export type { WorkerServerOptions } from "./worker_server_options.ts";

/**
 * Start a server whose sessions are served by `options.workers` worker
 * threads. Settles once every worker has started; rejects (and stops what
 * started) when one cannot. Throws `TypeError` for the options
 * `startServer` refuses, or fewer than one worker. A worker that stops
 * unexpectedly stops the server (see `RunningServer.fault`).
 */
export async function startWorkerServer(options: WorkerServerOptions): Promise<RunningServer> {
  if (!Number.isInteger(options.workers) || options.workers < 1) {
    throw new TypeError(`Cannot serve with ${options.workers} workers: give a whole number from 1`);
  }
  const limits = serveLimits(options.limits);
  const hostname = checkListen(options);
  const tally = sharedTallyBuffer(Object.keys(TALLY_CELLS).length);
  if (!options.front && canSharePort(hostname)) return await startSharedPortServer(options, tally);
  const stopping = new AbortController();
  const threads: WorkerThread[] = [];
  let next = 0;
  const dispatch = (request: Parameters<WorkerThread["ask"]>[0]) => {
    const key = routeKeyOf(request.path, request.body, options.routeKeys);
    return threads[key === undefined ? next++ % threads.length : workerOf(key, threads.length)].ask(request);
  };
  const { server, port, url } = listenFor(
    options,
    connectionGate(limits.maxConnections),
    (hosts) =>
      requestIntake({
        admit: admission({ ...options, hosts }),
        limit: options.maxBody ?? DEFAULT_MAX_BODY,
        deadlines: new BodyDeadlines(limits.bodySeconds * 1000, stopping.signal),
        maxInFlight: limits.maxInFlight,
        inFlight: localTally(),
        framed: true,
      }, dispatch),
  );
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
  const { shutdown, fault } = stopTogether(threads, stop);
  return { url, port, shutdown, finished: server.finished.then(() => shutdown()), fault };
}

/**
 * Whether worker threads can share a port on `hostname`: Linux spreads the
 * connections of sockets bound with `SO_REUSEPORT` among them (other systems
 * do not, or give them all to one), and Deno lets a program ask for it only
 * with `--unstable-net` (without it, asking ends the process, so the flag is
 * told by an API it adds: `Deno.listenDatagram`); checked by binding a free
 * port once.
 */
export function canSharePort(hostname: string): boolean {
  if (Deno.build.os !== "linux") return false;
  if (typeof (Deno as { listenDatagram?: unknown }).listenDatagram !== "function") return false;
  try {
    Deno.listen({ hostname, port: 0, reusePort: true }).close();
    return true;
  } catch {
    return false;
  }
}
