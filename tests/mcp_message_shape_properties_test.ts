/**
 * What `pab mcp` relays, an SDK peer accepts (issue 18, item 6): the MCP SDK
 * drops a line its `JSONRPCMessageSchema` rejects with no answer, so a message
 * pab passed on that the peer's SDK rejects would leave its sender waiting for
 * ever. Every line pab reads as a message passes the SDK's schema; every
 * message the SDK takes, pab takes unchanged; every other line is a problem
 * answered with its sender's id when that id can be echoed; and a line cut
 * anywhere is never read as the answer to another request than its own.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { JSONRPCMessageSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { readLine } from "../adapters/mcp/json_rpc_lines.ts";

const sdkAccepts = (value: unknown) => JSONRPCMessageSchema.safeParse(value).success;

const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(2 ** 53, -(2 ** 60), 1e21, 0.5, null, true, {}, [] as unknown[]),
);
const meta = fc.oneof(
  fc.constant(undefined),
  fc.record({ progressToken: id }, { requiredKeys: [] }),
  fc.record({ "io.modelcontextprotocol/related-task": fc.oneof(fc.record({ taskId: id }), fc.string()) }),
  fc.constantFrom([] as unknown[], "m", null),
);
const body = fc.oneof(
  fc.dictionary(fc.constantFrom("name", "arguments", "cursor", "content", "tools"), fc.jsonValue({ maxDepth: 2 })),
  fc.jsonValue({ maxDepth: 1 }),
);
const withMeta = fc.tuple(body, meta).map(([value, m]) =>
  m === undefined || typeof value !== "object" || value === null || Array.isArray(value)
    ? value
    : { ...value, _meta: m }
);
/** Objects shaped like JSON-RPC messages, right and wrong in every member. */
const messageLike = fc.record({
  jsonrpc: fc.constantFrom("2.0", "2.0", "2.0", "1.0", 2),
  id,
  method: fc.oneof(fc.constantFrom("tools/call", "ping", "notifications/cancelled", ""), fc.integer()),
  params: withMeta,
  result: withMeta,
  error: fc.oneof(
    fc.record({
      code: fc.oneof(fc.integer(), fc.double(), fc.string()),
      message: fc.oneof(fc.string(), fc.integer()),
      data: fc.jsonValue({ maxDepth: 1 }),
    }, { requiredKeys: [] }),
    fc.jsonValue({ maxDepth: 1 }),
  ),
  trace: fc.string(),
}, { requiredKeys: [] });

Deno.test("readLine() reads as a message only what the MCP SDK's schema accepts, and everything it accepts", () => {
  fc.assert(
    fc.property(messageLike, (value) => {
      const text = JSON.stringify(value);
      const read = readLine(text);
      const relayed = JSON.parse(text);
      if ("message" in read) {
        // What pab relays is written anew from what it read: the SDK on the other side takes it.
        assert.ok(sdkAccepts(JSON.parse(JSON.stringify(read.message))), text);
        return;
      }
      const { trace: _, ...members } = relayed;
      const wanted = sdkAccepts(members) && members.method !== "";
      assert.ok(!wanted, `pab refused a message the SDK takes: ${text} (${read.problem.message})`);
      assert.equal(read.problem.code, -32600);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("readLine() reads an error that names no request (no id, or null) as the MCP SDK does, and relays it without an id", () => {
  const error = { code: 0, message: "" };
  for (
    const value of [{ jsonrpc: "2.0", error }, { jsonrpc: "2.0", id: null, error }, { jsonrpc: "2.0", error, x: 1 }]
  ) {
    const read = readLine(JSON.stringify(value));
    assert.ok("message" in read, JSON.stringify(read));
    assert.deepEqual(read.message, { jsonrpc: "2.0", error });
    assert.ok(sdkAccepts(read.message));
  }
  // A result names its request: without an id, or with null, it is no message.
  for (const value of [{ jsonrpc: "2.0", result: {} }, { jsonrpc: "2.0", id: null, result: {} }]) {
    assert.ok("problem" in readLine(JSON.stringify(value)));
    assert.ok(!sdkAccepts(value));
  }
});

Deno.test("readLine() answers a refused request with its own id whenever that id can be echoed exactly", () => {
  fc.assert(
    fc.property(messageLike, (value) => {
      const read = readLine(JSON.stringify(value));
      if ("message" in read) return;
      const sent = JSON.parse(JSON.stringify(value)).id;
      const echoable = typeof sent === "string" || Number.isSafeInteger(sent) ||
        (typeof sent === "number" && !Number.isInteger(sent));
      // Never another id than the one sent: an unsafe integer would come back as another number.
      if (read.problem.id !== null) assert.equal(read.problem.id, sent);
      if (echoable && typeof value.method === "string" && value.jsonrpc === "2.0") {
        assert.equal(read.problem.id, sent);
        assert.equal(read.problem.request, true);
      }
    }),
    { numRuns: 1000 },
  );
});

Deno.test("readLine() reads a line cut anywhere as a problem that names its own request or none", () => {
  const request = fc.record({
    id: fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.string({ maxLength: 6 })),
    method: fc.constantFrom("tools/call", "tools/list"),
    params: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })),
    jsonrpcFirst: fc.boolean(),
  });
  fc.assert(
    fc.property(request, fc.nat(), fc.boolean(), ({ id, method, params, jsonrpcFirst }, cut, response) => {
      const body = response ? { id, result: params } : { id, method, params };
      const message = jsonrpcFirst ? { jsonrpc: "2.0", ...body } : { ...body, jsonrpc: "2.0" };
      const text = JSON.stringify(message);
      const prefix = text.slice(0, cut % text.length);
      if (!prefix.trim()) return;
      const read = readLine(prefix);
      assert.ok("problem" in read, prefix);
      if (read.problem.id !== null) assert.equal(read.problem.id, id, prefix);
      // Read as a request only when it is one (its id and method are both before the cut); then it is answered.
      if (read.problem.request) assert.ok(!response && read.problem.id !== null, prefix);
      // A request cut after its method (its id comes first) is answered under its id, so its sender is not left waiting.
      if (!response && prefix.includes('"method":')) {
        assert.equal(read.problem.id, id, prefix);
        assert.ok(read.problem.request, prefix);
      }
    }),
    { numRuns: 2000 },
  );
});

Deno.test("readLine() refuses a message whose numbers JSON.parse made infinite, and relays every finite one as read", () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("1e400", "-2E+999")), {
        maxLength: 4,
      }),
      fc.nat({ max: 3 }),
      (numbers, depth) => {
        const list = `[${numbers.map((n) => typeof n === "string" ? n : JSON.stringify(n)).join(",")}]`;
        const nested = "[".repeat(depth) + list + "]".repeat(depth);
        const text = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"n":${nested}}}}`;
        const read = readLine(text);
        const infinite = numbers.some((n) => typeof n === "string");
        if (infinite) {
          assert.ok("problem" in read && read.problem.code === -32600 && read.problem.id === 1);
        } else {
          assert.ok("message" in read);
          assert.deepEqual(JSON.parse(JSON.stringify(read.message)), read.message);
        }
      },
    ),
  );
});
