/**
 * The bench's lean HTTP client: whatever the body (any Unicode, empty, longer than the connection's buffers), the
 * server receives exactly its bytes with a matching `Content-Length`, request after request on one connection.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { HttpConnection } from "../adapters/cli/bench/http_connection.ts";

Deno.test("the bench's HTTP client sends every body's exact bytes, request after request on one connection", async () => {
  const server = Deno.serve({ hostname: "localhost", port: 0, onListen() {} }, async (request) => {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const declared = request.headers.get("content-length");
    return Response.json({ text: new TextDecoder().decode(bytes), declared, length: bytes.byteLength });
  });
  const connection = await HttpConnection.open(server.addr.port);
  try {
    // Long bodies (past the write buffer's first size) and multi-byte characters (3 and 4 bytes per character).
    const body = fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ unit: "grapheme", maxLength: 40 }).map((text) => text.repeat(600)),
      fc.constant("€".repeat(9000)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(body, { minLength: 1, maxLength: 4 }), async (bodies) => {
        for (const text of bodies) {
          // Lone surrogates are sent as U+FFFD, as TextEncoder writes them.
          const sent = new TextDecoder().decode(new TextEncoder().encode(text));
          const answer = await connection.request("POST", "/echo", { "x-test": "1" }, text);
          assert.equal(answer.status, 200);
          const got = JSON.parse(answer.body);
          assert.equal(got.text, sent);
          assert.equal(Number(got.declared), got.length);
        }
      }),
      { numRuns: 60 },
    );
    const bodiless = await connection.request("DELETE", "/x", {});
    assert.equal(JSON.parse(bodiless.body).length, 0);
  } finally {
    connection.close();
    await server.shutdown();
  }
});
