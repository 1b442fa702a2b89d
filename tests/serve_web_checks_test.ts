/**
 * `pab serve` on localhost against web pages: every endpoint refuses every
 * request a page could send (a rebound Host, a cross-site Origin or
 * Sec-Fetch-Site, a body that is not declared JSON) and every call on a
 * session without that session's token; a refused request records nothing.
 * Each test runs on a server on one thread and on one with worker threads.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { type RunningServer, SessionHost, startServer, startWorkerServer } from "../adapters/serve/mod.ts";
import { SERVE_WORKER_MODULE, type ServeWorkerConfig } from "../adapters/cli/commands/serve_worker.ts";
import { checkWebRequest, listenedHosts } from "../adapters/serve/web_checks.ts";
import { openStore, type PabStore } from "../adapters/store/mod.ts";
import { call, rawRequest, SERVE_POLICY_YAML, SESSION_TOKENS } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

/** Run `test` on a server on this thread, then on one with two worker threads (on a KV file the test reads too). */
async function withServer(test: (server: RunningServer, store: PabStore) => Promise<void>): Promise<void> {
  const store = await openStore(":memory:");
  const server = startServer(new SessionHost(policy, store), { version: "test", port: 0 });
  try {
    await test(server, store);
  } finally {
    await server.shutdown();
    store.close();
  }
  const dir = await Deno.makeTempDir({ prefix: "pab_web_checks_" });
  const config: ServeWorkerConfig = {
    policy: { text: SERVE_POLICY_YAML, source: "serve.yaml" },
    store: `${dir}/serve.kv`,
  };
  const workers = await startWorkerServer({
    module: SERVE_WORKER_MODULE,
    workers: 2,
    config,
    version: "test",
    port: 0,
  });
  const shared = await openStore(`${dir}/serve.kv`);
  try {
    await test(workers, shared);
  } finally {
    await workers.shutdown();
    shared.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every endpoint with a valid body: [method, path (with SESSION), body]. */
const ENDPOINTS: readonly [string, string, unknown][] = [
  ["POST", "/v1/sessions", {}],
  ["POST", "/v1/sessions/SESSION/messages", { role: "user", content: "hi" }],
  ["POST", "/v1/sessions/SESSION/results", { tool: "read_inbox", output: "mail" }],
  ["POST", "/v1/sessions/SESSION/decide", { tool: "send_email", args: { to: "a@corp.example" } }],
  ["POST", "/v1/sessions/SESSION/propose", { tool: "publish_release", args: {} }],
  ["POST", "/v1/sessions/SESSION/commit", { reservation: "r_x", output: "ok" }],
  ["POST", "/v1/sessions/SESSION/rulings", { approver: "manager", tool: "refund", args: {} }],
  ["POST", "/v1/sessions/SESSION/plan", { tool: "refund", args: {} }],
  ["GET", "/v1/sessions/SESSION/audit", undefined],
  ["DELETE", "/v1/sessions/SESSION", undefined],
  ["GET", "/v1/health", undefined],
  ["POST", "/v1/hooks/claude-code", {}],
];

/** Header changes a web page can make, each with the status and code it must get. */
function badForms(port: number): [string, (headers: Record<string, string>) => void, number, string][] {
  return [
    ["a rebound DNS name", (h) => h.host = `attacker.example:${port}`, 403, "ERR_REQUEST_HOST"],
    [
      "a name that starts like localhost",
      (h) => h.host = `localhost.attacker.example:${port}`,
      403,
      "ERR_REQUEST_HOST",
    ],
    ["another port", (h) => h.host = `localhost:${port === 1 ? 2 : port - 1}`, 403, "ERR_REQUEST_HOST"],
    ["no port", (h) => h.host = "localhost", 403, "ERR_REQUEST_HOST"],
    ["a host with a path", (h) => h.host = `localhost:${port}/x`, 403, "ERR_REQUEST_HOST"],
    ["a cross-site origin", (h) => h.origin = "http://attacker.example", 403, "ERR_REQUEST_ORIGIN"],
    ["the null origin", (h) => h.origin = "null", 403, "ERR_REQUEST_ORIGIN"],
    ["an https origin on the port", (h) => h.origin = `https://localhost:${port}`, 403, "ERR_REQUEST_ORIGIN"],
    ["a rebound origin", (h) => h.origin = `http://attacker.example:${port}`, 403, "ERR_REQUEST_ORIGIN"],
    ["Sec-Fetch-Site cross-site", (h) => h["sec-fetch-site"] = "cross-site", 403, "ERR_REQUEST_ORIGIN"],
    ["Sec-Fetch-Site same-site", (h) => h["sec-fetch-site"] = "same-site", 403, "ERR_REQUEST_ORIGIN"],
  ];
}

/** Content types a page may send without asking (and others that are not JSON). */
const BAD_TYPES: readonly (string | undefined)[] = [
  undefined,
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/json-seq",
  "application/jsonx",
  "application/json; charset=latin1",
  "text/json",
];

Deno.test("startServer() refuses every endpoint when the Host, Origin or Sec-Fetch-Site is a web page's", async () => {
  await withServer(async (server, store) => {
    const id = String((await call(server.url, "/v1/sessions", {})).json.session);
    const token = SESSION_TOKENS.get(id)!;
    const before = (await store.audit(id)).length;
    for (const [method, template, body] of ENDPOINTS) {
      for (const [form, change, status, code] of badForms(server.port)) {
        const headers: Record<string, string> = {
          host: `localhost:${server.port}`,
          "content-type": "application/json",
          "pab-session-token": token,
        };
        change(headers);
        const path = template.replace("SESSION", id);
        const answer = await rawRequest(
          server.port,
          { method, path, headers },
          body === undefined ? "" : JSON.stringify(body),
        );
        assert.equal(answer.status, status, `${method} ${template} with ${form}`);
        assert.equal((answer.json.error as { code: string }).code, code, `${method} ${template} with ${form}`);
      }
    }
    assert.equal((await store.audit(id)).length, before, "a refused request records nothing");
    // The same requests from a client that is not a browser pass.
    const ok = await rawRequest(server.port, {
      method: "POST",
      path: `/v1/sessions/${id}/decide`,
      headers: { host: `127.0.0.1:${server.port}`, "content-type": "application/json", "pab-session-token": token },
    }, JSON.stringify({ tool: "send_email", args: { to: "a@corp.example" } }));
    assert.equal(ok.status, 200);
    const sameOrigin = await rawRequest(server.port, {
      method: "GET",
      path: "/v1/health",
      headers: {
        host: `localhost:${server.port}`,
        origin: `http://localhost:${server.port}`,
        "sec-fetch-site": "same-origin",
      },
    });
    assert.equal(sameOrigin.status, 200);
  });
});

Deno.test("startServer() refuses every POST endpoint whose body is not declared application/json", async () => {
  await withServer(async (server, store) => {
    const id = String((await call(server.url, "/v1/sessions", {})).json.session);
    const token = SESSION_TOKENS.get(id)!;
    const before = (await store.audit(id)).length;
    for (const [method, template, body] of ENDPOINTS.filter(([method]) => method === "POST")) {
      for (const type of BAD_TYPES) {
        const headers: Record<string, string> = { host: `localhost:${server.port}`, "pab-session-token": token };
        if (type !== undefined) headers["content-type"] = type;
        const answer = await rawRequest(
          server.port,
          { method, path: template.replace("SESSION", id), headers },
          JSON.stringify(body),
        );
        assert.equal(answer.status, 415, `${template} as ${type}`);
        assert.equal(
          (answer.json.error as { code: string }).code,
          "ERR_REQUEST_CONTENT_TYPE",
          `${template} as ${type}`,
        );
      }
    }
    assert.equal((await store.audit(id)).length, before);
    assert.equal(
      (await call(server.url, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} }, {
        headers: { "content-type": "Application/JSON; charset=UTF-8" },
      })).status,
      200,
    );
  });
});

Deno.test("startServer() binds each session to its token: none, another session's or a wrong one is refused", async () => {
  await withServer(async (server, store) => {
    const a = String((await call(server.url, "/v1/sessions", {})).json.session);
    const b = String((await call(server.url, "/v1/sessions", {})).json.session);
    const tokens = { a: SESSION_TOKENS.get(a)!, b: SESSION_TOKENS.get(b)! };
    assert.notEqual(tokens.a, tokens.b);
    const before = (await store.audit(a)).length;
    const wrong = [
      undefined,
      "",
      tokens.b,
      tokens.a.slice(0, -1),
      `${tokens.a}x`,
      tokens.a.toUpperCase(),
      tokens.a.replace("pst_", "pst-"),
    ];
    for (const [method, template, body] of ENDPOINTS.filter(([, path]) => path.includes("SESSION"))) {
      for (const token of wrong) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (token !== undefined) headers["pab-session-token"] = token;
        const response = await fetch(`${server.url}${template.replace("SESSION", a)}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const answer = { status: response.status, json: await response.json() };
        assert.equal(answer.status, 403, `${method} ${template} with ${JSON.stringify(token)}`);
        assert.equal((answer.json.error as { code: string }).code, "ERR_SESSION_CREDENTIAL");
      }
    }
    assert.equal((await store.audit(a)).length, before);
    // Joining a session's ledger needs that session's token too.
    const join = await call(server.url, "/v1/sessions", { ledger: a }, { headers: { "pab-session-token": tokens.b } });
    assert.equal(join.status, 403);
    const joined = await call(server.url, "/v1/sessions", { ledger: a }, {
      headers: { "pab-session-token": tokens.a },
    });
    assert.equal(joined.status, 201);
    // A session made outside the API (the hook's, say) has no token to give: the API refuses it.
    const host = new SessionHost(policy, store);
    const hooked = await host.create({ id: "cc_hooked" });
    assert.equal(
      (await call(server.url, `/v1/sessions/${hooked}/decide`, { tool: "refund", args: {} }, {
        headers: { "pab-session-token": "pst_anything" },
      })).status,
      403,
    );
  });
});

Deno.test("startServer() never lets a random token through (property)", async () => {
  await withServer(async (server) => {
    const id = String((await call(server.url, "/v1/sessions", {})).json.session);
    const real = SESSION_TOKENS.get(id)!;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 0, maxLength: 60 }).filter((t) => t !== real && /^[\x21-\x7e]*$/.test(t)),
        async (token) => {
          const answer = await call(server.url, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} }, {
            headers: { "pab-session-token": token },
          });
          assert.equal(answer.status, 403, token);
        },
      ),
      { numRuns: 60 },
    );
  });
});

Deno.test("listenedHosts() names the interface with its port, loopback names for a loopback or wildcard one, and extras", () => {
  assert.deepEqual([...listenedHosts("127.0.0.1", 80)], ["localhost:80", "127.0.0.1:80", "[::1]:80"]);
  assert.deepEqual([...listenedHosts("::1", 1)], ["localhost:1", "127.0.0.1:1", "[::1]:1"]);
  assert.deepEqual([...listenedHosts("0.0.0.0", 2, ["Box.Lan"])], [
    "localhost:2",
    "127.0.0.1:2",
    "[::1]:2",
    "box.lan:2",
  ]);
  assert.deepEqual([...listenedHosts("10.0.0.5", 3)], ["10.0.0.5:3"]);
});

Deno.test("checkWebRequest() passes a Host or an Origin only when it names the server exactly (property)", () => {
  const hosts = listenedHosts("localhost", 4517);
  const names = ["localhost", "127.0.0.1", "[::1]", "LOCALHOST", "evil.example", "localhost.evil.example", "127.0.0.2"];
  const ports = ["4517", "4518", "80", "", "04517"];
  const request = (headers: Record<string, string>) => new Request("http://localhost:4517/v1/health", { headers });
  fc.assert(
    fc.property(
      fc.constantFrom(...names),
      fc.constantFrom(...ports),
      fc.stringMatching(/^[\x21-\x7e]{0,8}$/),
      (name, port, junk) => {
        const host = `${name}${port ? `:${port}` : ""}${junk}`;
        const exact = hosts.has(host.toLowerCase());
        const asHost = () => checkWebRequest(request({ host }), hosts, false);
        if (exact) asHost();
        else assert.throws(asHost, { code: "ERR_REQUEST_HOST" }, host);
        // An origin is compared as browsers write it (a URL's origin, where "04517" is port 4517).
        let origin: string | undefined;
        try {
          const url = new URL(`http://${host}`);
          origin = `${url.hostname}:${url.port || "80"}`;
        } catch {
          origin = undefined;
        }
        const asOrigin = () =>
          checkWebRequest(request({ host: "localhost:4517", origin: `http://${host}` }), hosts, false);
        if (origin !== undefined && hosts.has(origin)) asOrigin();
        else assert.throws(asOrigin, { code: "ERR_REQUEST_ORIGIN" }, host);
      },
    ),
    { numRuns: 300 },
  );
});
