/**
 * pab's store on a real self-hosted Deno KV server (`denokv`, from crates.io),
 * started by the test: atomic reservations through it, and two `pab serve`
 * processes sharing it. Skipped only when denokv is not installed and CI is
 * not "true" (`.ci/run` installs it).
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

async function withDenokv(test: (url: string) => Promise<void>): Promise<void> {
  assert.ok(DENOKV, "CI is true but denokv is not installed: run .ci/run (cargo install denokv --version 0.14.0)");
  const dir = await Deno.makeTempDir({ prefix: "pab_denokv_" });
  const port = freePort();
  const server = new Deno.Command(DENOKV, {
    args: ["--sqlite-path", `${dir}/kv.sqlite`, "serve", "--access-token", TOKEN, "--addr", `127.0.0.1:${port}`],
    stdout: "null",
    stderr: "piped",
  }).spawn();
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
    await test(url);
  } finally {
    if (previous === undefined) Deno.env.delete("DENO_KV_ACCESS_TOKEN");
    else Deno.env.set("DENO_KV_ACCESS_TOKEN", previous);
    server.kill("SIGTERM");
    await server.status;
    await server.stderr.cancel().catch(() => {});
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
