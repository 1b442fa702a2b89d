/**
 * One worker thread of a server, seen from the main thread: it starts with
 * its setup, answers the requests a front thread passes to it (each by its
 * number), drains its own connections when it listens itself, and closes its
 * store when told to end. A worker that stops unexpectedly answers every
 * request it held, and every later one, 500 `ERR_INTERNAL`, and says so
 * (`onLost`), so that the server stops rather than stall.
 *
 * @module
 */
import type { AdmittedRequest } from "./request_intake.ts";
import { bodyTransfer, LOST_ANSWER } from "./worker_peers.ts";
import type { FrontMessage, WorkerAnswer, WorkerMessage, WorkerSetup } from "./worker_protocol.ts";

/** Milliseconds a worker may take to drain its connections, and again to close its store, when the server stops. */
const CLOSE_DEADLINE_MS = 5000;

/** A worker thread running `module` (which calls `serveAsWorker`). */
export class WorkerThread {
  /** Settles when the worker has started (with the port it listens on, if it does); rejects when it could not. */
  readonly ready: Promise<number | undefined>;
  /** Its index among the workers. */
  readonly index: number;
  /** Called once if the worker stops unexpectedly after it started. */
  onLost: (error: Error) => void = () => {};
  readonly #worker: Worker;
  readonly #pending = new Map<number, (answer: WorkerAnswer) => void>();
  #next = 0;
  #failed = false;
  #ended = false;
  #replied?: (kind: "drained" | "closed") => void;

  /** Start a worker running `module` and send it `setup` (and, when it listens itself, its ports to the others). */
  constructor(module: URL, setup: WorkerSetup, peers?: readonly (MessagePort | null)[]) {
    this.index = setup.index;
    this.#worker = new Worker(module, { type: "module", name: `pab serve worker ${setup.index}` });
    let started: (port: number | undefined) => void = () => {};
    let failed: (error: Error) => void = () => {};
    this.ready = new Promise((resolve, reject) => [started, failed] = [resolve, reject]);
    this.ready.catch(() => {});
    let running = false;
    this.#worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.kind === "answer") {
        const settle = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        settle?.(message);
      } else if (message.kind === "ready") {
        running = true;
        started(message.port);
      } else if (message.kind === "failed") {
        this.#fail();
        failed(new Error(message.message));
      } else this.#replied?.(message.kind);
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(`Cannot run worker ${setup.index}: ${event.message}`);
      const wasRunning = running && !this.#failed && !this.#ended;
      this.#fail();
      failed(error);
      if (wasRunning) this.onLost(error);
    };
    const start: FrontMessage = { kind: "start", setup, ...(peers ? { peers } : {}) };
    this.#worker.postMessage(start, (peers ?? []).filter((port) => port !== null));
  }

  /** Pass a request on; settles with the worker's answer. */
  ask(request: AdmittedRequest): Promise<WorkerAnswer> {
    const id = this.#next++;
    if (this.#failed) return Promise.resolve({ kind: "answer", id, ...LOST_ANSWER });
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#worker.postMessage({ kind: "request", id, ...request }, bodyTransfer(request.body));
    });
  }

  /** Tell the worker that worker `index` stopped. */
  lose(index: number): void {
    if (!this.#failed) this.#worker.postMessage({ kind: "lost", index });
  }

  /** Tell a listening worker to stop taking connections and finish its requests; settles when it has (or the deadline passed). */
  async drain(): Promise<void> {
    if (!this.#failed) await this.#tell({ kind: "drain" }, "drained");
  }

  /** Tell the worker to close its store, wait for it (within a deadline), and end the thread. */
  async close(): Promise<void> {
    this.#ended = true;
    if (!this.#failed) await this.#tell({ kind: "close" }, "closed");
    this.#fail();
  }

  async #tell(message: FrontMessage, reply: "drained" | "closed"): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#replied = (kind) => kind === reply && resolve();
      timer = setTimeout(resolve, CLOSE_DEADLINE_MS);
      this.#worker.postMessage(message);
    });
    clearTimeout(timer);
  }

  #fail(): void {
    this.#failed = true;
    this.#worker.terminate();
    for (const [id, settle] of this.#pending) settle({ kind: "answer", id, ...LOST_ANSWER });
    this.#pending.clear();
  }
}

/** How a server on worker threads stops: once, whether asked or because a worker was lost. */
export interface ThreadsStop {
  /** Stop (the first call runs `stop`; later ones wait for it). */
  shutdown(): Promise<void>;
  /** Settles once stopped. */
  readonly stopped: Promise<void>;
  /** The loss that stopped it, if one did. */
  fault(): Error | undefined;
}

/**
 * Run `stop` once, when asked or when one of `threads` is lost (the others
 * are told of the loss first, so that nothing waits on it).
 */
export function stopTogether(threads: readonly WorkerThread[], stop: () => Promise<void>): ThreadsStop {
  let running: Promise<void> | undefined;
  let fault: Error | undefined;
  const stopped = Promise.withResolvers<void>();
  const shutdown = () => running ??= stop().finally(stopped.resolve);
  for (const thread of threads) {
    thread.onLost = (error) => {
      fault ??= error;
      for (const other of threads) other.lose(thread.index);
      void shutdown();
    };
  }
  return { shutdown, stopped: stopped.promise, fault: () => fault };
}
