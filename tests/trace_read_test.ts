import assert from "node:assert/strict";
import { TraceError } from "../adapters/trace/mod.ts";
import {
  detectTraceFormat,
  formatTrace,
  readOpenAiLog,
  readPabTrace,
  readTrace,
  type TraceEvent,
} from "../adapters/trace/mod.ts";
import { DEMO_POLICY } from "../adapters/cli/demo/demo_policy.ts";

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

const HEADER = '{"pab":"trace","schemaVersion":1,"id":"t"}';

function traceError(fn: () => unknown): TraceError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof TraceError, `expected a TraceError, got ${error}`);
    assert.equal(error.code, "ERR_TRACE_INVALID");
    return error;
  }
  assert.fail("expected a TraceError");
}

function withoutActor(events: readonly TraceEvent[]): TraceEvent[] {
  return events.map((event) => {
    if (event.type !== "call") return event;
    const { actor: _, ...rest } = event;
    return rest;
  });
}

Deno.test("readPabTrace() reads the e-mail hijack", async () => {
  const trace = readPabTrace(await read("traces/examples/hijack.pab.jsonl"), { source: "hijack.pab.jsonl" });
  assert.equal(trace.id, "hijack");
  assert.deepEqual(trace.events.map((event) => event.type), [
    "system",
    "user",
    "call",
    "result",
    "assistant",
    "call",
    "call",
  ]);
  const eve = trace.events[5];
  assert.deepEqual(eve.type === "call" && [eve.tool, eve.args.to, eve.actor], [
    "send_email",
    "eve@attacker.example",
    "attacker",
  ]);
});

Deno.test("readTrace() reads the OpenAI log and the pab trace of the hijack as the same events", async () => {
  const openai = readTrace(await read("traces/examples/hijack.openai.json"), { source: "hijack.openai.json" });
  const pab = readTrace(await read("traces/examples/hijack.pab.jsonl"), { source: "hijack.pab.jsonl" });
  assert.equal(openai.id, "hijack.openai.json");
  assert.deepEqual(openai.meta, { format: "openai-chat" });
  assert.deepEqual(withoutActor(openai.events), withoutActor(pab.events));
});

Deno.test("detectTraceFormat() tells the four formats apart by content", () => {
  assert.equal(detectTraceFormat(`${HEADER}\n{"type":"user","content":"hi"}\n`), "pab");
  assert.equal(detectTraceFormat(`\uFEFF  ${HEADER}`), "pab");
  assert.equal(detectTraceFormat('[{"role":"user","content":"hi"}]'), "openai");
  assert.equal(detectTraceFormat('{\n  "model": "gpt",\n  "messages": []\n}'), "openai");
  assert.equal(detectTraceFormat('{"messages":[]}'), "openai");
  assert.equal(detectTraceFormat('{"type":"user","content":"hi"}\n'), "pab");
  assert.equal(detectTraceFormat("not json"), undefined);
  assert.equal(detectTraceFormat('{"model":"x"}'), undefined);
  assert.equal(detectTraceFormat("42"), undefined);
  assert.equal(detectTraceFormat('{"system":"x","messages":[]}'), "anthropic");
  assert.equal(
    detectTraceFormat('[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}]'),
    "anthropic",
  );
  assert.equal(
    detectTraceFormat('[{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}]'),
    "openai-responses",
  );
  assert.equal(detectTraceFormat('{"output":[]}'), "openai-responses");
  assert.equal(
    detectTraceFormat('[{"role":"user","content":[{"type":"input_text","text":"hi"}]}]'),
    "openai-responses",
  );
});

Deno.test("readPabTrace() names the file and line of a malformed line", () => {
  const error = traceError(() =>
    readPabTrace(`${HEADER}\n{"type":"user","content":"hi"}\n{"type":"call",\n`, { source: "bad.jsonl" })
  );
  assert.match(
    error.message,
    /^Cannot read trace bad\.jsonl:3: the line is not valid JSON \(.+\) \(write exactly one JSON object per line\)$/,
  );
});

Deno.test("readPabTrace() rejects unknown keys and suggests the one meant", () => {
  const error = traceError(() =>
    readPabTrace(`${HEADER}\n{"type":"call","id":"c1","tol":"send_email","args":{}}`, { source: "t.jsonl" })
  );
  assert.equal(
    error.message,
    'Cannot read trace t.jsonl:2: unknown key "tol" in a call event (did you mean "tool"?)',
  );
});

Deno.test("readPabTrace() fails closed on every malformed event", () => {
  const cases: Array<[string, RegExp]> = [
    ['{"type":"user","content":"hi"}', /t\.jsonl:1: the first line is a "user" event, not the header/],
    ['{"pab":"trace","schemaVersion":2,"id":"t"}', /t\.jsonl:1: unsupported schemaVersion 2/],
    ['{"pab":"trace","schemaVersion":1}', /t\.jsonl:1: the header's "id" must be a non-empty string/],
    [`${HEADER}\n[1,2]`, /t\.jsonl:2: expected a JSON object, got an array/],
    [`${HEADER}\n{"type":"tool","content":"x"}`, /t\.jsonl:2: unknown event type "tool"/],
    [`${HEADER}\n{"content":"x"}`, /t\.jsonl:2: the event has no "type"/],
    [`${HEADER}\n{"type":"user","content":3}`, /t\.jsonl:2: a user event's "content" must be a string, got 3/],
    [`${HEADER}\n{"type":"call","id":"c","tool":"x","args":[]}`, /t\.jsonl:2: a call's "args" must be an object/],
    [`${HEADER}\n{"type":"call","id":"c","tool":"x"}`, /t\.jsonl:2: a call event needs "args"/],
    [`${HEADER}\n{"type":"call","id":"","tool":"x","args":{}}`, /t\.jsonl:2: a call event's "id" must be a non-empty/],
    [`${HEADER}\n{"type":"call","id":"c","tool":"x","args":{},"actor":"bot"}`, /t\.jsonl:2: unknown actor "bot"/],
    [
      `${HEADER}\n{"type":"call","id":"c","tool":"x","args":{}}\n{"type":"call","id":"c","tool":"y","args":{}}`,
      /t\.jsonl:3: call id "c" was already used on line 2/,
    ],
    [`${HEADER}\n{"type":"result","id":"c","content":"x"}`, /t\.jsonl:2: result for call "c", which no earlier line/],
    [
      `${HEADER}\n{"type":"call","id":"c","tool":"x","args":{}}\n{"type":"result","id":"c","content":"a"}\n{"type":"result","id":"c","content":"b"}`,
      /t\.jsonl:4: call "c" already has a result on line 3/,
    ],
    [
      `${HEADER}\n{"type":"call","id":"c","tool":"x","args":{}}\n{"type":"result","id":"c","content":"x","error":1}`,
      /t\.jsonl:3: a result's "error" must be a string, got 1/,
    ],
  ];
  for (const [text, pattern] of cases) {
    assert.match(traceError(() => readPabTrace(text, { source: "t.jsonl" })).message, pattern, text);
  }
});

Deno.test("readPabTrace() skips blank lines and counts them in line numbers", () => {
  const trace = readPabTrace(`\n${HEADER}\r\n\n{"type":"user","content":"hi"}\n\n`);
  assert.deepEqual(trace.events, [{ type: "user", content: "hi" }]);
  const error = traceError(() => readPabTrace(`${HEADER}\n\n\n{oops}`, { source: "t.jsonl" }));
  assert.match(error.message, /^Cannot read trace t\.jsonl:4:/);
});

Deno.test("readTrace() reports an empty file", () => {
  assert.match(traceError(() => readTrace(" \n", { source: "e.jsonl" })).message, /e\.jsonl:1: the file is empty/);
});

Deno.test("readOpenAiLog() converts roles, tool calls and content parts", () => {
  const trace = readOpenAiLog(JSON.stringify({
    model: "gpt-4o",
    messages: [
      { role: "developer", content: [{ type: "text", text: "Be brief." }] },
      { role: "user", content: [{ type: "text", text: "Hi" }, { type: "image_url", image_url: { url: "x" } }] },
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [{ id: "a", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }],
      },
      { role: "tool", tool_call_id: "a", content: [{ type: "text", text: "found" }] },
    ],
  }));
  assert.deepEqual(trace.events, [
    { type: "system", content: "Be brief." },
    { type: "user", content: "Hi" },
    { type: "assistant", content: "Looking." },
    { type: "call", id: "a", tool: "search", args: { q: "x" } },
    { type: "result", id: "a", content: "found" },
  ]);
});

Deno.test("readOpenAiLog() names the file, line and message of a problem", () => {
  const log = `[
  {"role": "user", "content": "hi"},
  {"role": "tool", "tool_call_id": "nope", "content": "x"}
]`;
  assert.equal(
    traceError(() => readOpenAiLog(log, { source: "log.json" })).message,
    'Cannot read trace log.json:3 (messages[1]): tool message answers tool_call_id "nope", which no earlier ' +
      "assistant message called (put each tool message after the assistant message whose tool_calls include its id)",
  );
  const cases: Array<[unknown, RegExp]> = [
    [[{ role: "robot", content: "x" }], /log\.json:1 \(messages\[0\]\): unknown role "robot"/],
    [[{ role: "function", name: "f", content: "x" }], /legacy "function" messages are not supported/],
    [
      [{ role: "assistant", tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{" } }] }],
      /messages\[0\]\) tool_calls\[0\]: "function\.arguments" is not valid JSON/,
    ],
    [
      [{ role: "assistant", tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "[1]" } }] }],
      /"function\.arguments" must encode an object/,
    ],
    [
      [{ role: "assistant", tool_calls: [{ id: "a", type: "custom", custom: { name: "f" } }] }],
      /a custom tool call needs "custom": \{"name", "input"\}/,
    ],
    [
      [{ role: "assistant", tool_calls: [{ id: "a", type: "mcp", mcp: {} }] }],
      /unsupported tool call type "mcp"/,
    ],
    [{ model: "x" }, /log\.json:1: expected a JSON array of messages or an object with a "messages" array/],
  ];
  for (const [value, pattern] of cases) {
    assert.match(traceError(() => readOpenAiLog(JSON.stringify(value), { source: "log.json" })).message, pattern);
  }
  assert.match(
    traceError(() => readOpenAiLog('[\n  {"role": "user",}\n]', { source: "log.json" })).message,
    /^Cannot read trace log\.json:2:19: invalid JSON: PropertyNameExpected/,
  );
});

Deno.test("formatTrace() writes what readPabTrace() reads back unchanged", async () => {
  for (
    const path of [
      "traces/examples/hijack.pab.jsonl",
      "traces/agentdojo/v1.2.2/workspace/user/user_task_0.jsonl",
      "traces/agentdojo/v1.2.2/banking/user/user_task_0.jsonl",
    ]
  ) {
    const trace = readPabTrace(await read(path));
    assert.deepEqual(readPabTrace(formatTrace(trace)), trace, path);
  }
  const openai = readTrace(await read("traces/examples/hijack.openai.json"));
  assert.deepEqual(readPabTrace(formatTrace(openai)), openai);
});

Deno.test("every AgentDojo trace reads as a pab trace", async () => {
  let calls = 0;
  for await (const suite of Deno.readDir(new URL("traces/agentdojo/v1.2.2/", ROOT))) {
    if (!suite.isDirectory) continue;
    for await (const file of Deno.readDir(new URL(`traces/agentdojo/v1.2.2/${suite.name}/user/`, ROOT))) {
      const trace = readTrace(await read(`traces/agentdojo/v1.2.2/${suite.name}/user/${file.name}`));
      calls += trace.events.filter((event) => event.type === "call").length;
    }
  }
  assert.ok(calls > 300, `expected the AgentDojo calls, got ${calls}`);
});

interface SchemaBranch {
  required: string[];
  properties: Record<string, { const?: unknown; enum?: unknown[]; type?: string }>;
  additionalProperties: boolean;
}

/** A small check of one line against traces/pab-trace.schema.json: const, enum, type, required and no extra keys. */
function schemaProblems(line: Record<string, unknown>, defs: Record<string, SchemaBranch>): string[] {
  const branch = defs[line.pab === "trace" ? "header" : String(line.type)];
  if (!branch) return [`no schema branch for ${JSON.stringify(line).slice(0, 60)}`];
  const problems = branch.required.filter((key) => !(key in line)).map((key) => `missing ${key}`);
  for (const [key, value] of Object.entries(line)) {
    const spec = branch.properties[key];
    if (!spec) problems.push(`extra key ${key}`);
    else if ("const" in spec && spec.const !== value) problems.push(`${key} is not ${spec.const}`);
    else if (spec.enum && !spec.enum.includes(value)) problems.push(`${key} not in enum`);
    else if (spec.type === "string" && typeof value !== "string") problems.push(`${key} is not a string`);
    else if (spec.type === "object" && (typeof value !== "object" || value === null || Array.isArray(value))) {
      problems.push(`${key} is not an object`);
    }
  }
  return problems;
}

Deno.test("traces/pab-trace.schema.json agrees with the reader", async () => {
  const schema = JSON.parse(await read("traces/pab-trace.schema.json"));
  const defs = schema.$defs as Record<string, SchemaBranch>;
  assert.deepEqual(Object.keys(defs).sort(), ["assistant", "call", "header", "result", "system", "user"]);
  const files = ["traces/examples/hijack.pab.jsonl", "traces/agentdojo/v1.2.2/workspace/user/user_task_0.jsonl"];
  for (const file of files) {
    for (const text of (await read(file)).split("\n").filter(Boolean)) {
      assert.deepEqual(schemaProblems(JSON.parse(text), defs), [], `${file}: ${text.slice(0, 80)}`);
    }
  }
  // Lines the schema rejects, the reader rejects too.
  const bad = [
    { type: "call", id: "c", tool: "x", args: {}, extra: 1 },
    { type: "call", id: "c", tool: "x", args: {}, actor: "bot" },
    { type: "user", content: "x", role: "user" },
  ];
  for (const line of bad) {
    assert.notDeepEqual(schemaProblems(line, defs), []);
    traceError(() => readPabTrace(`${HEADER}\n${JSON.stringify(line)}`));
  }
});

Deno.test("traces/examples/demo.policy.yaml is the demo's policy", async () => {
  assert.equal(await read("traces/examples/demo.policy.yaml"), DEMO_POLICY);
});

Deno.test("adapters/trace uses no Deno, Node or network API", async () => {
  for await (const entry of Deno.readDir(new URL("adapters/trace/", ROOT))) {
    const source = (await read(`adapters/trace/${entry.name}`)).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const pattern of [/\bDeno\./, /["']node:/, /\bfetch\s*\(/, /\bDate\b/, /Math\.random/]) {
      assert.doesNotMatch(source, pattern, `adapters/trace/${entry.name}`);
    }
  }
});
