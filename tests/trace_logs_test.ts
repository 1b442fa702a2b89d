/**
 * Logs users have: `pab check` reads Claude Code transcripts and MCP traffic
 * (JSON-RPC lines); a folder with a file that is not a trace is reported per
 * file; a trace nested too deep or with a repeated key is a coded error, never
 * a crash or a silent read.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { memoryIo, runCli } from "../adapters/cli/mod.ts";
import { detectTraceFormat, readTrace } from "../adapters/trace/mod.ts";
import { STARTER_POLICY } from "../adapters/claude_code/mod.ts";

const ROOT = new URL("../", import.meta.url);
const TRANSCRIPT = "traces/examples/claude_code.transcript.jsonl";
const MCP = "traces/examples/mcp_traffic.jsonl";
const DEMO_POLICY = "traces/examples/demo.policy.yaml";

async function pab(args: string[], files: Record<string, string>) {
  const memory = memoryIo({ files });
  const code = await runCli(args, memory.io, { version: "t" });
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

async function example(path: string): Promise<string> {
  return await Deno.readTextFile(new URL(path, ROOT));
}

Deno.test("readTrace() reads a Claude Code transcript: user words, tool calls and results; meta lines skipped", async () => {
  const text = await example(TRANSCRIPT);
  assert.equal(detectTraceFormat(text), "claude-code");
  const trace = readTrace(text, { source: "t.jsonl" });
  assert.equal(trace.id, "8d2f9a4e-1c3b-4f5a-9e7d-2b6c0a1f3e58");
  assert.deepEqual(trace.meta, {
    format: "claude-code-transcript",
    sessionId: "8d2f9a4e-1c3b-4f5a-9e7d-2b6c0a1f3e58",
    cwd: "/home/dev/shop",
  });
  assert.deepEqual(trace.events.map((event) => event.type), [
    "user",
    "assistant",
    "call",
    "result",
    "call",
    "result",
    "call",
    "result",
  ]);
  assert.ok(!trace.events.some((event) => "content" in event && /Caveat/.test(event.content)));
  // An image in a tool result is kept as a placeholder, so the result still counts as read.
  const image = [
    { type: "user", sessionId: "s", message: { role: "user", content: "Look at the screenshot" } },
    {
      type: "assistant",
      sessionId: "s",
      message: {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/a.png" } }],
      },
    },
    {
      type: "user",
      sessionId: "s",
      message: {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "image", source: { type: "base64" } }] }],
      },
    },
  ].map((line) => JSON.stringify(line)).join("\n");
  assert.deepEqual(readTrace(image).events.at(-1), { type: "result", id: "t1", content: "[image block: not text]" });
});

Deno.test("pab check replays a Claude Code transcript as the hook would judge it (Bash URLs, file paths with cwd)", async () => {
  const result = await pab(["check", "--policy", "p.yaml", TRANSCRIPT], {
    "p.yaml": STARTER_POLICY,
    [TRANSCRIPT]: await example(TRANSCRIPT),
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /^ALLOW {3}\S+#toolu_01 WebFetch/m);
  assert.match(result.stdout, /^BLOCK {3}\S+#toolu_02 Bash\(.*urls=\["https:\/\/evil\.example\/setup\.sh"\]/m);
  assert.match(
    result.stdout,
    /urls\[0\]='https:\/\/evil\.example\/setup\.sh' appears only in untrusted input from tool:WebFetch/,
  );
  assert.match(
    result.stdout,
    /^ALLOW {3}\S+#toolu_03 Edit\(.*path='docs\/payments\.md'\)\n {2}\+ path='docs\/payments\.md' comes from user/m,
  );
});

Deno.test("pab check reads MCP traffic: tools/call requests and their answers, bare or wrapped", async () => {
  const text = await example(MCP);
  assert.equal(detectTraceFormat(text), "mcp");
  const trace = readTrace(text, { source: "mcp.jsonl" });
  assert.deepEqual(trace.events.map((event) => event.type), ["call", "result", "call", "result"]);
  const read = trace.events[1];
  assert.ok(read.type === "result");
  assert.deepEqual((read.data as { messages: { from: string }[] }).messages[0].from, "eve@attacker.example");
  const result = await pab(["check", "--policy", DEMO_POLICY, MCP], {
    [DEMO_POLICY]: await example(DEMO_POLICY),
    [MCP]: text,
  });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /BLOCK {3}\S+#3 send_email\(to='eve@attacker\.example'/);
  assert.match(result.stdout, /to='eve@attacker\.example' appears only in untrusted input from tool:read_inbox/);
  // Wrapped lines with a direction, a JSON-RPC error, and an id used again after its answer.
  const wrapped = [
    { direction: "host->server", message: { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "x" } } },
    { direction: "server->host", message: { jsonrpc: "2.0", id: "a", error: { code: -32000, message: "boom" } } },
    { direction: "host->server", message: { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "y" } } },
    // The server asks the host something with the same id; the host's reply is not the tool's result.
    { direction: "server->host", message: { jsonrpc: "2.0", id: "a", method: "sampling/createMessage", params: {} } },
    {
      direction: "host->server",
      message: { jsonrpc: "2.0", id: "a", result: { content: [{ type: "text", text: "x" }] } },
    },
    { direction: "server->host", message: { jsonrpc: "2.0", id: "a", result: { content: [], isError: true } } },
  ].map((line) => JSON.stringify(line)).join("\n");
  assert.deepEqual(readTrace(wrapped, { source: "w.jsonl" }).events, [
    { type: "call", id: "a", tool: "x", args: {} },
    { type: "result", id: "a", content: "boom", error: "boom" },
    { type: "call", id: "a#2", tool: "y", args: {} },
    { type: "result", id: "a#2", content: "", error: "" },
  ]);
  assert.throws(
    () => readTrace('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}', { source: "m.jsonl" }),
    { code: "ERR_TRACE_INVALID", message: /m\.jsonl:1: a tools\/call request needs "params\.name"/ },
  );
});

Deno.test("pab check reports each file of a folder that is not a trace, and still reports the others", async () => {
  const result = await pab(["check", "--policy", DEMO_POLICY, "logs/"], {
    [DEMO_POLICY]: await example(DEMO_POLICY),
    "logs/a.mcp.jsonl": await example(MCP),
    "logs/b.json": '{"name":"my-app","version":"1.0.0"}',
    "logs/c.jsonl": "not json at all\n",
  });
  assert.equal(result.code, 2);
  assert.match(result.stdout, /BLOCK {3}\S+#3 send_email/);
  assert.match(result.stdout, /2 calls in 1 trace/);
  assert.match(
    result.stderr,
    /^error: Cannot read trace logs\/b\.json:1: not a trace pab reads .* \[ERR_TRACE_INVALID\]$/m,
  );
  assert.match(
    result.stderr,
    /^error: Cannot read trace logs\/c\.jsonl:1: not a trace pab reads .* \[ERR_TRACE_INVALID\]$/m,
  );
  const json = await pab(["check", "--json", "--policy", DEMO_POLICY, "logs/"], {
    [DEMO_POLICY]: await example(DEMO_POLICY),
    "logs/a.mcp.jsonl": await example(MCP),
    "logs/b.json": "{}",
  });
  assert.deepEqual(
    JSON.parse(json.stdout).errors.map((error: { file: string; code: string }) => [error.file, error.code]),
    [
      ["logs/b.json", "ERR_TRACE_INVALID"],
    ],
  );
});

function nested(depth: number, leaf = "1"): string {
  return '{"a":'.repeat(depth) + leaf + "}".repeat(depth);
}

Deno.test("pab check refuses arguments nested 100,000 levels with a coded error, in every format", async () => {
  const deep = nested(100_000);
  const logs: Record<string, string> = {
    "deep.jsonl": `{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"call","id":"c1","tool":"x","args":${deep}}\n`,
    "deep.openai.json": JSON.stringify({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "x", arguments: deep } }] },
      ],
    }),
    "deep.anthropic.json":
      `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":${deep}}]}]}`,
    "deep.mcp.jsonl": `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":${deep}}}\n`,
    "deep.cc.jsonl":
      `{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":${deep}}]}}\n`,
  };
  for (const [file, text] of Object.entries(logs)) {
    const result = await pab(["check", "--policy", DEMO_POLICY, file], {
      [DEMO_POLICY]: await example(DEMO_POLICY),
      [file]: text,
    });
    assert.equal(result.code, 2, `${file}: ${result.stderr}`);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /nested deeper than 256 levels/, file);
  }
});

Deno.test("readTrace() refuses a repeated key anywhere, and checkJsonShape's limits hold for any value (property)", () => {
  assert.throws(
    () =>
      readTrace('{"messages":[{"role":"user","content":"a"}],"messages":[{"role":"user","content":"b"}]}', {
        source: "d.json",
      }),
    { code: "ERR_TRACE_INVALID", message: /d\.json:1:45: the key "messages" appears twice in one object/ },
  );
  assert.throws(
    () => readTrace('{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"user","content":"a","\\u0063ontent":"b"}'),
    /trace:2:30: the key "content" appears twice in one object/,
  );
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
    const text = JSON.stringify({ messages: [{ role: "user", content: "hi", data: value }] });
    assert.doesNotThrow(() => readTrace(text, { source: "p.json" }));
  }));
  fc.assert(fc.property(fc.integer({ min: 1, max: 600 }), (depth) => {
    const text = `{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"call","id":"c","tool":"x","args":${
      nested(depth)
    }}`;
    const deep = depth + 1 > 256;
    if (deep) assert.throws(() => readTrace(text), /nested deeper than 256 levels/);
    else assert.doesNotThrow(() => readTrace(text));
  }));
  fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), (record) => {
    const [key] = Object.keys(record);
    // The key is added again as text (a replacer function: "$$" in a replacement string would mean "$").
    const text = JSON.stringify({ messages: [{ role: "user", content: "hi" }], extra: record }).replace(
      /\}\}$/,
      () => `,${JSON.stringify(key)}:0}}`,
    );
    assert.throws(() => readTrace(text), /appears twice in one object/);
  }));
});
