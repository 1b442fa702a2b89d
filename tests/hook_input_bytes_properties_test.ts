/**
 * The hook reads the bytes Claude Code writes, not a repaired text: stdin
 * that is not UTF-8 fails `ERR_HOOK_INPUT` (read with U+FFFD in place of its
 * bad bytes, pab would judge another command than the one the tool gets),
 * well-formed UTF-8 reads as its text does; and a call that cannot be named
 * (no `tool_use_id`, arguments nested past the stack) fails with a coded
 * reason instead of a bare stack overflow.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { answerHook, parseHookInput, readHookInput } from "../adapters/claude_code/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { MemoryStore, openStore } from "../adapters/store/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { ROOT } from "./_serve_fixtures.ts";

const encoder = new TextEncoder();

const payload = fc.record({
  session_id: fc.string({ minLength: 1, maxLength: 20 }),
  hook_event_name: fc.constant("PreToolUse"),
  tool_name: fc.constantFrom("Bash", "Read", "mcp__srv__tool"),
  tool_input: fc.dictionary(fc.string({ unit: "grapheme", maxLength: 8 }), fc.string({ unit: "grapheme" })),
});

/** A byte that cannot stand where it is put in UTF-8: a stray continuation, a never-used byte, an overlong lead. */
const badByte = fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xfe, 0xff);

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

Deno.test("parseHookInput() reads UTF-8 bytes as their text, and refuses any bytes that are not UTF-8 with ERR_HOOK_INPUT", () => {
  fc.assert(
    fc.property(payload, fc.nat(), badByte, (value, at, bad) => {
      const text = JSON.stringify(value);
      assert.deepEqual(parseHookInput(encoder.encode(text)), parseHookInput(text));
      const bytes = encoder.encode(text);
      const place = at % (bytes.length + 1);
      const broken = new Uint8Array([...bytes.slice(0, place), bad, ...bytes.slice(place)]);
      fc.pre(!isUtf8(broken));
      assert.throws(() => parseHookInput(broken), { code: "ERR_HOOK_INPUT", message: /stdin is not UTF-8 text$/ });
    }),
  );
});

Deno.test("pab hook claude-code exits 2 on stdin that is not UTF-8, before anything is stored", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_hook_bytes_" });
  try {
    await Deno.writeTextFile(
      `${dir}/policy.yaml`,
      "version: 1\ntools:\n  Bash: { args: { command: { require: trusted } } }\n",
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-kv", "--allow-read", `--allow-write=${dir}`, "cli.ts", "hook", "claude-code"]
        .concat(["--policy", `${dir}/policy.yaml`, "--store", `${dir}/hooks.kv`]),
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    const text =
      '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls \xff"}}';
    await writer.write(Uint8Array.from(text, (char) => char.charCodeAt(0)));
    await writer.close();
    const output = await child.output();
    assert.equal(output.code, 2);
    assert.equal(new TextDecoder().decode(output.stdout), "");
    assert.equal(
      new TextDecoder().decode(output.stderr),
      "pab could not answer this hook, so it blocks: Cannot read the Claude Code hook input: stdin is not UTF-8 text\n",
    );
    await assert.rejects(Deno.lstat(`${dir}/hooks.kv`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("answerHook() blocks a call with no tool_use_id whose arguments cannot be fingerprinted, with a coded reason", async () => {
  const host = new SessionHost(
    parsePolicy("version: 1\ntools:\n  Read: { output: trusted }\n", { source: "p.yaml" }),
    new MemoryStore(),
  );
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  const call = { session: "s", tool: "Read", args: { a: deep } };
  for (const event of ["PreToolUse", "PostToolUse"] as const) {
    const answer = await answerHook(
      host,
      event === "PreToolUse" ? { event, ...call } : { event, ...call, response: "x" },
    );
    assert.equal(answer.exitCode, 2, event);
    assert.match(
      answer.stderr,
      /Cannot read the Claude Code hook input: "tool_input" cannot be fingerprinted \(.*\) and there is no "tool_use_id"/,
    );
  }
  // With its id, the call is named without a fingerprint, and the guard blocks what it cannot copy.
  const named = await answerHook(host, { event: "PreToolUse", ...call, toolUseId: "toolu_1" });
  assert.equal(JSON.parse(named.stdout).hookSpecificOutput.permissionDecision, "deny");
});

Deno.test("readHookInput() refuses a tool_use_id too long for a store key, and one at the limit is reserved and finished", async () => {
  const pre = { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Deploy", tool_input: {} };
  assert.throws(() => readHookInput({ ...pre, tool_use_id: "t".repeat(201) }), {
    code: "ERR_HOOK_INPUT",
    message: /"tool_use_id" must be a string of at most 200 characters$/,
  });
  const dir = await Deno.makeTempDir({ prefix: "pab_hook_bytes_" });
  const store = await openStore(`${dir}/hooks.kv`);
  try {
    const policy = parsePolicy("version: 1\ntools:\n  Deploy: { output: trusted, once: deploy.done }\n", {
      source: "p.yaml",
    });
    const host = new SessionHost(policy, store);
    // Three UTF-8 bytes per character: the longest keys the store writes for a session and a call.
    const longest = { ...pre, session_id: "\u4e00".repeat(200), tool_use_id: "\u4e00".repeat(200) };
    assert.deepEqual(await answerHook(host, readHookInput(longest)), { stdout: "", exitCode: 0, stderr: "" });
    const post = { ...longest, hook_event_name: "PostToolUse", tool_response: "deployed" };
    assert.deepEqual(await answerHook(host, readHookInput(post)), { stdout: "", exitCode: 0, stderr: "" });
    assert.deepEqual(await store.openReservations(`cc_${longest.session_id}`), []);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
