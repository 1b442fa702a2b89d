/**
 * `pab serve` on the in-memory store refuses work before its heap runs out:
 * each decision's audit event holds the call's arguments, and nothing else
 * bounds what a client adds, so a client that keeps sending used to end the
 * process (V8 out of memory). Now a POST past the heap's high-water mark is
 * 503 `ERR_OVERLOADED` with `Retry-After` (an audit read, which copies the
 * chain, too); health and deletes still work. Run with a small heap so that
 * it takes seconds.
 */
import assert from "node:assert/strict";
import { policyFolder, ROOT, SERVE_FLAGS, servedUrl, stopServed } from "./_serve_fixtures.ts";

async function startSmallHeap(workers: number) {
  const { policy } = await policyFolder();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--v8-flags=--max-old-space-size=120,--max-semi-space-size=4",
      ...SERVE_FLAGS,
      "cli.ts",
      "serve",
      "--policy",
      policy,
      "--port",
      "0",
      "--workers",
      String(workers),
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { url, stderr, reader } = await servedUrl(child);
  reader.releaseLock();
  return { url, child, stderr };
}

for (const workers of [1, 2]) {
  Deno.test(`pab serve --workers ${workers} in memory answers 503 before a client fills its heap, and lives`, async () => {
    const server = await startSmallHeap(workers);
    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { "pab-session-token": token } : {}) },
        body: JSON.stringify(body),
      });
    try {
      const { session, token } = await (await post("/v1/sessions", {})).json();
      const large = "d".repeat(250_000);
      let refused: Response | undefined;
      for (let i = 0; i < 2000 && !refused; i++) {
        const answer = await post(`/v1/sessions/${session}/decide`, {
          tool: "send_email",
          args: { to: "a@b.example", body: `${large}${i}` },
        }, token);
        if (answer.status === 200) await answer.body?.cancel();
        else refused = answer;
      }
      assert.ok(refused, "a client filled the heap without a refusal");
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("retry-after"), "1");
      assert.equal((await refused.json()).error.code, "ERR_OVERLOADED");
      const health = await fetch(`${server.url}/v1/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
      // Reading the chain back copies it: refused too while the heap is nearly full; the process lives.
      const audit = await fetch(`${server.url}/v1/sessions/${session}/audit`, {
        headers: { "pab-session-token": token },
      });
      assert.ok([200, 503].includes(audit.status), `audit answered ${audit.status}`);
      await audit.body?.cancel();
      const deleted = await fetch(`${server.url}/v1/sessions/${session}`, {
        method: "DELETE",
        headers: { "pab-session-token": token },
      });
      assert.equal(deleted.status, 200);
      await deleted.body?.cancel();
      const again = await fetch(`${server.url}/v1/health`);
      assert.equal(again.status, 200, "the process lives");
      await again.body?.cancel();
    } finally {
      await stopServed(server);
    }
  });
}
