/**
 * One worker thread of a server, seen from the front: it starts with its
 * setup, answers the requests passed to it (each by its number), and closes
 * its store when told to end. A worker that fails answers every request it
 * held, and every later one, 500 `ERR_INTERNAL`.
 *
 * @module
 */
import type { FrontMessage, WorkerMessage, WorkerRequest, WorkerSetup } from "./worker_protocol.ts";

/** A worker's answer to one request. */
export type WorkerAnswer = Extract<WorkerMessage, { kind: "answer" }>;

/** Milliseconds a worker may take to close its store when the server stops. */
const CLOSE_DEADLINE_MS = 5000;

const FAILED_BODY = '{"error":{"code":"ERR_INTERNAL","message":"pab failed unexpectedly: a worker thread stopped"}}';

/** A worker thread running `module` (which calls `serveAsWorker`). */
export class WorkerThread {
  /** Settles when the worker has started; rejects when it could not. */
  readonly ready: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, (answer: WorkerAnswer) => void>();
  #next = 0;
  #failed = false;
  #closed?: () => void;

  /** Start a worker running `module` and send it `setup`. */
  constructor(module: URL, setup: WorkerSetup) {
    this.#worker = new Worker(module, { type: "module", name: `pab serve worker ${setup.index}` });
    let started: () => void = () => {};
    let failed: (error: Error) => void = () => {};
    this.ready = new Promise((resolve, reject) => [started, failed] = [resolve, reject]);
    this.ready.catch(() => {});
    this.#worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.kind === "answer") {
        const settle = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        settle?.(message);
      } else if (message.kind === "ready") started();
      else if (message.kind === "failed") {
        this.#fail();
        failed(new Error(message.message));
      } else this.#closed?.();
    };
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#fail();
      failed(new Error(`Cannot run worker ${setup.index}: ${event.message}`));
    };
    this.#send({ kind: "start", setup });
  }

  /** Pass a request on; settles with the worker's answer. */
  ask(request: Omit<WorkerRequest, "id">): Promise<WorkerAnswer> {
    const id = this.#next++;
    if (this.#failed) return Promise.resolve(failedAnswer(id));
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#send({ ...request, id });
    });
  }

  /** Tell the worker to close its store, wait for it (within a deadline), and end the thread. */
  async close(): Promise<void> {
    if (!this.#failed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#closed = resolve;
        timer = setTimeout(resolve, CLOSE_DEADLINE_MS);
        this.#send({ kind: "close" });
      });
      clearTimeout(timer);
    }
    this.#fail();
  }

  #send(message: FrontMessage): void {
    this.#worker.postMessage(message);
  }

  #fail(): void {
    this.#failed = true;
    this.#worker.terminate();
    for (const [id, settle] of this.#pending) settle(failedAnswer(id));
    this.#pending.clear();
  }
}

function failedAnswer(id: number): WorkerAnswer {
  return {
    kind: "answer",
    id,
    status: 500,
    body: FAILED_BODY,
  };
}
