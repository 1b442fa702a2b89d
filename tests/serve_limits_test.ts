/**
 * `pab serve` within bounds and honest about faults: the session cap, idle
 * expiry, deletion, the per-session text cap, the in-flight cap, body read
 * deadlines and shutdown, deep bodies refused before anything is stored,
 * store faults answered 503 with their code and a retry hint, and a health
 * probe that reflects the store.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { type ServeLimits, SessionHost, startServer } from "../adapters/serve/mod.ts";
import { openStore, type PabStore, StoreError } from "../adapters/store/mod.ts";
import { errorAnswer } from "../adapters/serve/error_answer.ts";
import { UNRECORDED_TOOL } from "../adapters/serve/hosted_session.ts";
import { call, rawRequest, SERVE_POLICY_YAML, SESSION_TOKENS } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

interface Setup {
  readonly base: string;
  readonly port: number;
  readonly store: PabStore;
  readonly host: SessionHost;
  shutdown(): Promise<void>;
}

async function withServer(
  test: (setup: Setup) => Promise<void>,
  options: { limits?: Partial<ServeLimits>; now?: () => Date; store?: (store: PabStore) => PabStore } = {},
): Promise<void> {
  const store = await openStore(":memory:");
  const served = options.store ? options.store(store) : store;
  const host = new SessionHost(policy, served, {
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const server = startServer(host, { version: "test", port: 0 });
  try {
    await test({ base: server.url, port: server.port, store, host, shutdown: () => server.shutdown() });
  } finally {
    await server.shutdown();
    store.close();
  }
}

function code(answer: { json: Record<string, unknown> }): string {
  return (answer.json.error as { code: string }).code;
}

/** `store` with `method` replaced. */
function faulty(store: PabStore, method: keyof PabStore, replacement: (...args: unknown[]) => unknown): PabStore {
  return new Proxy(store, {
    get(target, name) {
      if (name === method) return replacement;
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("SessionHost caps live sessions: one more answers 429 with Retry-After until one is deleted", async () => {
  await withServer(async ({ base }) => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(String((await call(base, "/v1/sessions", {})).json.session));
    const full = await fetch(`${base}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    assert.equal(full.status, 429);
    assert.equal(full.headers.get("retry-after"), "1");
    assert.equal((await full.json()).error.code, "ERR_SESSION_LIMIT");
    assert.deepEqual(await call(base, `/v1/sessions/${ids[0]}`, undefined, { method: "DELETE" }), {
      status: 200,
      json: { ok: true },
    });
    assert.equal((await call(base, "/v1/sessions", {})).status, 201);
  }, { limits: { maxSessions: 3 } });
});

Deno.test("DELETE /v1/sessions/{id} ends the session; its audit chain stays, with why it ended", async () => {
  await withServer(async ({ base, store }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    await call(base, `/v1/sessions/${id}/messages`, { role: "user", content: "hi" });
    assert.equal((await call(base, `/v1/sessions/${id}`, undefined, { method: "DELETE" })).status, 200);
    for (const action of ["messages", "decide", "audit"]) {
      const after = await call(
        base,
        `/v1/sessions/${id}/${action}`,
        action === "audit" ? undefined : { tool: "x", args: {} },
      );
      assert.equal(after.status, 404, action);
      assert.match((after.json.error as { message: string }).message, /it was deleted/);
    }
    const chain = await store.audit(id);
    assert.deepEqual(chain.at(-1)?.event.kind, "session");
    assert.equal(chain.at(-1)?.event.ended, "deleted");
  });
});

Deno.test("SessionHost expires a session idle past the limit", async () => {
  let now = Date.parse("2026-12-01T12:00:00Z");
  await withServer(async ({ base }) => {
    const idle = String((await call(base, "/v1/sessions", {})).json.session);
    const busy = String((await call(base, "/v1/sessions", {})).json.session);
    now += 50_000;
    assert.equal((await call(base, `/v1/sessions/${busy}/decide`, { tool: "refund", args: {} })).status, 200);
    now += 20_000;
    const gone = await call(base, `/v1/sessions/${idle}/decide`, { tool: "refund", args: {} });
    assert.equal(gone.status, 404);
    assert.match((gone.json.error as { message: string }).message, /it expired unused/);
    assert.equal((await call(base, `/v1/sessions/${busy}/decide`, { tool: "refund", args: {} })).status, 200);
  }, { limits: { idleSeconds: 60 }, now: () => new Date(now) });
});

Deno.test("SessionHost refuses text past a session's cap with 413, and still decides", async () => {
  await withServer(async ({ base }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    assert.equal(
      (await call(base, `/v1/sessions/${id}/results`, { tool: "read_inbox", output: "x".repeat(900) })).status,
      200,
    );
    const over = await call(base, `/v1/sessions/${id}/results`, { tool: "read_inbox", output: "y".repeat(200) });
    assert.equal(over.status, 413);
    assert.equal(code(over), "ERR_SESSION_FULL");
    assert.equal(
      (await call(base, `/v1/sessions/${id}/messages`, { role: "user", content: "z".repeat(200) })).status,
      413,
    );
    assert.equal((await call(base, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} })).status, 200);
  }, { limits: { sessionChars: 1000 } });
});

Deno.test("apiHandler() answers 503 ERR_OVERLOADED with Retry-After past the requests in flight", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  let slow = true;
  await withServer(async ({ base }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    const held = [1, 2].map(() => call(base, `/v1/sessions/${id}/messages`, { role: "user", content: "hi" }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await fetch(`${base}/v1/health`);
    assert.equal(third.status, 503);
    assert.equal(third.headers.get("retry-after"), "1");
    assert.equal((await third.json()).error.code, "ERR_OVERLOADED");
    slow = false;
    release();
    for (const answer of await Promise.all(held)) assert.equal(answer.status, 200);
  }, {
    limits: { maxInFlight: 2 },
    store: (store) =>
      faulty(store, "appendInput", async (...args) => {
        if (slow) await gate;
        return await store.appendInput(...(args as Parameters<PabStore["appendInput"]>));
      }),
  });
});

Deno.test("startServer() cuts off a body that stalls (408), and shutdown does not wait for one", async () => {
  await withServer(async ({ port, base, shutdown }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    const headers = {
      host: `localhost:${port}`,
      "content-type": "application/json",
      "pab-session-token": SESSION_TOKENS.get(id)!,
    };
    const stalled = await rawRequest(
      port,
      { method: "POST", path: `/v1/sessions/${id}/messages`, headers },
      '{"role":',
      true,
    );
    assert.equal(stalled.status, 408);
    assert.equal(stalled.json.error && code(stalled), "ERR_REQUEST_TIMEOUT");
    // A second stalled body: shutdown answers it and finishes at once.
    const pending = rawRequest(
      port,
      { method: "POST", path: `/v1/sessions/${id}/messages`, headers },
      '{"role":',
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await shutdown();
    assert.ok(performance.now() - started < 900, "shutdown waited for the stalled body");
    assert.equal((await pending).status, 503);
  }, { limits: { bodySeconds: 0.3 } });
});

Deno.test("apiHandler() refuses bodies nested deeper than the limit before any of them is stored", async () => {
  await withServer(async ({ base, store }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    // What is stored: once, that the session read an output it could not keep (an empty one, the strictest label).
    const before = { audit: (await store.audit(id)).length + 1, inputs: (await store.inputs(id, 0)).length + 1 };
    for (const depth of [200, 2000, 3000]) {
      const output = "[".repeat(depth) + "]".repeat(depth);
      const answer = await call(base, `/v1/sessions/${id}/results`, undefined, {
        method: "POST",
        body: `{"tool":"read_inbox","output":${output}}`,
      });
      assert.equal(answer.status, 400, `depth ${depth}`);
      assert.equal(code(answer), "ERR_REQUEST_TOO_DEEP");
    }
    assert.deepEqual({ audit: (await store.audit(id)).length, inputs: (await store.inputs(id, 0)).length }, before);
    assert.deepEqual((await store.inputs(id, 0)).at(-1), {
      kind: "result",
      tool: UNRECORDED_TOOL,
      args: {},
      output: "",
    });
  });
});

Deno.test("apiHandler() never answers 5xx for outputs of any depth or shape (property)", async () => {
  await withServer(async ({ base }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    const nested = fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.constantFrom("[", '{"a":'), fc.boolean())
      .map(([depth, open, asText]) => {
        const close = open === "[" ? "]" : "}";
        const text = open.repeat(depth) + "1" + close.repeat(depth);
        return asText ? JSON.stringify(text) : text;
      });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("results", "commit", "decide", "propose", "messages"),
        fc.oneof(nested, fc.jsonValue().map((value) => JSON.stringify(value))),
        async (endpoint, output) => {
          const field = endpoint === "results" || endpoint === "commit" ? "output" : "args";
          const answer = await call(base, `/v1/sessions/${id}/${endpoint}`, undefined, {
            method: "POST",
            body: `{"tool":"read_inbox","reservation":"r","role":"user","${field}":${output}}`,
          });
          assert.ok(
            answer.status < 500,
            `${endpoint} ${output.slice(0, 80)} -> ${answer.status} ${JSON.stringify(answer.json)}`,
          );
        },
      ),
      { numRuns: 80 },
    );
  });
});

Deno.test("apiHandler() answers a store fault with 503, its ERR_STORE_ code and Retry-After", async () => {
  let failing = false;
  await withServer(async ({ base }) => {
    const id = String((await call(base, "/v1/sessions", {})).json.session);
    failing = true;
    const response = await fetch(`${base}/v1/sessions/${id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "pab-session-token": SESSION_TOKENS.get(id)! },
      body: JSON.stringify({ role: "user", content: "hi" }),
    });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "1");
    assert.deepEqual((await response.json()).error, {
      code: "ERR_STORE_WRITE",
      message: "Cannot write: the disk is full",
    });
    failing = false;
    assert.equal((await call(base, `/v1/sessions/${id}/messages`, { role: "user", content: "hi" })).status, 200);
  }, {
    store: (store) =>
      faulty(store, "appendInput", (...args) => {
        if (failing) throw new StoreError("ERR_STORE_WRITE", "Cannot write: the disk is full");
        return store.appendInput(...(args as Parameters<PabStore["appendInput"]>));
      }),
  });
});

Deno.test("GET /v1/health answers 503 when the store fails or does not answer", async () => {
  let mode: "ok" | "fail" | "hang" = "ok";
  await withServer(async ({ base }) => {
    assert.equal((await call(base, "/v1/health")).status, 200);
    mode = "fail";
    const failed = await call(base, "/v1/health");
    assert.deepEqual([failed.status, code(failed)], [503, "ERR_STORE_OPEN"]);
    mode = "hang";
    const hung = await call(base, "/v1/health");
    assert.deepEqual([hung.status, code(hung)], [503, "ERR_STORE_UNAVAILABLE"]);
    mode = "ok";
  }, {
    store: (store) =>
      faulty(store, "probe" as keyof PabStore, () => {
        if (mode === "fail") return Promise.reject(new StoreError("ERR_STORE_OPEN", "Cannot read: the file is gone"));
        if (mode === "hang") return new Promise(() => {});
        return Promise.resolve({ ok: true, description: "memory", latencyMs: 0 });
      }),
  });
});

Deno.test("SessionHost lets idle sessions leave memory past its budget and rebuilds them, decisions unchanged", async () => {
  const store = await openStore(":memory:");
  const reads: string[] = [];
  const counted = faulty(store, "inputs", (...args) => {
    reads.push(String(args[0]));
    return store.inputs(String(args[0]), Number(args[1]));
  });
  const host = new SessionHost(policy, counted, { limits: { memoryChars: 1000 } });
  try {
    const [a, b] = [await host.create(), await host.create()];
    const contact = (name: string) => `${name}@corp.example ${"filler ".repeat(100)}`;
    await host.result(a, { tool: "get_contacts", args: {}, output: contact("bob") });
    await host.result(b, { tool: "get_contacts", args: {}, output: contact("carol") });
    reads.length = 0;
    // a held 700+ characters, b as many: a left memory, so deciding on it reads its inputs back.
    const decided = await host.decide(a, { tool: "send_email", args: { to: "bob@corp.example" } });
    assert.equal(decided.outcome, "allow");
    assert.deepEqual(reads, [a]);
    const other = await host.decide(a, { tool: "send_email", args: { to: "carol@corp.example" } });
    assert.equal(other.outcome, "block");
  } finally {
    store.close();
  }
});

Deno.test("SessionHost only lets an idle session made outside the API (a hook's) leave memory: it comes back", async () => {
  let now = Date.parse("2026-12-01T12:00:00Z");
  const store = await openStore(":memory:");
  const host = new SessionHost(policy, store, { limits: { idleSeconds: 60 }, now: () => new Date(now) });
  try {
    const id = await host.create({ id: "claude-session-1" });
    await host.result(id, { tool: "get_contacts", args: {}, output: "bob@corp.example" });
    now += 3_600_000;
    await host.create();
    assert.equal(await host.has(id), true);
    const decided = await host.decide(id, { tool: "send_email", args: { to: "bob@corp.example" } });
    assert.equal(decided.outcome, "allow");
  } finally {
    store.close();
  }
});

Deno.test("GET /v1/health answers the store probe's own code when the store says it is unhealthy", async () => {
  let healthy = true;
  await withServer(async ({ base }) => {
    assert.equal((await call(base, "/v1/health")).status, 200);
    healthy = false;
    const gone = await fetch(`${base}/v1/health`);
    assert.equal(gone.status, 503);
    assert.equal((await gone.json()).error.code, "ERR_STORE_GONE");
  }, {
    store: (store) =>
      new Proxy(store, {
        get(target, name) {
          if (name === "probe") {
            return () =>
              Promise.resolve(
                healthy ? { ok: true, description: "memory", latencyMs: 0 } : {
                  ok: false,
                  description: "x",
                  code: "ERR_STORE_GONE",
                  message: "Cannot use x: deleted",
                  retryAfter: null,
                },
              );
          }
          const value = Reflect.get(target, name);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
  });
});

Deno.test("errorAnswer() maps store faults: the store's retry hint, none when only an operator can help, 413 for a value too large", async () => {
  const busy = errorAnswer(Object.assign(new StoreError("ERR_STORE_WRITE", "Cannot write: busy"), { retryAfter: 5 }));
  assert.deepEqual([busy.status, busy.headers.get("retry-after")], [503, "5"]);
  const stuck = errorAnswer(Object.assign(new StoreError("ERR_STORE_OPEN", "Cannot open: gone"), { retryAfter: null }));
  assert.deepEqual([stuck.status, stuck.headers.get("retry-after")], [503, null]);
  const large = errorAnswer(new StoreError("ERR_STORE_LIMIT", "Cannot keep a value this large"));
  assert.deepEqual([large.status, (await large.json()).error.code], [413, "ERR_STORE_LIMIT"]);
  await busy.body?.cancel();
  await stuck.body?.cancel();
});
