import assert from "node:assert/strict";
import fc from "fast-check";
import { TraceError } from "../adapters/trace/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import {
  readAnthropicLog,
  readResponsesLog,
  readTrace,
  replayTrace,
  type Trace,
  type TraceEvent,
} from "../adapters/trace/mod.ts";

const ROOT = new URL("../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

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

/** The hijack as an Anthropic Messages request body. */
function anthropicHijack(pab: Trace): unknown {
  const [system, user, read, inbox, say, eve, alice] = pab.events as TraceEvent[];
  const text = (event: TraceEvent) => (event as { content: string }).content;
  const use = (event: TraceEvent) => {
    const call = event as Extract<TraceEvent, { type: "call" }>;
    return { type: "tool_use", id: call.id, name: call.tool, input: call.args };
  };
  return {
    model: "claude-x",
    system: [{ type: "text", text: text(system) }],
    messages: [
      { role: "user", content: text(user) },
      { role: "assistant", content: [{ type: "thinking", thinking: "..." }, use(read)] },
      {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: (inbox as { id: string }).id,
          content: [{ type: "text", text: text(inbox) }],
        }],
      },
      { role: "assistant", content: [{ type: "text", text: text(say) }, use(eve), use(alice)] },
    ],
  };
}

/** The hijack as an OpenAI Responses log: the request's input, then the response's output. */
function responsesHijack(pab: Trace): unknown {
  const [system, user, read, inbox, say, eve, alice] = pab.events as TraceEvent[];
  const text = (event: TraceEvent) => (event as { content: string }).content;
  const call = (event: TraceEvent) => {
    const c = event as Extract<TraceEvent, { type: "call" }>;
    return { type: "function_call", id: `fc_${c.id}`, call_id: c.id, name: c.tool, arguments: JSON.stringify(c.args) };
  };
  return {
    instructions: text(system),
    input: [
      { role: "user", content: [{ type: "input_text", text: text(user) }] },
      call(read),
      { type: "function_call_output", call_id: (inbox as { id: string }).id, output: text(inbox) },
    ],
    output: [
      { type: "reasoning", id: "rs_1", summary: [] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: text(say), annotations: [] }] },
      call(eve),
      call(alice),
    ],
  };
}

Deno.test("readTrace() reads the hijack as Anthropic Messages and OpenAI Responses logs, with the same events", async () => {
  const pab = readTrace(await read("traces/examples/hijack.pab.jsonl"));
  const anthropic = readTrace(JSON.stringify(anthropicHijack(pab), null, 2), { source: "a.json" });
  const responses = readTrace(JSON.stringify(responsesHijack(pab), null, 2), { source: "r.json" });
  assert.deepEqual(anthropic.meta, { format: "anthropic-messages" });
  assert.deepEqual(responses.meta, { format: "openai-responses" });
  assert.deepEqual(anthropic.events, withoutActor(pab.events));
  assert.deepEqual(responses.events, withoutActor(pab.events));
});

Deno.test("replayTrace() blocks the hijacked call in an Anthropic log as in the pab trace", async () => {
  const policy = parsePolicy(await read("traces/examples/demo.policy.yaml"));
  const pab = readTrace(await read("traces/examples/hijack.pab.jsonl"));
  const replay = await replayTrace(readTrace(JSON.stringify(anthropicHijack(pab))), policy);
  const expected = await replayTrace(pab, policy);
  assert.deepEqual(replay.calls.map((c) => c.decision), expected.calls.map((c) => c.decision));
  assert.ok(replay.calls.some((c) => c.decision === "block"));
});

Deno.test("readAnthropicLog() keeps errors, user text after results and string contents", () => {
  const trace = readAnthropicLog(JSON.stringify([
    { role: "user", content: "Look it up" },
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "search", input: { q: "x" } }] },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "no network", is_error: true },
        { type: "text", text: "Try again" },
        { type: "image", source: {} },
      ],
    },
  ]));
  assert.deepEqual(trace.events, [
    { type: "user", content: "Look it up" },
    { type: "call", id: "t1", tool: "search", args: { q: "x" } },
    { type: "result", id: "t1", content: "no network", error: "no network" },
    { type: "user", content: "Try again" },
  ]);
});

Deno.test("readAnthropicLog() names the file, line and block of every problem", () => {
  const use = { type: "tool_use", id: "t1", name: "f", input: {} };
  const cases: Array<[unknown, RegExp]> = [
    [{ messages: [{ role: "system", content: "x" }] }, /messages\[0\]\): unknown role "system" \(Anthropic logs put/],
    [
      { messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "zz", content: "x" }] }] },
      /tool_use_id "zz", which no earlier/,
    ],
    [{ messages: [{ role: "assistant", content: [use, use] }] }, /content\[1\]: tool_use id "t1" is used twice/],
    [{ messages: [{ role: "assistant", content: [{ ...use, input: [1] }] }] }, /"input" must be an object/],
    [
      { messages: [{ role: "assistant", content: [{ type: "server_tool_use", id: "s", name: "web_search" }] }] },
      /unsupported assistant content block "server_tool_use"/,
    ],
    [{
      messages: [{ role: "assistant", content: [use] }, {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "image" }] }],
      }],
    }, /tool_result may hold only text blocks, got "image"/],
    [{ system: 3, messages: [] }, /\(system\): system must be a string or an array of text blocks/],
    [{ messages: 3 }, /a\.json:1: expected a "messages" array, got a number/],
  ];
  for (const [value, pattern] of cases) {
    assert.match(traceError(() => readAnthropicLog(JSON.stringify(value), { source: "a.json" })).message, pattern);
  }
});

Deno.test("readResponsesLog() reads custom tool calls, a string input and skips reasoning", () => {
  const trace = readResponsesLog(JSON.stringify({
    input: "Patch the file",
    output: [
      { type: "reasoning", id: "r" },
      { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: "*** Begin Patch" },
      { type: "custom_tool_call_output", call_id: "c1", output: [{ type: "input_text", text: "done" }] },
    ],
  }));
  assert.deepEqual(trace.events, [
    { type: "user", content: "Patch the file" },
    { type: "call", id: "c1", tool: "apply_patch", args: { input: "*** Begin Patch" } },
    { type: "result", id: "c1", content: "done" },
  ]);
});

Deno.test("readResponsesLog() names the file, line and item of every problem", () => {
  const call = { type: "function_call", call_id: "c1", name: "f", arguments: "{}" };
  const cases: Array<[unknown, RegExp]> = [
    [[{ type: "web_search_call", id: "w" }], /items\[0\]\): unsupported item type "web_search_call"/],
    [[{ type: "function_call_output", call_id: "zz", output: "x" }], /call_id "zz", which no earlier item called/],
    [[call, call], /items\[1\]\): call_id "c1" is used twice/],
    [[{ ...call, arguments: "[1]" }], /"arguments" must encode an object, got an array/],
    [[{ ...call, arguments: "{" }], /"arguments" is not valid JSON/],
    [[{ role: "robot", content: "x" }], /unknown role "robot"/],
    [
      [call, { type: "function_call_output", call_id: "c1", output: [{ type: "input_image" }] }],
      /unsupported content part "input_image"/,
    ],
    [{ input: 3 }, /\(input\): "input" must be a string or an array of items/],
    [{ instructions: "x" }, /r\.json:1: expected "input" or "output" items, got an object with neither/],
  ];
  for (const [value, pattern] of cases) {
    assert.match(traceError(() => readResponsesLog(JSON.stringify(value), { source: "r.json" })).message, pattern);
  }
});

Deno.test("readTrace() rejects text that is no trace format, naming all four", () => {
  for (const text of ['{"model":"x"}', "42", "hello world", '"a string"', "null"]) {
    const error = traceError(() => readTrace(text, { source: "x.log" }));
    assert.match(error.message, /^Cannot read trace x\.log:1: not a trace pab reads \(expected a pab trace/);
    assert.match(error.message, /OpenAI chat log.*OpenAI Responses log.*Anthropic Messages log/);
  }
});

Deno.test("readTrace() rejects a log that holds no messages in every format", () => {
  const empty = [
    ["[]", "OpenAI chat log"],
    ['{"messages":[]}', "OpenAI chat log"],
    ['{"system":"","messages":[]}', "Anthropic Messages log"],
    ['{"system":"Be brief.","messages":[]}', "Anthropic Messages log"],
    ['{"instructions":"Be brief.","input":[]}', "OpenAI Responses log"],
    ['[{"role":"system","content":"Be brief."}]', "OpenAI chat log"],
    ['{"input":[]}', "OpenAI Responses log"],
    ['{"output":[{"type":"reasoning","id":"r"}]}', "OpenAI Responses log"],
    ['{"pab":"trace","schemaVersion":1,"id":"t"}\n', "pab trace"],
  ] as const;
  for (const [text, format] of empty) {
    const error = traceError(() => readTrace(text, { source: "e.json" }));
    assert.equal(
      error.message,
      `Cannot read trace e.json: it holds no messages (a ${format} with at least one user, assistant or tool ` +
        "message is expected; an empty log would pass a check as 0 calls)",
    );
  }
});

Deno.test("readTrace() reads or throws TraceError for any JSON shaped like a chat, Responses or Anthropic log", () => {
  const value = fc.oneof(
    fc.constantFrom("user", "assistant", "system", "tool", "function_call", "tool_use", "tool_result", "c1", "{}", ""),
    fc.integer(),
    fc.constant(null),
  );
  const part = fc.dictionary(fc.constantFrom("type", "text", "id", "name", "input", "tool_use_id", "content"), value);
  const item = fc.dictionary(
    fc.constantFrom("role", "type", "content", "call_id", "name", "arguments", "output", "tool_calls", "tool_call_id"),
    fc.oneof(value, fc.array(part, { maxLength: 3 })),
  );
  const log = fc.oneof(
    fc.array(item, { maxLength: 4 }),
    fc.record({ messages: fc.array(item, { maxLength: 4 }), system: value }, { requiredKeys: [] }),
    fc.record({ input: fc.array(item, { maxLength: 4 }), output: fc.array(item, { maxLength: 4 }) }, {
      requiredKeys: [],
    }),
  );
  fc.assert(
    fc.property(log, (value) => {
      try {
        const trace = readTrace(JSON.stringify(value), { source: "fuzz.json" });
        assert.ok(trace.events.some((event) => event.type !== "system"), "a trace that reads holds a message");
      } catch (error) {
        assert.ok(error instanceof TraceError, `unexpected ${String(error)}`);
      }
    }),
    { numRuns: 1000 },
  );
});

Deno.test("pab check blocks the hijack in an Anthropic log, and exits 2 on a log that is empty or of no known format", async () => {
  const { checkCommand } = await import("../adapters/cli/commands/check.ts");
  const { memoryIo } = await import("../adapters/cli/io/memory_io.ts");
  const pab = readTrace(await read("traces/examples/hijack.pab.jsonl"));
  const files = {
    "p.yaml": await read("traces/examples/demo.policy.yaml"),
    "anthropic.json": JSON.stringify(anthropicHijack(pab)),
    "responses.json": JSON.stringify(responsesHijack(pab)),
    "empty.json": JSON.stringify({ system: "You are helpful.", messages: [] }),
    "other.json": JSON.stringify({ model: "claude-x", usage: { input_tokens: 3 } }),
  };
  for (const log of ["anthropic.json", "responses.json"]) {
    const memory = memoryIo({ files });
    assert.equal(await checkCommand.run(["--policy", "p.yaml", log], memory.io), 1, log);
    assert.match(memory.stdout(), new RegExp(`BLOCK   ${log.replace(".", "\\.")}#call_send_eve send_email`));
    assert.match(memory.stdout(), /3 calls in 1 trace: 1 allowed, 1 to confirm, 1 blocked\n$/);
  }
  for (
    const [log, pattern] of [["empty.json", /it holds no messages/], ["other.json", /not a trace pab reads/]] as const
  ) {
    const memory = memoryIo({ files });
    assert.equal(await checkCommand.run(["--policy", "p.yaml", log], memory.io), 2, log);
    assert.equal(memory.stdout(), "");
    assert.match(memory.stderr(), pattern);
  }
});
