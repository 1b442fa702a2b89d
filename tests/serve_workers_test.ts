/**
 * `pab serve` on worker threads: each session is served by one worker (every
 * call on it finds it, whichever connection sends it), its token is checked
 * there, DELETE and idle expiry end it there, and the session cap holds for
 * all workers together.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type RunningServer, startWorkerServer, type WorkerServerOptions } from "../adapters/serve/mod.ts";
import { workerOf } from "../adapters/serve/worker_route.ts";
import { SERVE_WORKER_MODULE, type ServeWorkerConfig } from "../adapters/cli/commands/serve_worker.ts";
import { openStore } from "../adapters/store/mod.ts";
import { assertNo5xx } from "./_serve_properties.ts";
import { call, rawRequest, SERVE_POLICY_YAML, SESSION_TOKENS, startPabServe } from "./_serve_fixtures.ts";

async function withWorkers(
  task: (base: string, server: RunningServer) => Promise<void>,
  options: Partial<WorkerServerOptions> & { store?: string } = {},
): Promise<void> {
  const config: ServeWorkerConfig = {
    policy: { text: SERVE_POLICY_YAML, source: "policy.yaml" },
    store: options.store ?? ":memory:",
  };
  const server = await startWorkerServer({
    module: SERVE_WORKER_MODULE,
    workers: 2,
    version: "test",
    port: 0,
    config,
    ...options,
  });
  try {
    await task(server.url, server);
  } finally {
    await server.shutdown();
  }
}

async function made(base: string, body: unknown = {}, headers: HeadersInit = {}): Promise<string> {
  const answer = await call(base, "/v1/sessions", body, { headers });
  assert.equal(answer.status, 201, JSON.stringify(answer.json));
  return String(answer.json.session);
}

Deno.test("startWorkerServer() serves each session on one worker: every call on it finds it", async () => {
  await withWorkers(async (base) => {
    const ids = await Promise.all(Array.from({ length: 16 }, () => made(base)));
    // Sessions are spread over both workers (2^-15 odds against).
    assert.deepEqual(new Set(ids.map((id) => workerOf(id, 2))), new Set([0, 1]));
    await Promise.all(ids.map(async (id, i) => {
      assert.equal((await call(base, `/v1/sessions/${id}/messages`, { role: "user", content: "hi" })).status, 200);
      const read = { tool: "read_inbox", args: {}, output: `Mail from eve${i}@evil.example` };
      assert.equal((await call(base, `/v1/sessions/${id}/results`, read)).status, 200);
      const hijack = await call(base, `/v1/sessions/${id}/decide`, {
        tool: "send_email",
        args: { to: `eve${i}@evil.example` },
      });
      assert.equal((hijack.json.decision as { outcome: string }).outcome, "block");
      const chain = await call(base, `/v1/sessions/${id}/audit`);
      const kinds = (chain.json.events as { event: { kind: string } }[]).map((record) => record.event.kind);
      assert.deepEqual(kinds, ["session", "message", "result", "decision"]);
    }));
    assert.equal((await call(base, "/v1/health")).status, 200);
  });
});

Deno.test("startWorkerServer() binds each session to its token on its worker", async () => {
  await withWorkers(async (base) => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => made(base)));
    const id = ids[0];
    const other = ids.find((candidate) => workerOf(candidate, 2) !== workerOf(id, 2))!;
    const same = ids.slice(1).find((candidate) => workerOf(candidate, 2) === workerOf(id, 2))!;
    for (const token of ["", "pst_wrong", SESSION_TOKENS.get(other)!, SESSION_TOKENS.get(same)!]) {
      const answer = await call(base, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} }, {
        headers: { "pab-session-token": token },
      });
      assert.equal(answer.status, 403, token);
      assert.equal((answer.json.error as { code: string }).code, "ERR_SESSION_CREDENTIAL");
    }
    const unknown = await call(base, "/v1/sessions/s_000000000000000000000000/decide", { tool: "refund", args: {} });
    assert.equal(unknown.status, 404);
  });
});

Deno.test("startWorkerServer() DELETE ends a session on its worker and frees its place under the shared cap", async () => {
  await withWorkers(async (base) => {
    const ids = [await made(base), await made(base), await made(base)];
    const full = await call(base, "/v1/sessions", {});
    assert.equal(full.status, 429);
    assert.equal((full.json.error as { code: string }).code, "ERR_SESSION_LIMIT");
    assert.equal((await call(base, `/v1/sessions/${ids[1]}`, undefined, { method: "DELETE" })).status, 200);
    const gone = await call(base, `/v1/sessions/${ids[1]}/decide`, { tool: "refund", args: {} });
    assert.equal(gone.status, 404);
    assert.match((gone.json.error as { message: string }).message, /it was deleted/);
    await made(base);
    assert.equal((await call(base, "/v1/sessions", {})).status, 429);
  }, { limits: { maxSessions: 3 } });
});

Deno.test("startWorkerServer() keeps the session cap for all workers together under concurrent creates (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 1, max: 16 }),
      fc.integer({ min: 2, max: 3 }),
      async (cap, tries, workers) => {
        await withWorkers(async (base) => {
          const answers = await Promise.all(Array.from({ length: tries }, () => call(base, "/v1/sessions", {})));
          const statuses = answers.map((answer) => answer.status).sort();
          const allowed = Math.min(cap, tries);
          assert.deepEqual(statuses, [...Array(allowed).fill(201), ...Array(tries - allowed).fill(429)]);
        }, { workers, limits: { maxSessions: cap } });
      },
    ),
    { numRuns: 6 },
  );
});

Deno.test("startWorkerServer() expires an idle session on its worker and frees its place", async () => {
  await withWorkers(async (base) => {
    const idle = await made(base);
    assert.equal((await call(base, "/v1/sessions", {})).status, 429);
    // Each worker sweeps for idle sessions every second, requests or not.
    await new Promise((done) => setTimeout(done, 2600));
    const gone = await call(base, `/v1/sessions/${idle}/decide`, { tool: "refund", args: {} });
    assert.equal(gone.status, 404);
    assert.match((gone.json.error as { message: string }).message, /it expired unused/);
    await made(base);
  }, { limits: { maxSessions: 1, idleSeconds: 1 } });
});

Deno.test("startWorkerServer() makes a session sharing a ledger on the worker of the session it shares with", async () => {
  await withWorkers(async (base) => {
    // Enough owners that some live on each worker.
    const owners = await Promise.all(Array.from({ length: 6 }, () => made(base)));
    for (const owner of owners) {
      const joined = await made(base, { ledger: owner }, { "pab-session-token": SESSION_TOKENS.get(owner)! });
      assert.equal(workerOf(joined, 2), workerOf(owner, 2));
      const first = await call(base, `/v1/sessions/${owner}/propose`, { tool: "publish_release", args: {} });
      assert.equal(first.json.status, "reserved");
      const second = await call(base, `/v1/sessions/${joined}/propose`, { tool: "publish_release", args: {} });
      assert.equal(second.json.status, "blocked");
    }
  });
});

Deno.test("startWorkerServer() on a KV file: each worker opens it, and every step of every session is stored", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_workers_" });
  const path = `${dir}/serve.kv`;
  const ids: string[] = [];
  await withWorkers(async (base) => {
    ids.push(...await Promise.all(Array.from({ length: 8 }, () => made(base))));
    await Promise.all(ids.map(async (id) => {
      for (let step = 0; step < 5; step++) {
        const read = { tool: "read_inbox", args: {}, output: `step ${step} from eve@evil.example` };
        assert.equal((await call(base, `/v1/sessions/${id}/results`, read)).status, 200);
        assert.equal((await call(base, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} })).status, 200);
      }
    }));
  }, { store: path });
  const store = await openStore(path);
  try {
    for (const id of ids) assert.equal((await store.audit(id)).length, 11, id);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("startWorkerServer() never answers 5xx to any body on any endpoint, and bounds bodies (property)", async () => {
  await withWorkers(async (base) => {
    const id = await made(base);
    await assertNo5xx(base, id, 100);
    const deep = await call(base, `/v1/sessions/${id}/results`, undefined, {
      method: "POST",
      body: `{"tool":"read_inbox","output":${"[".repeat(1500)}${"]".repeat(1500)}}`,
    });
    assert.equal((deep.json.error as { code: string }).code, "ERR_REQUEST_TOO_DEEP");
    const large = await call(base, `/v1/sessions/${id}/results`, { tool: "read_inbox", output: "x".repeat(5000) });
    assert.equal((large.json.error as { code: string }).code, "ERR_REQUEST_TOO_LARGE");
  }, { maxBody: 4096 });
});

Deno.test("startWorkerServer() cuts off a body that stalls (408), and shutdown does not wait for one", async () => {
  await withWorkers(async (base, server) => {
    const id = await made(base);
    const headers = {
      host: `localhost:${server.port}`,
      "content-type": "application/json",
      "pab-session-token": SESSION_TOKENS.get(id)!,
    };
    const head = { method: "POST", path: `/v1/sessions/${id}/messages`, headers };
    const stalled = await rawRequest(server.port, head, '{"role":', true);
    assert.equal(stalled.status, 408);
    const pending = rawRequest(server.port, head, '{"role":', true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await server.shutdown();
    assert.ok(performance.now() - started < 2000, "shutdown waited for the stalled body");
    assert.equal((await pending).status, 503);
  }, { limits: { bodySeconds: 0.3 } });
});

Deno.test("pab serve --workers 2 serves sessions and the hook endpoint, and stops on SIGTERM", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_workers_" });
  await Deno.writeTextFile(`${dir}/policy.yaml`, SERVE_POLICY_YAML);
  const server = await startPabServe(["--policy", `${dir}/policy.yaml`, "--workers", "2"]);
  try {
    const id = await made(server.url);
    assert.equal((await call(server.url, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} })).status, 200);
    for (const session of ["a", "b", "c", "d"]) {
      const hook = { session_id: session, hook_event_name: "UserPromptSubmit", prompt: "hi" };
      assert.equal((await call(server.url, "/v1/hooks/claude-code", hook)).status, 200);
      const pre = { session_id: session, hook_event_name: "PreToolUse", tool_name: "refund", tool_input: {} };
      assert.equal((await call(server.url, "/v1/hooks/claude-code", pre)).status, 200);
    }
  } finally {
    assert.match(await server.stop(), /2 workers\)\n[^]*stopped/);
    await Deno.remove(dir, { recursive: true });
  }
});
