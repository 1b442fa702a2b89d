/**
 * A worker thread that takes connections itself: every worker listens on the
 * same port (`SO_REUSEPORT`, the kernel spreads connections among them) and
 * admits each request as `pab serve` does (connection and in-flight caps
 * shared by all workers, the token, the web checks, body bounds); it serves a
 * request for one of its own sessions (or for none) at once, and hands the
 * rest to the worker that holds the session.
 *
 * @module
 */
import { BodyDeadlines } from "./body_deadlines.ts";
import { connectionGate } from "./connection_gate.ts";
import { admission } from "./http_api.ts";
import { type AdmittedRequest, requestIntake, type TextAnswer } from "./request_intake.ts";
import { serveLimits } from "./serve_limits.ts";
import { sharedTally } from "./session_tally.ts";
import { listenFor } from "./start_server.ts";
import { WorkerPeers } from "./worker_peers.ts";
import { TALLY_CELLS, type WorkerListen, type WorkerSetup } from "./worker_protocol.ts";
import { routeKeyOf, type RouteKeys, workerOf } from "./worker_route.ts";

/** A worker's own listener. */
export interface WorkerListener {
  /** The port it listens on (the one all workers share). */
  readonly port: number;
  /** Worker `index` stopped: what was handed to it answers at once. */
  lose(index: number): void;
  /** Stop taking connections, cut off bodies still arriving, and finish the requests in flight. */
  drain(): Promise<void>;
  /** Close the lines to the other workers (once every worker has drained). */
  close(): void;
}

/**
 * Listen as `setup.listen` says, serving this worker's requests with `serve`
 * and handing the others over `peers` (a port to each other worker, by
 * index). Throws what `Deno.serve` throws when it cannot listen.
 */
export function listenAsWorker(
  setup: WorkerSetup & { readonly listen: WorkerListen },
  serve: (request: AdmittedRequest) => Promise<TextAnswer>,
  peers: readonly (MessagePort | null)[],
  routeKeys: RouteKeys | undefined,
): WorkerListener {
  const { listen, index, count, tally } = setup;
  const limits = serveLimits(setup.limits);
  const stopping = new AbortController();
  const lines = new WorkerPeers(peers, serve);
  const dispatch = (request: AdmittedRequest) => {
    const key = routeKeyOf(request.path, request.body, routeKeys);
    const owner = key === undefined ? index : workerOf(key, count);
    return owner === index ? serve(request) : lines.ask(owner, request);
  };
  const { server, port } = listenFor(
    { ...listen, reusePort: true },
    connectionGate(limits.maxConnections, sharedTally(tally, TALLY_CELLS.connections)),
    (hosts) =>
      requestIntake({
        admit: admission({ hosts, ...(listen.token === undefined ? {} : { token: listen.token }) }),
        limit: listen.maxBody,
        deadlines: new BodyDeadlines(limits.bodySeconds * 1000, stopping.signal),
        maxInFlight: limits.maxInFlight,
        inFlight: sharedTally(tally, TALLY_CELLS.inFlight),
        framed: true,
      }, dispatch),
  );
  return {
    port,
    lose: (peer) => lines.lose(peer),
    drain: async () => {
      stopping.abort();
      await server.shutdown();
    },
    close: () => lines.close(),
  };
}
