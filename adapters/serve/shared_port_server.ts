/**
 * `pab serve` on worker threads that share one port: worker 0 binds it (port
 * 0 picks a free one), the others bind the same port with `SO_REUSEPORT`, and
 * the kernel spreads connections among them. Each worker admits the requests
 * of its connections, serves those for its own sessions and hands the rest to
 * their worker over a `MessagePort` (one between each pair, made here). The
 * main thread only starts, watches and stops them: stopping drains every
 * worker's connections before any closes its store, and a worker that stops
 * unexpectedly stops the server (what was handed to it answers 500 at once).
 *
 * @module
 */
import { DEFAULT_MAX_BODY } from "./http_api.ts";
import { DEFAULT_PORT, type RunningServer, serverUrl } from "./start_server.ts";
import type { WorkerServerOptions } from "./worker_server_options.ts";
import type { WorkerSetup } from "./worker_protocol.ts";
import { stopTogether, WorkerThread } from "./worker_thread.ts";

/**
 * Start `options.workers` workers listening on one port, with the shared
 * counts in `tally`; rejects (and stops what started) when one cannot start.
 */
export async function startSharedPortServer(
  options: WorkerServerOptions,
  tally: SharedArrayBuffer,
): Promise<RunningServer> {
  const count = options.workers;
  const hostname = options.hostname ?? "localhost";
  const lines = linesBetween(count);
  const setupOf = (index: number, port: number): WorkerSetup => ({
    index,
    count,
    tally,
    config: options.config,
    limits: options.limits ?? {},
    version: options.version,
    listen: {
      hostname,
      port,
      maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
      routeKeyPaths: Object.keys(options.routeKeys ?? {}),
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    },
  });
  const threads = [new WorkerThread(options.module, setupOf(0, options.port ?? DEFAULT_PORT), lines[0])];
  const stop = async () => {
    await Promise.all(threads.map((thread) => thread.drain()));
    await Promise.all(threads.map((thread) => thread.close()));
  };
  let port: number;
  try {
    // The first binds (and picks a free port for 0); the rest join it.
    port = (await threads[0].ready)!;
    for (let index = 1; index < count; index++) {
      threads.push(new WorkerThread(options.module, setupOf(index, port), lines[index]));
    }
    await Promise.all(threads.map((thread) => thread.ready));
  } catch (error) {
    await stop();
    throw error;
  }
  const { shutdown, stopped, fault } = stopTogether(threads, stop);
  return { url: serverUrl(hostname, port), port, shutdown, finished: stopped, fault };
}

/** A `MessageChannel` between each pair of `count` workers: `lines[i][j]` is worker i's port to worker j. */
function linesBetween(count: number): (MessagePort | null)[][] {
  const lines = Array.from({ length: count }, () => Array<MessagePort | null>(count).fill(null));
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const channel = new MessageChannel();
      lines[i][j] = channel.port1;
      lines[j][i] = channel.port2;
    }
  }
  return lines;
}
