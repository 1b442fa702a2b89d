/**
 * What the main thread of a server with worker threads and its workers say
 * to each other, and what workers say to each other: the worker's setup,
 * requests in and answers out (from a front thread, or handed from the worker
 * that took the connection to the one that holds the session), the loss of a
 * worker, and the end.
 *
 * @module
 */
import type { AdmittedRequest, TextAnswer } from "./request_intake.ts";
import type { ServeLimits } from "./serve_limits.ts";
import type { ListenOptions } from "./start_server.ts";

/** Where a worker listens itself, on a port it shares with the others (`SO_REUSEPORT`). */
export interface WorkerListen extends ListenOptions {
  /** The largest request body in bytes. */
  readonly maxBody: number;
  /** The paths the server was given `routeKeys` for: the worker module must route each of them itself. */
  readonly routeKeyPaths: readonly string[];
}

/** Cells of the shared tally buffer a worker is given. */
export const TALLY_CELLS = { sessions: 0, connections: 1, inFlight: 2 } as const;

/** What a worker is told when it starts. */
export interface WorkerSetup {
  /** Its index among the workers. */
  readonly index: number;
  /** How many workers there are. */
  readonly count: number;
  /** The shared counts (see `sharedTally` and {@linkcode TALLY_CELLS}): live sessions, and with `listen` connections and requests in flight. */
  readonly tally: SharedArrayBuffer;
  /** The server's own settings for its workers (a policy's text and a store's path, say). */
  readonly config: unknown;
  /** The bounds given to the server. */
  readonly limits: Partial<ServeLimits>;
  /** pab's version, for `/v1/health`. */
  readonly version: string;
  /** Set when the worker takes connections itself (no front thread): where it listens. */
  readonly listen?: WorkerListen;
}

/** A request as a front thread passes it on (see {@linkcode AdmittedRequest}), by its number. */
export interface WorkerRequest extends AdmittedRequest {
  readonly kind: "request";
  /** Its number, for the answer. */
  readonly id: number;
}

/** An answer to a request, by its number. */
export interface WorkerAnswer extends TextAnswer {
  readonly kind: "answer";
  readonly id: number;
}

/** From the main thread to a worker. */
export type FrontMessage =
  | {
    readonly kind: "start";
    readonly setup: WorkerSetup;
    /** With `listen`: a port to each other worker, by index (`null` at its own). */
    readonly peers?: readonly (MessagePort | null)[];
  }
  | WorkerRequest
  /** A worker stopped unexpectedly: requests for its sessions answer 5xx from now on. */
  | { readonly kind: "lost"; readonly index: number }
  /** Stop taking connections and finish the requests in flight (a listening worker). */
  | { readonly kind: "drain" }
  | { readonly kind: "close" };

/** From a worker to the main thread. */
export type WorkerMessage =
  | { readonly kind: "ready"; /** The port it listens on, with `listen`. */ readonly port?: number }
  | { readonly kind: "failed"; readonly message: string }
  | WorkerAnswer
  | { readonly kind: "drained" }
  | { readonly kind: "closed" };

/** From a worker to another: a request for a session the other holds, and its answer. */
export type PeerMessage = WorkerRequest | WorkerAnswer;
