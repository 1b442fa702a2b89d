/**
 * What the front thread of a server with worker threads and its workers say
 * to each other: the worker's setup, requests in, answers out, and the end.
 *
 * @module
 */
import type { ServeLimits } from "./serve_limits.ts";

/** What a worker is told when it starts. */
export interface WorkerSetup {
  /** Its index among the workers. */
  readonly index: number;
  /** How many workers there are. */
  readonly count: number;
  /** The shared count of live sessions (see `sharedTally`). */
  readonly tally: SharedArrayBuffer;
  /** The server's own settings for its workers (a policy's text and a store's path, say). */
  readonly config: unknown;
  /** The bounds given to the server. */
  readonly limits: Partial<ServeLimits>;
  /** pab's version, for `/v1/health`. */
  readonly version: string;
}

/** A request as the front passes it on: admitted, its body read within bounds, with the one header routes read. */
export interface WorkerRequest {
  readonly kind: "request";
  /** Its number, for the answer. */
  readonly id: number;
  readonly method: string;
  readonly path: string;
  /** The session token header's value. */
  readonly token: string | null;
  readonly body: Uint8Array<ArrayBuffer> | null;
}

/** From the front to a worker. */
export type FrontMessage =
  | { readonly kind: "start"; readonly setup: WorkerSetup }
  | WorkerRequest
  | { readonly kind: "close" };

/** From a worker to the front. */
export type WorkerMessage =
  | { readonly kind: "ready" }
  | { readonly kind: "failed"; readonly message: string }
  | {
    readonly kind: "answer";
    readonly id: number;
    readonly status: number;
    /** Headers beyond the JSON ones (`Retry-After`). */
    readonly headers?: Record<string, string>;
    /** The JSON text. */
    readonly body: string;
  }
  | { readonly kind: "closed" };
