/**
 * The worker side of a server with worker threads: build this worker's host
 * from its setup (its share of the sessions, the shared session cap, its own
 * handle on the store), then answer the requests the front passes on with the
 * whole API, and close the store when told to end.
 *
 * @module
 */
import type { RouteRequest } from "./api_routes.ts";
import { errorParts } from "./error_answer.ts";
import { type ApiOptions, apiRoutes } from "./http_api.ts";
import { parseJsonBytes } from "./read_body.ts";
import { SESSION_TOKEN_HEADER } from "./session_credential.ts";
import type { SessionHost } from "./session_host.ts";
import type { SessionHostOptions } from "./session_host_options.ts";
import { sharedTally } from "./session_tally.ts";
import type { FrontMessage, WorkerMessage, WorkerRequest, WorkerSetup } from "./worker_protocol.ts";
import { ownedSessionIds } from "./worker_route.ts";

/** What a worker module builds from its setup. */
export interface WorkerService {
  /** The host of this worker's sessions (made with the `host` options it was given). */
  readonly host: SessionHost;
  /** More POST endpoints (see `ApiOptions.routes`). */
  readonly routes?: ApiOptions["routes"];
}

/** Milliseconds between sweeps for idle sessions (each request sweeps too). */
const SWEEP_MS = 1000;

type Route = (route: RouteRequest) => Promise<[number, unknown]>;

interface WorkerScope {
  onmessage: ((event: MessageEvent<FrontMessage>) => void) | null;
  postMessage(message: WorkerMessage): void;
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
  let service: Promise<{ host: SessionHost; route: Route }> | undefined;
  let sweep: ReturnType<typeof setInterval> | undefined;
  const begin = async (setup: WorkerSetup) => {
    const built = await start(setup.config, {
      limits: setup.limits,
      tally: sharedTally(setup.tally),
      sessionIds: ownedSessionIds(setup.index, setup.count),
    });
    // The front has admitted each request (token, web checks, body bounds): the worker routes it.
    const route = apiRoutes(built.host, { version: setup.version, ...(built.routes ? { routes: built.routes } : {}) });
    sweep = setInterval(() => built.host.expireIdle(), SWEEP_MS);
    return { host: built.host, route };
  };
  scope.onmessage = async (event) => {
    const message = event.data;
    if (message.kind === "start") {
      service = begin(message.setup);
      service.then(
        () => scope.postMessage({ kind: "ready" }),
        (error) => scope.postMessage({ kind: "failed", message: String((error as Error)?.message ?? error) }),
      );
    } else if (message.kind === "request") {
      const { route } = await service!;
      scope.postMessage(await answer(route, message));
    } else {
      clearInterval(sweep);
      await service?.then(({ host }) => host.store.close()).catch(() => {});
      scope.postMessage({ kind: "closed" });
    }
  };
}

async function answer(route: Route, message: WorkerRequest): Promise<WorkerMessage> {
  const { id, method, path, token } = message;
  const request = { method, headers: { get: (name: string) => name === SESSION_TOKEN_HEADER ? token : null } };
  try {
    const [status, body] = await route({ request, path, body: () => Promise.resolve(parseJsonBytes(message.body)) });
    return { kind: "answer", id, status, body: JSON.stringify(body) };
  } catch (error) {
    const parts = errorParts(error);
    return { kind: "answer", id, status: parts.status, headers: parts.headers, body: JSON.stringify(parts.body) };
  }
}
