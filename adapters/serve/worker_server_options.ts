/**
 * The options of a server on worker threads (`startWorkerServer`).
 *
 * @module
 */
import type { ServeLimits } from "./serve_limits.ts";
import type { ServerOptions } from "./start_server.ts";
import type { RouteKeys } from "./worker_route.ts";

/** Options of `startWorkerServer`. */
export interface WorkerServerOptions extends Omit<ServerOptions, "routes"> {
  /** The worker module: it calls `serveAsWorker` (see `worker_serving.ts`). */
  readonly module: URL;
  /** How many worker threads (at least 1). */
  readonly workers: number;
  /** Settings every worker is given (structured-cloneable): what it needs to build its host. */
  readonly config: unknown;
  /** The bounds (the connection, in-flight and body ones are kept where requests are taken; the sessions' by the workers). */
  readonly limits?: Partial<ServeLimits>;
  /**
   * POST endpoints the workers add, by path, and the session key a body names. A front thread routes by these;
   * workers that share the port route by the `routeKeys` their module returns, which must cover every path given here
   * (else the server does not start).
   */
  readonly routeKeys?: RouteKeys;
  /** Take connections on a front thread even where workers could share the port (the default where they cannot). */
  readonly front?: boolean;
}
