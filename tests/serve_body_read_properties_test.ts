/**
 * A framed body read (a request from `Deno.serve`, whose Content-Length holds
 * the body, read in one call) against the chunked stream read it replaces:
 * the same bytes, the same refusals, for any body, limit and declared length,
 * in process and over HTTP; and a stalled framed body is still cut off.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { BodyDeadlines } from "../adapters/serve/body_deadlines.ts";
import { readBodyBytes } from "../adapters/serve/read_body.ts";

type Outcome = { bytes: number[] | null } | { code: string };

async function outcome(read: () => Promise<Uint8Array | null>): Promise<Outcome> {
  try {
    const bytes = await read();
    return { bytes: bytes === null ? null : [...bytes] };
  } catch (error) {
    return { code: String((error as { code?: string }).code ?? error) };
  }
}

/** A request with `body` sent in `chunks` pieces, declaring `declared` (the true length, another, or none). */
function request(method: string, body: Uint8Array, chunks: number, declared: string | null): Request {
  const headers: Record<string, string> = declared === null ? {} : { "content-length": declared };
  if (method === "GET" || method === "HEAD") return new Request("http://localhost/", { method, headers });
  const size = Math.ceil(body.byteLength / Math.max(1, chunks));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < body.byteLength; at += size) controller.enqueue(body.slice(at, at + size));
      controller.close();
    },
  });
  return new Request("http://localhost/", { method, headers, body: stream });
}

const declaredOf = (body: Uint8Array) =>
  fc.oneof(
    fc.constant(String(body.byteLength)),
    fc.constant(`0${body.byteLength}`),
    fc.nat(300).map(String),
    fc.constantFrom(null, "", "12, 12", "+5", " 7", "x"),
  );

Deno.test("readBodyBytes() framed gives the stream read's bytes and refusals for any body and declared length (property)", async () => {
  const deadlines = new BodyDeadlines(5000);
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ maxLength: 300 }).chain((body) =>
        fc.tuple(
          fc.constant(body),
          declaredOf(body),
          fc.integer({ min: 1, max: 4 }),
          fc.integer({ min: 0, max: 320 }),
          fc.constantFrom("POST", "PUT", "DELETE", "GET"),
        )
      ),
      async ([body, declared, chunks, limit, method]) => {
        const bounds = { limit, deadlines };
        const framed = await outcome(() =>
          readBodyBytes(request(method, body, chunks, declared), { ...bounds, framed: true })
        );
        const stream = await outcome(() => readBodyBytes(request(method, body, chunks, declared), bounds));
        assert.deepEqual(framed, stream);
      },
    ),
    { numRuns: 400 },
  );
});

Deno.test("readBodyBytes() framed reads what Deno.serve delivers as the stream read does, within or past the limit (property)", async () => {
  const limit = 64;
  const answers = new Map<string, Outcome>();
  const server = Deno.serve({ hostname: "localhost", port: 0, onListen() {} }, async (request) => {
    const framed = request.headers.get("x-read") === "framed";
    answers.set(framed ? "framed" : "stream", await outcome(() => readBodyBytes(request, { limit, framed })));
    return new Response("ok");
  });
  const send = async (given: Uint8Array, chunked: boolean, read: string) => {
    const body = new Uint8Array(given);
    const sent = chunked ? new Blob([body]).stream() : body;
    const url = `http://localhost:${server.addr.port}/`;
    const response = await fetch(url, { method: "POST", body: sent, headers: { "x-read": read } });
    await response.body?.cancel();
  };
  try {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 100 }), fc.boolean(), async (body, chunked) => {
        await send(body, chunked, "framed");
        await send(body, chunked, "stream");
        assert.deepEqual(answers.get("framed"), answers.get("stream"));
        const expected = body.byteLength > limit ? { code: "ERR_REQUEST_TOO_LARGE" } : { bytes: [...body] };
        assert.deepEqual(answers.get("framed"), expected);
      }),
      { numRuns: 60 },
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("readBodyBytes() framed cuts off a body that stalls (408) and one still arriving when the server stops (503)", async () => {
  const stopping = new AbortController();
  const deadlines = new BodyDeadlines(150, stopping.signal);
  const codes: string[] = [];
  const server = Deno.serve({ hostname: "localhost", port: 0, onListen() {} }, async (request) => {
    const got = await outcome(() => readBodyBytes(request, { limit: 1024, deadlines, framed: true }));
    codes.push("code" in got ? got.code : "read");
    return new Response("done");
  });
  const stall = async () => {
    const connection = await Deno.connect({ hostname: "localhost", port: server.addr.port });
    await connection.write(
      new TextEncoder().encode("POST / HTTP/1.1\r\nhost: localhost\r\ncontent-length: 50\r\n\r\n{"),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("never cut off")), 3000));
    try {
      return await Promise.race([connection.read(new Uint8Array(1024)), late]);
    } finally {
      clearTimeout(timer);
      connection.close();
    }
  };
  try {
    await stall();
    assert.deepEqual(codes, ["ERR_REQUEST_TIMEOUT"]);
    const second = stall();
    await new Promise((resolve) => setTimeout(resolve, 30));
    stopping.abort();
    await second;
    assert.deepEqual(codes, ["ERR_REQUEST_TIMEOUT", "ERR_SHUTTING_DOWN"]);
  } finally {
    stopping.abort();
    await server.shutdown();
  }
});
