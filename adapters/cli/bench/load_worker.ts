/**
 * The benchmark's load client on its own thread: `loadServer` runs in a
 * worker, so the server's thread serves only, and the client's CPU time is
 * measured apart (the worker thread's own).
 *
 * @module
 */
import process from "node:process";
import { loadServer, type ServeLoad, type ServeLoadResult } from "./serve_load.ts";

/** What a load run in a worker gives. */
export interface WorkerLoadResult {
  /** The load's figures. */
  readonly result: ServeLoadResult;
  /** CPU time (user and system) the client's thread used during the timed load, in microseconds. */
  readonly clientCpuUs: number;
}

/** What the caller may watch of a load in a worker. */
export interface WorkerLoadWatch {
  /** Called when the timed load starts (the sessions are made). */
  readonly onStart?: () => void;
  /** Called when it ends, before the result is sent. */
  readonly onEnd?: () => void;
}

type LoadMessage =
  | { readonly kind: "tick"; readonly decisions: number }
  | { readonly kind: "start" }
  | ({ readonly kind: "done" } & WorkerLoadResult)
  | { readonly kind: "failed"; readonly message: string };

/**
 * Run `loadServer(base, load)` in a worker thread; `load.onTick` is called
 * here with the worker's counts, and `watch` when the timed load starts and
 * ends (to measure this process's CPU time over the same span).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SessionHost, startServer } from "../../serve/mod.ts";
 * import { openStore } from "../../store/mod.ts";
 * import { benchPolicy } from "./serve_load.ts";
 * import { loadInWorker } from "./load_worker.ts";
 * const store = await openStore();
 * const server = startServer(new SessionHost(benchPolicy(), store), { version: "b", port: 0 });
 * const { result } = await loadInWorker(server.url, { sessions: 2, steps: 3, seconds: 5 });
 * assert.equal(result.decisions, 6);
 * await server.shutdown();
 * store.close();
 * ```
 */
export function loadInWorker(base: string, load: ServeLoad, watch: WorkerLoadWatch = {}): Promise<WorkerLoadResult> {
  const worker = new Worker(new URL(import.meta.url), { type: "module", name: "pab bench load client" });
  const { onTick, ...plain } = load;
  return new Promise<WorkerLoadResult>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<LoadMessage>) => {
      const message = event.data;
      if (message.kind === "tick") return onTick?.(message.decisions);
      if (message.kind === "start") return watch.onStart?.();
      if (message.kind === "done") {
        watch.onEnd?.();
        resolve({ result: message.result, clientCpuUs: message.clientCpuUs });
      } else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(`The load client failed: ${event.message}`));
    };
    worker.postMessage({ base, load: plain, ticks: onTick !== undefined });
  }).finally(() => worker.terminate());
}

// Imported by the main thread for loadInWorker; run as a worker, it is the client.
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined") {
  const scope = globalThis as unknown as {
    onmessage: (event: MessageEvent<{ base: string; load: ServeLoad; ticks: boolean }>) => void;
    postMessage(message: LoadMessage): void;
  };
  scope.onmessage = async (event) => {
    const { base, load, ticks } = event.data;
    let before = process.threadCpuUsage();
    const onStart = () => {
      before = process.threadCpuUsage();
      scope.postMessage({ kind: "start" });
    };
    try {
      const onTick = ticks ? (decisions: number) => scope.postMessage({ kind: "tick", decisions }) : undefined;
      const result = await loadServer(base, { ...load, onStart, ...(onTick ? { onTick } : {}) });
      const cpu = process.threadCpuUsage(before);
      scope.postMessage({ kind: "done", result, clientCpuUs: cpu.user + cpu.system });
    } catch (error) {
      scope.postMessage({ kind: "failed", message: String((error as Error)?.message ?? error) });
    }
  };
}
