/**
 * Run a test against every kind of `pab serve` server over the serve
 * fixtures' policy and a fresh in-memory store: one on this thread, then
 * one with worker threads sharing the port, then one behind a front thread.
 */
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { type RunningServer, SessionHost, startServer, startWorkerServer } from "../adapters/serve/mod.ts";
import { SERVE_WORKER_MODULE, type ServeWorkerConfig } from "../adapters/cli/commands/serve_worker.ts";
import { openStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

/** Run `test` on each kind of server in turn, each shut down after. */
export async function eachServer(test: (server: RunningServer) => Promise<void>): Promise<void> {
  const store = await openStore(":memory:");
  const one = startServer(new SessionHost(parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" }), store), {
    version: "test",
    port: 0,
  });
  try {
    await test(one);
  } finally {
    await one.shutdown();
    store.close();
  }
  const config: ServeWorkerConfig = { policy: { text: SERVE_POLICY_YAML, source: "serve.yaml" }, store: ":memory:" };
  for (const front of [false, true]) {
    const workers = await startWorkerServer({
      module: SERVE_WORKER_MODULE,
      workers: 2,
      config,
      version: "test",
      port: 0,
      front,
    });
    try {
      await test(workers);
    } finally {
      await workers.shutdown();
    }
  }
}
