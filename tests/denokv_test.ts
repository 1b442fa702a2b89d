/**
 * pab's store on a real self-hosted Deno KV server (`denokv`, from crates.io),
 * started by the test: atomic reservations through it, and two `pab serve`
 * processes sharing it, an outage (each call ends at its deadline with
 * ERR_STORE_UNREACHABLE; probe() recovers). Skipped only when denokv is not
 * installed and CI is not "true" (`.ci/run` installs it). A server that
 * accepts and never answers is tested without denokv.
 */
import assert from "node:assert/strict";
import { openStore } from "../adapters/store/mod.ts";
import { policyFolder, startPabServe } from "./_serve_fixtures.ts";
import { raceOnce } from "./_serve_race.ts";

const TOKEN = "pab-denokv-test-token";

function findDenokv(): string | undefined {
  const folders = [...(Deno.env.get("PATH") ?? "").split(":"), `${Deno.env.get("HOME") ?? "/root"}/.cargo/bin`];
  for (const folder of folders) {
    try {
      if (folder && Deno.statSync(`${folder}/denokv`).isFile) return `${folder}/denokv`;
    } catch {
      // not here
    }
  }
  return undefined;
}

const DENOKV = findDenokv();
const CI = Deno.env.get("CI") === "true";
const SKIP = !DENOKV && !CI;
const SUFFIX = SKIP ? " (skipped: denokv is not installed; cargo install denokv --version 0.14.0)" : "";

function freePort(): number {
  const listener = Deno.listen({ hostname: "localhost", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function startDenokv(dir: string, port: number): Deno.ChildProcess {
  return new Deno.Command(DENOKV!, {
    args: ["--sqlite-path", `${dir}/kv.sqlite`, "serve", "--access-token", TOKEN, "--addr", `127.0.0.1:${port}`],
    stdout: "null",
    stderr: "null",
  }).spawn();
}

async function withDenokv(
  test: (url: string, control: { stop(): Promise<void>; start(): void }) => Promise<void>,
): Promise<void> {
  assert.ok(DENOKV, "CI is true but denokv is not installed: run .ci/run (cargo install denokv --version 0.14.0)");
  const dir = await Deno.makeTempDir({ prefix: "pab_denokv_" });
  const port = freePort();
  let server = startDenokv(dir, port);
  const url = `http://localhost:${port}`;
  const previous = Deno.env.get("DENO_KV_ACCESS_TOKEN");
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  try {
    for (let attempt = 0;; attempt++) {
      try {
        (await openStore(url)).close();
        break;
      } catch (error) {
        if (attempt > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    let running = true;
    await test(url, {
      async stop() {
        server.kill("SIGKILL");
        await server.status;
        running = false;
      },
      start() {
        server = startDenokv(dir, port);
        running = true;
      },
    });
    if (running) {
      server.kill("SIGTERM");
      await server.status;
    }
  } finally {
    if (previous === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", previous);
    try {
      server.kill("SIGKILL");
      await server.status;
    } catch {
      // stopped already
    }
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: `openStore() on a denokv server: 200 concurrent reservations of one effect, exactly one wins${SUFFIX}`,
  ignore: SKIP,
  fn: () =>
    withDenokv(async (url) => {
      const stores = [await openStore(url), await openStore(url)];
      try {
        const wins = await Promise.all(
          Array.from({ length: 200 }, (_, i) => stores[i % 2].effects("shared").reserve(["release.sent"], `r${i}`)),
        );
        assert.equal(wins.filter(Boolean).length, 1);
        const winner = `r${wins.indexOf(true)}`;
        await stores[0].effects("shared").commit(["release.sent"], winner);
        const other = stores[1].effects("shared");
        await other.refresh();
        assert.deepEqual([...other.committed()], ["release.sent"]);
      } finally {
        for (const store of stores) store.close();
      }
    }),
});

Deno.test({
  name: `pab serve: two processes on one denokv server reserve a once tool exactly once among 300 proposals${SUFFIX}`,
  ignore: SKIP,
  fn: () =>
    withDenokv(async (url) => {
      const { dir, policy } = await policyFolder();
      const env = { DENO_KV_ACCESS_TOKEN: TOKEN };
      const servers = [
        await startPabServe(["--policy", policy, "--store", url], env),
        await startPabServe(["--policy", policy, "--store", url], env),
      ];
      try {
        const result = await raceOnce(servers.map((server) => server.url), 300);
        assert.deepEqual(result, { statuses: { reserved: 1, blocked: 299 }, errors: 0, messages: [] });
      } finally {
        for (const server of servers) await server.stop();
        await Deno.remove(dir, { recursive: true });
      }
    }),
});

Deno.test({
  name:
    `a denokv outage fails each store call at its deadline with ERR_STORE_UNREACHABLE, and probe() recovers${SUFFIX}`,
  ignore: SKIP,
  fn: () =>
    withDenokv(async (url, control) => {
      const store = await openStore(url, { deadline: 1000 });
      try {
        assert.equal(await store.createSession({ id: "s", ledger: "s", created: "t" }), true);
        assert.equal((await store.probe()).ok, true);
        await control.stop();
        const started = performance.now();
        await assert.rejects(store.session("s"), { code: "ERR_STORE_UNREACHABLE" });
        const health = await store.probe();
        assert.equal(health.ok ? "ok" : health.code, "ERR_STORE_UNREACHABLE");
        assert.ok(performance.now() - started < 5000, "each call ends at its deadline");
        control.start();
        let healthy = false;
        for (let attempt = 0; attempt < 100 && !healthy; attempt++) {
          healthy = (await store.probe()).ok;
          if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.ok(healthy, "probe() recovers when the server is back");
        assert.equal((await store.session("s"))?.id, "s");
      } finally {
        store.close();
      }
    }),
});

Deno.test("openStore() on a URL whose server accepts but never answers fails at its deadline with ERR_STORE_UNREACHABLE", async () => {
  const listener = Deno.listen({ hostname: "localhost", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  const previous = Deno.env.get("DENO_KV_ACCESS_TOKEN");
  Deno.env.set("DENO_KV_ACCESS_TOKEN", TOKEN);
  try {
    const started = performance.now();
    const url = `http://localhost:${(listener.addr as Deno.NetAddr).port}`;
    await assert.rejects(openStore(url, { deadline: 300 }), (error: Error & { code?: string }) => {
      assert.equal(error.code, "ERR_STORE_UNREACHABLE");
      assert.match(error.message, /did not answer within 300 ms/);
      return true;
    });
    assert.ok(performance.now() - started < 3000, "the deadline bounds the wait");
  } finally {
    if (previous === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", previous);
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
  }
});
