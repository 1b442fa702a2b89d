/** `pab bench serve`'s load, from a worker thread: it drives a server and counts every step. */
import assert from "node:assert/strict";
import { benchPolicy, loadServerInWorker } from "../adapters/cli/serve_load.ts";
import { SessionHost, startServer } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";

Deno.test("loadServerInWorker() drives pab serve from a worker and reports every step and each second", async () => {
  const store = await openStore(":memory:");
  const server = startServer(new SessionHost(benchPolicy(), store), { version: "test", port: 0 });
  try {
    const ticks: number[] = [];
    const result = await loadServerInWorker(server.url, {
      sessions: 3,
      steps: 4,
      seconds: 30,
      churn: 2,
      onTick: (decisions) => ticks.push(decisions),
    });
    assert.equal(result.decisions, 12);
    assert.equal(result.sessions, 3);
    assert.ok(result.p99Ms >= result.p50Ms);
    assert.ok(ticks.every((decisions) => decisions <= 12));
  } finally {
    await server.shutdown();
    store.close();
  }
});

Deno.test("loadServerInWorker() rejects with the worker's error when the server refuses the load", async () => {
  const store = await openStore(":memory:");
  // A server that holds one session at most: the second one the load makes is refused.
  const server = startServer(
    new SessionHost(benchPolicy(), store, { limits: { maxSessions: 1 } }),
    { version: "test", port: 0 },
  );
  try {
    await assert.rejects(
      loadServerInWorker(server.url, { sessions: 2, steps: 1, seconds: 5 }),
      /Cannot make a session/,
    );
  } finally {
    await server.shutdown();
    store.close();
  }
});
