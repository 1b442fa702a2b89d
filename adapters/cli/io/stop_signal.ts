/**
 * When a long-running command (`pab serve`, `pab playground`) should stop:
 * on SIGINT or SIGTERM, sent to it or passed on by `deno task`.
 *
 * @module
 */

/** A stop signal and the way to stop listening. */
export interface StopSignal {
  /** Aborted when the command should stop. */
  readonly signal: AbortSignal;
  /** Remove the listeners. */
  dispose(): void;
}

/**
 * Listen for SIGINT and SIGTERM (SIGINT only on Windows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stopSignal } from "./stop_signal.ts";
 * const stop = stopSignal();
 * assert.equal(stop.signal.aborted, false);
 * stop.dispose();
 * ```
 */
export function stopSignal(): StopSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, stop);
  return {
    signal: controller.signal,
    dispose() {
      for (const signal of signals) Deno.removeSignalListener(signal, stop);
    },
  };
}
