/**
 * SIGTERM to the wrapper (`deno task pab ...`) stops `pab serve`, even with
 * a request body stalled mid-way, and `pab playground`.
 */
import assert from "node:assert/strict";
import { policyFolder, rawRequest, ROOT } from "./_serve_fixtures.ts";

async function startTask(args: string[]): Promise<{ child: Deno.ChildProcess; url: string; stderr: Promise<string> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "pab", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/http:\/\/localhost:\d+/.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  reader.releaseLock();
  child.stdout.cancel().catch(() => {});
  const url = /http:\/\/localhost:\d+/.exec(text)?.[0];
  const stderr = new Response(child.stderr).text();
  if (!url) {
    await child.status;
    throw new Error(`the task did not start: ${await stderr}`);
  }
  return { child, url, stderr };
}

Deno.test("SIGTERM to deno task stops pab serve, even with a request body stalled mid-way", async () => {
  const { dir, policy } = await policyFolder();
  try {
    const { child, url, stderr } = await startTask(["serve", "--policy", policy, "--port", "0"]);
    const port = Number(new URL(url).port);
    const stalled = rawRequest(
      port,
      {
        method: "POST",
        path: "/v1/sessions",
        headers: { host: `localhost:${port}`, "content-type": "application/json" },
      },
      "{",
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    child.kill("SIGTERM");
    const status = await child.status;
    assert.ok(performance.now() - started < 5000, "it took more than 5 s to stop");
    assert.equal(status.code, 0);
    assert.match(await stderr, /pab serve: stopped\n$/);
    assert.equal((await stalled).status, 503);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SIGTERM to deno task stops pab playground", async () => {
  const { dir } = await policyFolder();
  try {
    const bundle = `${dir}/pab.min.js`;
    await Deno.writeTextFile(bundle, "export const x = 1;");
    const { child, url, stderr } = await startTask(["playground", "--port", "0", "--bundle", bundle]);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    await page.body?.cancel();
    child.kill("SIGTERM");
    const status = await child.status;
    await stderr;
    assert.equal(status.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
