/**
 * `pab serve` against bodies whose HTTP framing breaks while they arrive (a
 * chunk size that is not hex or overflows, a chunk longer or shorter than its
 * size, a connection that ends mid-body): the client's fault, answered 400
 * `ERR_REQUEST_BODY` (never a 5xx), none of it recorded (a tool output's
 * session records once that it lost one), and the server goes on serving.
 * On a server on one thread and on one with worker threads.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { apiHandler } from "../adapters/serve/http_api.ts";
import { UNRECORDED_TOOL } from "../adapters/serve/hosted_session.ts";
import { BodyDeadlines } from "../adapters/serve/body_deadlines.ts";
import { readBodyBytes } from "../adapters/serve/read_body.ts";
import { openStore } from "../adapters/store/mod.ts";
import { call, SERVE_POLICY_YAML } from "./_serve_fixtures.ts";
import { eachServer } from "./_each_server.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

/** A POST whose body stream fails after `sent` bytes, as Deno's does when the framing breaks or the peer goes. */
function failingRequest(sent: string, declared?: number): Request {
  const bytes = new TextEncoder().encode(sent);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.error(new Error("invalid HTTP/1 request: Invalid"));
    },
  });
  const headers: Record<string, string> = { host: "localhost:4517", "content-type": "application/json" };
  if (declared !== undefined) headers["content-length"] = String(declared);
  return new Request("http://localhost:4517/v1/sessions", { method: "POST", headers, body });
}

Deno.test("readBodyBytes() answers a body whose stream fails with 400 ERR_REQUEST_BODY, framed or chunked (property)", async () => {
  const deadlines = new BodyDeadlines(5000);
  await fc.assert(
    fc.asyncProperty(
      fc.string({ maxLength: 40 }),
      fc.boolean(),
      fc.boolean(),
      async (sent, framed, timed) => {
        const declared = framed ? new TextEncoder().encode(sent).byteLength + 10 : undefined;
        const bounds = { limit: 1024, framed, ...(timed ? { deadlines } : {}) };
        await assert.rejects(readBodyBytes(failingRequest(sent, declared), bounds), (error: unknown) => {
          const { code, status, message } = error as { code: string; status: number; message: string };
          assert.equal(code, "ERR_REQUEST_BODY");
          assert.equal(status, 400);
          assert.match(message, /^Cannot read the request body: .*; send the body whole/);
          return true;
        });
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("apiHandler() answers a failing body stream 400 ERR_REQUEST_BODY, not 500", async () => {
  const store = await openStore(":memory:");
  const host = new SessionHost(policy, store);
  try {
    const handle = apiHandler(host, { version: "test", framed: true });
    for (const declared of [undefined, 50]) {
      const answer = await handle(failingRequest('{"led', declared));
      assert.equal(answer.status, 400);
      assert.equal((await answer.json()).error.code, "ERR_REQUEST_BODY");
    }
  } finally {
    store.close();
  }
});

/** Ways to break a chunked body, each after a valid start. */
const BREAKS = [
  "zz\r\nab\r\n0\r\n\r\n",
  "5\r\n0123456789\r\n0\r\n\r\n",
  "ffffffffffffffffffff\r\nab\r\n",
  "2\r\n{}XX0\r\n\r\n",
];

/**
 * Send a chunked POST head that asks `Expect: 100-continue`, wait until the server reads the body (it answers
 * 100 Continue then, so the handler is running), send `body`, end the write side, and return what came back.
 */
async function brokenChunked(port: number, path: string, token: string, body: string): Promise<string> {
  const connection = await Deno.connect({ hostname: "localhost", port });
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let text = "";
  const buffer = new Uint8Array(65536);
  try {
    const head = [
      `POST ${path} HTTP/1.1`,
      `host: localhost:${port}`,
      "content-type: application/json",
      `pab-session-token: ${token}`,
      "transfer-encoding: chunked",
      "expect: 100-continue",
      "",
      "",
    ].join("\r\n");
    await connection.write(encoder.encode(head));
    while (!text.includes("\r\n\r\n")) {
      const read = await connection.read(buffer);
      if (read === null) return text;
      text += decoder.decode(buffer.subarray(0, read));
    }
    await connection.write(encoder.encode(body)).catch(() => 0);
    await connection.closeWrite().catch(() => {});
    while (true) {
      const read = await connection.read(buffer).catch(() => null);
      if (read === null) return text;
      text += decoder.decode(buffer.subarray(0, read));
    }
  } finally {
    connection.close();
  }
}

Deno.test("startServer() and startWorkerServer() answer a chunked body whose framing breaks 400 ERR_REQUEST_BODY and record none of it (property)", async () => {
  await eachServer(async (server) => {
    const made = await call(server.url, "/v1/sessions", {});
    const session = made.json.session as string;
    const token = made.json.token as string;
    const audit = async () => (await call(server.url, `/v1/sessions/${session}/audit`)).json.events as unknown[];
    const before = (await audit()).length;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...BREAKS),
        fc.constantFrom("messages", "results"),
        fc.string({ maxLength: 20 }),
        async (broken, action, start) => {
          const json = JSON.stringify(start);
          const valid = `${new TextEncoder().encode(json).byteLength.toString(16)}\r\n${json}\r\n`;
          const answer = await brokenChunked(server.port, `/v1/sessions/${session}/${action}`, token, valid + broken);
          const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
          assert.equal(statuses[0], 100, answer);
          assert.deepEqual(statuses.slice(1), [400], answer);
          assert.match(answer, /"code":"ERR_REQUEST_BODY"/);
        },
      ),
      { numRuns: 12 },
    );
    // Nothing of a broken body is recorded; a broken tool output is recorded once as lost (the strictest label).
    const after = (await audit()) as { event: { kind: string; tool?: string; output?: unknown } }[];
    assert.ok(after.length <= before + 1, `${after.length - before} events recorded`);
    for (const { event } of after.slice(before)) {
      assert.deepEqual([event.kind, event.tool, event.output], ["result", UNRECORDED_TOOL, ""]);
    }
    assert.equal((await call(server.url, "/v1/health")).status, 200);
  });
});
