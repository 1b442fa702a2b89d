/**
 * `pab serve` outlives clients that hold connections open until the process
 * has no file descriptors left: Deno ends a server whose accept fails, which
 * made a server on one thread exit and one with worker threads stop
 * accepting for good. It now listens again once descriptors are free, with
 * its sessions intact.
 */
import assert from "node:assert/strict";
import {
  call,
  policyFolder,
  rawRequest,
  ROOT,
  SERVE_FLAGS,
  servedUrl,
  SESSION_TOKENS,
  stopServed,
} from "./_serve_fixtures.ts";

/** The descriptors the server process may hold: few enough that the test's connections use them all. */
const DESCRIPTORS = 256;

interface Started {
  readonly url: string;
  readonly port: number;
  readonly child: Deno.ChildProcess;
  readonly stderr: Promise<string>;
}

async function startWithFewDescriptors(workers: number): Promise<Started> {
  const { policy } = await policyFolder();
  const command = [Deno.execPath(), "run", ...SERVE_FLAGS, "cli.ts", "serve", "--policy", policy, "--port", "0"]
    .concat(["--workers", String(workers)]).map((part) => `'${part}'`).join(" ");
  const child = new Deno.Command("sh", {
    args: ["-c", `ulimit -n ${DESCRIPTORS} && exec ${command}`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const { url, stderr, reader } = await servedUrl(child);
  reader.releaseLock();
  return { url, port: Number(new URL(url).port), child, stderr };
}

/** Open connections that send nothing until `count` are open or the server stops taking them. */
async function holdConnections(port: number, count: number): Promise<Deno.Conn[]> {
  const held: Deno.Conn[] = [];
  try {
    for (let i = 0; i < count; i++) held.push(await Deno.connect({ hostname: "localhost", port }));
  } catch {
    // The server is out of descriptors: it refuses or resets new connections.
  }
  return held;
}

/** A request on a connection of its own (a pooled one would still be served by a server that stopped accepting). */
function fresh(port: number, method: string, path: string, body = "", token?: string) {
  const headers: Record<string, string> = { host: `localhost:${port}`, "content-type": "application/json" };
  if (token !== undefined) headers["pab-session-token"] = token;
  return rawRequest(port, { method, path, headers }, body);
}

async function healthWithin(port: number, ms: number): Promise<number | undefined> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      return (await fresh(port, "GET", "/v1/health")).status;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return undefined;
}

for (const workers of [1, 2]) {
  Deno.test(`pab serve --workers ${workers} serves again, sessions intact, after clients held every file descriptor`, async () => {
    const server = await startWithFewDescriptors(workers);
    try {
      const made = await call(server.url, "/v1/sessions", {});
      assert.equal(made.status, 201);
      const session = made.json.session as string;
      const held = await holdConnections(server.port, DESCRIPTORS + 100);
      assert.ok(held.length > DESCRIPTORS / 2, `only ${held.length} connections opened`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      for (const connection of held) connection.close();
      assert.equal(await healthWithin(server.port, 10_000), 200, "the server listens again once descriptors are free");
      const message = JSON.stringify({ role: "user", content: "still here" });
      const used = await fresh(
        server.port,
        "POST",
        `/v1/sessions/${session}/messages`,
        message,
        SESSION_TOKENS.get(session),
      );
      assert.equal(used.status, 200);
    } finally {
      await stopServed(server);
    }
  });
}
