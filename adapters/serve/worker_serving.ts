/**
 * The worker side of a server with worker threads: build this worker's host
 * from its setup (its share of the sessions, the shared session cap, its own
 * handle on the store), then answer requests with the whole API: those a
 * front thread passes on, or, when it listens itself, those its connections
 * bring and those other workers hand it; and close the store when told to
 * end.
 *
 * @module
 */
import type { RouteRequest } from "./api_routes.ts";
import { errorParts } from "./error_answer.ts";
import { type ApiOptions, apiRoutes } from "./http_api.ts";
import { parseJsonBytes } from "./read_body.ts";
import { RequestError } from "./request_error.ts";
import type { AdmittedRequest, TextAnswer } from "./request_intake.ts";
import { SESSION_TOKEN_HEADER } from "./session_credential.ts";
import type { SessionHost } from "./session_host.ts";
import type { SessionHostOptions } from "./session_host_options.ts";
import { sharedTally } from "./session_tally.ts";
import { listenAsWorker, type WorkerListener } from "./worker_listener.ts";
import { type FrontMessage, TALLY_CELLS, type WorkerMessage, type WorkerSetup } from "./worker_protocol.ts";
import { ownedSessionIds, type RouteKeys } from "./worker_route.ts";

/** What a worker module builds from its setup. */
export interface WorkerService {
  /** The host of this worker's sessions (made with the `host` options it was given). */
  readonly host: SessionHost;
  /** More POST endpoints (see `ApiOptions.routes`). */
  readonly routes?: ApiOptions["routes"];
  /** The session key each of those endpoints reads from its body (see `routeKeyOf`), when workers listen themselves. */
  readonly routeKeys?: RouteKeys;
}

/** Milliseconds between sweeps for idle sessions (each request sweeps too). */
const SWEEP_MS = 1000;

type Route = (route: RouteRequest) => Promise<[number, unknown]>;

interface WorkerScope {
  onmessage: ((event: MessageEvent<FrontMessage>) => void) | null;
  postMessage(message: WorkerMessage): void;
}

interface Service {
  readonly host: SessionHost;
  readonly route: Route;
  readonly listener?: WorkerListener;
}

/**
 * Serve as a worker thread of `startWorkerServer`: `start` builds the host
 * from the server's `config` with the given host options (the shared session
 * cap, ids routed to this worker, the bounds), which it must pass on.
 */
export function serveAsWorker(
  start: (config: unknown, host: SessionHostOptions) => Promise<WorkerService>,
): void {
  const scope = globalThis as unknown as WorkerScope;
  let service: Promise<Service> | undefined;
  let sweep: ReturnType<typeof setInterval> | undefined;
  const begin = async (setup: WorkerSetup, peers: readonly (MessagePort | null)[]): Promise<Service> => {
    const built = await start(setup.config, {
      limits: setup.limits,
      tally: sharedTally(setup.tally, TALLY_CELLS.sessions),
      sessionIds: ownedSessionIds(setup.index, setup.count),
    });
    // Each request was admitted (token, web checks, body bounds) by the thread that took it: the worker routes it.
    const route = apiRoutes(built.host, { version: setup.version, ...(built.routes ? { routes: built.routes } : {}) });
    sweep = setInterval(() => built.host.expireIdle(), SWEEP_MS);
    if (!setup.listen) return { host: built.host, route };
    try {
      const unrouted = setup.listen.routeKeyPaths.filter((path) =>
        !built.routeKeys || !Object.hasOwn(built.routeKeys, path)
      );
      if (unrouted.length > 0) {
        throw new Error(
          `Cannot route ${
            unrouted.map((path) => `"${path}"`).join(", ")
          } by a session key: workers that share the port route by the routeKeys their module returns, and it returns none for it`,
        );
      }
      const listen = { ...setup, listen: setup.listen };
      const listener = listenAsWorker(listen, (request) => answer(route, request), peers, built.routeKeys);
      return { host: built.host, route, listener };
    } catch (error) {
      clearInterval(sweep);
      built.host.store.close();
      throw error;
    }
  };
  scope.onmessage = async (event) => {
    const message = event.data;
    if (message.kind === "start") {
      service = begin(message.setup, message.peers ?? []);
      service.then(
        ({ listener }) => scope.postMessage({ kind: "ready", ...(listener ? { port: listener.port } : {}) }),
        (error) => scope.postMessage({ kind: "failed", message: String((error as Error)?.message ?? error) }),
      );
    } else if (message.kind === "request") {
      const { route } = await service!;
      scope.postMessage({ kind: "answer", id: message.id, ...await answer(route, message) });
    } else if (message.kind === "lost") {
      (await service?.catch(() => undefined))?.listener?.lose(message.index);
    } else if (message.kind === "drain") {
      await (await service?.catch(() => undefined))?.listener?.drain();
      scope.postMessage({ kind: "drained" });
    } else {
      clearInterval(sweep);
      await service?.then(({ host, listener }) => {
        listener?.close();
        return host.store.close();
      }).catch(() => {});
      scope.postMessage({ kind: "closed" });
    }
  };
}

/** Serve an admitted request with the API's routes: its answer as JSON text, a fault's coded error included. */
async function answer(route: Route, message: AdmittedRequest): Promise<TextAnswer> {
  const { method, path, token } = message;
  const request = { method, headers: { get: (name: string) => name === SESSION_TOKEN_HEADER ? token : null } };
  try {
    const { refused } = message;
    const body = () =>
      refused
        ? Promise.reject(new RequestError(refused.code, refused.message))
        : Promise.resolve(parseJsonBytes(message.body));
    const [status, answered] = await route({ request, path, body });
    return { status, body: JSON.stringify(answered) };
  } catch (error) {
    const parts = errorParts(error);
    return { status: parts.status, headers: parts.headers, body: JSON.stringify(parts.body) };
  }
}
