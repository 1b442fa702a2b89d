/**
 * A worker module for tests of `startWorkerServer`: the serve worker's host
 * and hook endpoint, plus `POST /v1/test/crash`, after which the worker that
 * served it dies of an uncaught error (a fault pab did not expect).
 */
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { serveAsWorker, SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import type { ServeWorkerConfig } from "../adapters/cli/commands/serve_worker.ts";

/** The endpoint that kills the worker serving it. */
export const CRASH_PATH = "/v1/test/crash";

serveAsWorker(async (raw, options) => {
  const config = raw as ServeWorkerConfig;
  const host = new SessionHost(
    parsePolicy(config.policy.text, { source: config.policy.source }),
    await openStore(),
    options,
  );
  const crash = () => {
    setTimeout(() => {
      throw new Error("the test crashed this worker");
    }, 10);
    return Promise.resolve({ crashing: true });
  };
  return { host, routes: { [CRASH_PATH]: crash } };
});
