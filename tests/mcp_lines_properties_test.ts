/**
 * Newline-delimited JSON-RPC read by `pab mcp` (issue 18, item 6): however the
 * bytes are cut into chunks, every line is read once, as a message or as a
 * problem with its JSON-RPC code, and a line over the limit is never held.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { type LineRead, LineSplitter, readLine } from "../adapters/mcp/json_rpc_lines.ts";
import { LineTransport, MessageTooLargeError } from "../adapters/mcp/line_transport.ts";

const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.oneof(fc.nat(), fc.string()), method: fc.string({ minLength: 1 }) }),
  fc.record({
    jsonrpc: fc.constant("2.0"),
    method: fc.string({ minLength: 1 }),
    params: fc.dictionary(fc.string(), fc.jsonValue()),
  }),
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.nat(), result: fc.jsonValue() }),
).map((value) => JSON.stringify(value));
const junk = fc.oneof(
  fc.string().filter((text) => !text.includes("\n") && text.trim() !== ""),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.constantFrom(
    "[]",
    '{"jsonrpc":"1.0","id":3,"method":"x"}',
    '{"jsonrpc":"2.0"}',
    '{"jsonrpc":"2.0","id":{},"method":"m"}',
  ),
);

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  return chunks;
}

Deno.test("LineSplitter reads each line once, the same whatever the chunks, with -32700 for text that is not JSON", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(message, junk), { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat()),
      (lines, cuts) => {
        const read: LineRead[] = [];
        const splitter = new LineSplitter(1 << 20, (line) => read.push(line));
        for (const chunk of split(new TextEncoder().encode(lines.join("\n") + "\n"), cuts)) splitter.push(chunk);
        splitter.end();
        assert.deepEqual(read, lines.map((line) => readLine(line, new TextEncoder().encode(line).length)));
        for (const [i, line] of lines.entries()) {
          const entry = read[i];
          let json = true;
          try {
            JSON.parse(line);
          } catch {
            json = false;
          }
          if (!json) assert.ok("problem" in entry && entry.problem.code === -32700);
          if ("message" in entry) assert.equal(entry.message.jsonrpc, "2.0");
        }
      },
    ),
  );
});

Deno.test("LineSplitter reports a line over the limit once, with its top-level id, and reads the next line as usual", () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.nat(), fc.string({ maxLength: 20 })),
      fc.boolean(),
      fc.integer({ min: 65, max: 5000 }),
      fc.array(fc.nat()),
      (id, idFirst, size, cuts) => {
        const params = { text: "x".repeat(size), nested: { id: "not-this-one" } };
        const big = idFirst
          ? JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })
          : JSON.stringify({ params, method: "tools/call", jsonrpc: "2.0", id });
        const read: LineRead[] = [];
        const splitter = new LineSplitter(64, (line) => read.push(line));
        const after = '{"jsonrpc":"2.0","method":"ok"}';
        for (const chunk of split(new TextEncoder().encode(`${big}\n${after}\n`), cuts)) splitter.push(chunk);
        assert.equal(read.length, 2);
        const [first, second] = read;
        assert.ok("problem" in first);
        assert.equal(first.problem.kind, "oversize");
        assert.equal(first.problem.code, -32600);
        assert.equal(first.problem.id, id);
        assert.equal(first.problem.request, true);
        assert.equal(first.problem.bytes, new TextEncoder().encode(big).length);
        assert.deepEqual(second, { message: { jsonrpc: "2.0", method: "ok" } });
      },
    ),
  );
});

Deno.test("LineTransport.send() writes a line only when it fits the limit with its newline, and refuses it whole otherwise", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.integer({ min: 30, max: 200 }),
      async (text, max) => {
        const written: Uint8Array[] = [];
        const transport = new LineTransport({
          readable: new ReadableStream(),
          writable: new WritableStream({ write: (chunk) => void written.push(chunk) }),
          maxMessageBytes: max,
        });
        await transport.start();
        const message = { jsonrpc: "2.0" as const, method: "notifications/message", params: { text } };
        const line = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
        const sent = await transport.send(message).then(() => true, (error) => {
          assert.ok(error instanceof MessageTooLargeError);
          return false;
        });
        assert.equal(sent, line.length <= max);
        assert.deepEqual(written, sent ? [line] : []);
      },
    ),
  );
});
