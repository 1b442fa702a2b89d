/**
 * The readers pab points at a stranger's JSON read an escaped key right after V8's JSON.parse has parsed an object
 * with the same keys before and a key holding a backslash (V8 issue 521080746, nodejs/node#63785): each test poisons
 * JSON.parse first, checks that this engine would misread the text (when it has the bug), then reads it through pab.
 */
import assert from "node:assert/strict";
import { type AuditEvent, linkRecord, linkText, toJsonl, verifyJsonl } from "../adapters/audit/mod.ts";
import { parseHookInput } from "../adapters/claude_code/mod.ts";
import { readLine } from "../adapters/mcp/json_rpc_lines.ts";
import { MemoryStore } from "../adapters/store/mod.ts";

/** Poisons JSON.parse with an object of `before` then a "\\" key; whether JSON.parse now misreads `text`'s `key`. */
function poison(before: string, text: string, find: (value: unknown) => string[], key: string): void {
  const poisonText = `{${JSON.stringify(before)}:0,"\\\\":0}`;
  JSON.parse(poisonText);
  const misread = !find(JSON.parse(text)).includes(key);
  const engineHasBug = (() => {
    JSON.parse('{"k":1,"\\\\":0}');
    return Object.keys(JSON.parse('{"k":1,"\\u0041":2}'))[1] !== "A";
  })();
  assert.equal(misread, engineHasBug, "the text no longer provokes this engine's misread");
  JSON.parse(poisonText);
}

Deno.test("parseHookInput() reads a tool input's escaped key right after JSON.parse has met a backslash key", () => {
  const text = '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash",' +
    '"tool_input":{"command":"ls","\\u0041":"x"}}';
  poison("command", text, (value) => Object.keys((value as { tool_input: object }).tool_input), "A");
  const input = parseHookInput(text);
  assert.ok("args" in input);
  assert.deepEqual(input.args, { command: "ls", A: "x" });
});

Deno.test("readLine() reads an MCP call's escaped argument name right after JSON.parse has met a backslash key", () => {
  const text =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send","arguments":{"to":"a","\\"":"b"}}}';
  const argumentsOf = (value: unknown) => Object.keys((value as { params: { arguments: object } }).params.arguments);
  poison("to", text, argumentsOf, '"');
  const read = readLine(text);
  assert.ok("message" in read);
  assert.deepEqual(argumentsOf(read.message), ["to", '"']);
});

Deno.test("verifyJsonl() verifies a chain whose event has an escaped key, after JSON.parse has met a backslash key", () => {
  const event: AuditEvent = { kind: "message", at: "2026-12-01T10:00:00.000Z", detail: { a: 1, "\udfff": 2 } };
  const jsonl = toJsonl([linkRecord("s", undefined, event)]);
  const detailKeys = (value: unknown) => Object.keys((value as { event: { detail: object } }).event.detail);
  poison("a", jsonl.trim(), detailKeys, "\udfff");
  assert.equal(verifyJsonl(jsonl).ok, true);
});

Deno.test("MemoryStore returns an audit record's escaped key as written, after JSON.parse has met a backslash key", async () => {
  const store = new MemoryStore();
  const event: AuditEvent = { kind: "message", at: "2026-12-01T10:00:00.000Z", detail: { a: 1, "\ud800": 2 } };
  const text = linkText("s", undefined, event).text;
  poison("a", text, (value) => Object.keys((value as { event: { detail: object } }).event.detail), "\ud800");
  const [record] = await store.appendAuditEvents("s", [event]);
  assert.deepEqual(Object.keys(record.event.detail as object), ["a", "\ud800"]);
});
