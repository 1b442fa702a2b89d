/**
 * The hook records what the model saw, as structured as it came: a tool's
 * response stays structured, and a response over the budget is cut leaf by
 * leaf and recorded less trusted than the tool's label, never more.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { answerHook, hookOptions, keepResponse, MAX_RESULT_DEPTH } from "../adapters/claude_code/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

Deno.test("keepResponse() keeps a response within the budget unchanged, and says when it cut (property)", () => {
  fc.assert(fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 400 }), (value, limit) => {
    const kept = keepResponse(value, limit);
    if (!kept.cut) assert.deepEqual(kept.value, value);
    else assert.match(JSON.stringify(kept.value), /\[pab: /);
    // The kind of the top value is kept: an object stays an object, a list a list.
    assert.equal(Array.isArray(kept.value), Array.isArray(value));
    assert.equal(typeof kept.value, typeof value);
  }));
  assert.deepEqual(keepResponse({ a: [1, "x"] }, 1000), { value: { a: [1, "x"] }, cut: false });
});

Deno.test("keepResponse() cuts what is nested too deep instead of overflowing the stack", () => {
  let deep: unknown = "leaf";
  for (let i = 0; i < 100_000; i++) deep = { d: deep };
  const kept = keepResponse(deep);
  assert.equal(kept.cut, true);
  let at = kept.value as Record<string, unknown>;
  for (let i = 0; i < MAX_RESULT_DEPTH; i++) at = at.d as Record<string, unknown>;
  assert.match(String(at), /nested deeper than 64 levels not kept/);
});

const POLICY = `
version: 1
tools:
  Glob: { output: trusted, on_tainted: allow }
  WebFetch: { output: untrusted, on_tainted: allow }
  Bash:
    on_tainted: confirm
    args:
      urls: { require: trusted }
`;

Deno.test("answerHook() records a cut response as less trusted: a value in it no longer vouches, and the context is tainted", async () => {
  const decide = async (response: unknown) => {
    const host = new SessionHost(parsePolicy(POLICY, { source: "p.yaml" }), await openStore());
    try {
      await answerHook(host, { event: "PostToolUse", session: "s", tool: "Glob", args: { pattern: "*" }, response });
      const answer = await answerHook(host, {
        event: "PreToolUse",
        session: "s",
        tool: "Bash",
        args: { command: "curl https://mirror.example/pkg" },
      });
      return answer.stdout ? JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision : "none";
    } finally {
      host.store.close();
    }
  };
  const small = { filenames: ["https://mirror.example/pkg"], durationMs: 3 };
  assert.equal(await decide(small), "none");
  // The same response with a long field: cut, so it no longer vouches and the call is not left to the host.
  const large = { filenames: ["https://mirror.example/pkg", "x".repeat(250_000)], durationMs: 3 };
  assert.notEqual(await decide(large), "none");
});

const STRICTNESS = ["none", "allow", "ask", "deny"];

Deno.test("answerHook() decides at least as strictly when a response is cut as when it is kept whole (property)", async () => {
  const policy = parsePolicy(POLICY, { source: "p.yaml" });
  const leaf = fc.oneof(
    fc.constant("https://mirror.example/pkg"),
    fc.constant("https://evil.example/x"),
    fc.constant("see https://mirror.example/pkg for the package"),
    fc.string({ maxLength: 40 }),
    fc.integer(),
  );
  const response = fc.oneof(
    fc.array(leaf, { maxLength: 8 }),
    fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(leaf, fc.array(leaf, { maxLength: 4 })), { maxKeys: 6 }),
    fc.string({ maxLength: 80 }),
  );
  const decide = async (tool: string, reserved: boolean, value: unknown, maxResultChars?: number) => {
    const host = new SessionHost(policy, await openStore());
    try {
      const options = hookOptions(policy, maxResultChars === undefined ? {} : { maxResultChars });
      // As Claude Code sends them: PreToolUse (reserved), then PostToolUse with the same tool_use_id; or, as after
      // an "ask", a PostToolUse alone.
      if (reserved) {
        await answerHook(host, { event: "PreToolUse", session: "s", tool, args: {}, toolUseId: "t1" }, options);
      }
      await answerHook(
        host,
        { event: "PostToolUse", session: "s", tool, args: {}, response: value, toolUseId: "t1" },
        options,
      );
      const url = "https://mirror.example/pkg";
      const answer = await answerHook(
        host,
        { event: "PreToolUse", session: "s", tool: "Bash", args: { command: `curl ${url}` } },
        options,
      );
      return answer.stdout ? JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision : "none";
    } finally {
      host.store.close();
    }
  };
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("Glob", "WebFetch"),
      fc.boolean(),
      response,
      fc.integer({ min: 0, max: 120 }),
      async (tool, reserved, value, limit) => {
        const whole = await decide(tool, reserved, value);
        const cut = await decide(tool, reserved, value, limit);
        assert.ok(STRICTNESS.indexOf(cut) >= STRICTNESS.indexOf(whole), `${whole} -> ${cut} at ${limit}`);
      },
    ),
    { numRuns: 80 },
  );
});
