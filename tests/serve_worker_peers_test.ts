/**
 * The lines between listening workers: a request handed over arrives whole
 * (its body's buffer moved, not copied) and its answer comes back; a request
 * handed to a worker that is lost answers 500 at once, never waits.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { LOST_ANSWER, WorkerPeers } from "../adapters/serve/worker_peers.ts";
import type { AdmittedRequest } from "../adapters/serve/request_intake.ts";

/** Two workers' lines: `b` answers with what it was handed. */
function pair(): { a: WorkerPeers; b: WorkerPeers; close(): void } {
  const channel = new MessageChannel();
  const echo = (request: AdmittedRequest) =>
    Promise.resolve({
      status: 200,
      body: JSON.stringify({ ...request, body: request.body && new TextDecoder().decode(request.body) }),
    });
  const a = new WorkerPeers([null, channel.port1], echo);
  const b = new WorkerPeers([channel.port2, null], echo);
  return { a, b, close: () => [a, b].forEach((peers) => peers.close()) };
}

Deno.test("WorkerPeers.ask() hands a request to another worker whole and moves its body (property)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string(),
      fc.option(fc.string({ maxLength: 500 })),
      fc.option(fc.string()),
      async (path, text, token) => {
        const { a, close } = pair();
        try {
          const body = text === null ? null : new TextEncoder().encode(text);
          const request = { method: "POST", path, token, body };
          const answer = await a.ask(1, request);
          assert.deepEqual(JSON.parse(answer.body), {
            kind: "request",
            id: 0,
            method: "POST",
            path,
            token,
            body: text,
          });
          // Handed over, the buffer left this thread.
          if (body !== null) assert.equal(body.byteLength, 0);
        } finally {
          close();
        }
      },
    ),
    { numRuns: 30 },
  );
});

Deno.test("WorkerPeers.lose() answers what was handed to a lost worker at once, and every later request", async () => {
  const channel = new MessageChannel();
  // The other end never answers: a worker that died.
  const a = new WorkerPeers([null, channel.port1], () => Promise.reject(new Error("unused")));
  try {
    const request = { method: "GET", path: "/v1/sessions/s_1/audit", token: null, body: null };
    const pending = a.ask(1, request);
    a.lose(1);
    assert.deepEqual(await pending, LOST_ANSWER);
    assert.deepEqual(await a.ask(1, request), LOST_ANSWER);
    assert.equal(LOST_ANSWER.status, 500);
    assert.equal(JSON.parse(LOST_ANSWER.body).error.code, "ERR_INTERNAL");
  } finally {
    a.close();
    channel.port2.close();
  }
});
