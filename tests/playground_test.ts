import assert from "node:assert/strict";
import fc from "fast-check";
import { playgroundCommand } from "../adapters/cli/commands/playground.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";
import { loadExamples, replayConversation, servePlayground } from "../adapters/playground/mod.ts";
import * as pab from "../mod.ts";

const EXAMPLES = new URL("../traces/examples/", import.meta.url);

Deno.test("replayConversation() decides as pab check does, and a ruling turns a confirm into a run", async () => {
  const examples = await loadExamples(EXAMPLES);
  const example = examples["hijack.pab.jsonl with demo.policy.yaml"];
  assert.ok(example, Object.keys(examples).join(", "));
  assert.equal(Object.keys(examples)[0], "hijack.pab.jsonl with demo.policy.yaml"); // its own policy first
  const before = await replayConversation(pab, example.policy, example.conversation, []);
  assert.equal(before.error, undefined);
  assert.deepEqual(before.calls.map((call) => [call.id, call.outcome, call.canRule]), [
    ["call_read_inbox", "allow", false],
    ["call_send_eve", "block", false],
    ["call_send_alice", "confirm", true],
  ]);
  const after = await replayConversation(pab, example.policy, example.conversation, [
    "call_send_alice",
    "call_send_eve",
  ]);
  assert.deepEqual(after.calls.map((call) => call.outcome), ["allow", "block", "allow"]);
  assert.deepEqual(after.calls[2].waived, ["tainted-context waived by user (ruling user#1)"]);
  assert.match(after.calls[2].status ?? "", /^ran after the ruling/);
  assert.equal(after.calls[1].status, undefined); // no ruling leads to yes: nothing was applied
  assert.ok(after.timeline.some((step) => step.event === "send_email ran after the ruling"));
});

Deno.test("replayConversation() asks a named approver through requestRuling", async () => {
  const policy = `version: 1
approvers:
  manager: {mandate: [approval]}
tools:
  refund: {needs_approval: true}
`;
  const conversation =
    '{"type":"user","content":"Refund 120"}\n{"type":"call","id":"r1","tool":"refund","args":{"amount":120}}';
  const before = await replayConversation(pab, policy, conversation, []);
  assert.equal(before.calls[0].outcome, "block");
  assert.match(before.calls[0].wayToYes ?? "", /ask approver "manager"/);
  const after = await replayConversation(pab, policy, conversation, ["r1"]);
  assert.equal(after.calls[0].outcome, "allow");
  assert.match(after.calls[0].waived?.[0] ?? "", /^approval waived by manager/);
});

Deno.test("replayConversation() reports a bad policy or conversation line with its place", async () => {
  const badPolicy = await replayConversation(pab, "version: 1\ntools:\n  x: {alow: 1}\n", "", []);
  assert.match(badPolicy.error ?? "", /^ERR_POLICY_INVALID: Cannot load policy "policy\.yaml": 1 issue/);
  const badLine = await replayConversation(pab, "version: 1\n", '{"type":"user","content":"hi"}\n{"type":"cal"}', []);
  assert.match(badLine.error ?? "", /^Cannot read the conversation: line 2: unknown event type "cal"/);
  const notJson = await replayConversation(pab, "version: 1\n", "hello", []);
  assert.match(notJson.error ?? "", /^Cannot read the conversation: line 1: /);
});

Deno.test("servePlayground() serves the page, script, style, bundle and examples, and nothing else", async () => {
  const server = servePlayground({
    port: 0,
    bundle: "export const bundled = true;",
    examples: { a: { policy: "p", conversation: "c" } },
  });
  const base = `http://localhost:${server.addr.port}`;
  try {
    for (
      const [path, type] of [["/", "text/html"], ["/app.js", "text/javascript"], ["/style.css", "text/css"], [
        "/pab.min.js",
        "text/javascript",
      ], ["/examples.json", "application/json"]]
    ) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get("content-type") ?? "", new RegExp(`^${type}`), path);
      assert.match(response.headers.get("content-security-policy") ?? "", /default-src 'none'; script-src 'self'/);
      await response.body?.cancel();
    }
    assert.equal(await (await fetch(`${base}/pab.min.js`)).text(), "export const bundled = true;");
    const missing = await fetch(`${base}/../etc/passwd`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    const post = await fetch(`${base}/`, { method: "POST", body: "x" });
    assert.equal(post.status, 405);
    await post.body?.cancel();
  } finally {
    await server.shutdown();
  }
});

Deno.test("pab playground refuses a bad port and a missing bundle with exit 2", async () => {
  const port = memoryIo();
  assert.equal(await playgroundCommand.run(["--port", "99999"], port.io), 2);
  assert.match(port.stderr(), /--port must be a whole number from 0 to 65535, not "99999"/);
  const bundle = memoryIo();
  assert.equal(await playgroundCommand.run(["--port", "0", "--bundle", "/nonexistent/pab.min.js"], bundle.io), 2);
  assert.match(
    bundle.stderr(),
    /Cannot start the playground: cannot read the bundle "\/nonexistent\/pab\.min\.js": no such file or directory; build it with `deno task bundle`, or pass --bundle FILE/,
  );
});

Deno.test("replayConversation() answers any conversation text with decisions or one error, never a throw", async () => {
  const line = fc.oneof(
    fc.string(),
    fc.json(),
    fc.record({
      type: fc.constantFrom("system", "user", "assistant", "call", "result", "cal"),
      id: fc.oneof(fc.constantFrom("c1", "c2"), fc.string()),
      tool: fc.oneof(fc.constantFrom("read_inbox", "send_email"), fc.string()),
      args: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
      content: fc.oneof(fc.string(), fc.jsonValue()),
    }, { requiredKeys: ["type"] }).map((event) => JSON.stringify(event)),
  );
  const policy =
    "version: 1\ntools:\n  read_inbox: {output: untrusted, on_tainted: allow}\n  send_email: {on_tainted: confirm}\n";
  await fc.assert(
    fc.asyncProperty(
      fc.array(line, { maxLength: 8 }),
      fc.array(fc.constantFrom("c1", "c2")),
      async (lines, rulings) => {
        const run = await replayConversation(pab, policy, lines.join("\n"), rulings);
        if (run.error !== undefined) assert.equal(typeof run.error, "string");
        for (const call of run.calls) assert.ok(["allow", "confirm", "block"].includes(call.outcome), call.outcome);
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("replayConversation() reads a JSONC policy", async () => {
  const policy =
    '{ "version": 1, // JSONC\n "tools": { "send_email": { "args": { "to": { "require": "trusted" } } } } }';
  const run = await replayConversation(
    pab,
    policy,
    '{"type":"call","id":"c1","tool":"send_email","args":{"to":"x@y.example"}}',
    [],
  );
  assert.equal(run.error, undefined);
  assert.deepEqual(run.calls.map((call) => call.reasons.map((reason) => reason.code)), [["invented-argument"]]);
});
