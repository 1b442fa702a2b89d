/**
 * The command hook on a store whose lock another process keeps: it answers
 * exit 2 at the store's deadline and the process ends then, instead of
 * waiting (past `--timeout-ms` and Claude Code's own timeout, which without
 * `"onFailure": "block"` lets the call run) until the lock is let go.
 */
import assert from "node:assert/strict";
import { ROOT } from "./_serve_fixtures.ts";
import { holdLock } from "./_store_lock.ts";

Deno.test("pab hook claude-code exits 2 at the store's deadline when another process keeps the store locked", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_hook_lock_" });
  await Deno.writeTextFile(`${dir}/policy.yaml`, "version: 1\ntools:\n  Read: { output: trusted }\n");
  const store = `${dir}/hooks.kv`;
  const hook = (payload: unknown) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-kv", "--allow-read", `--allow-write=${dir}`, "cli.ts", "hook", "claude-code"]
        .concat(["--policy", `${dir}/policy.yaml`, "--store", store]),
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    writer.write(new TextEncoder().encode(JSON.stringify(payload))).then(() => writer.close());
    return child.output();
  };
  const pre = {
    session_id: "s1",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: "toolu_1",
  };
  assert.equal((await hook({ ...pre, hook_event_name: "UserPromptSubmit", prompt: "list files" })).code, 0);
  const lock = await holdLock(store, 40_000);
  try {
    const started = performance.now();
    const output = await hook(pre);
    const took = performance.now() - started;
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 2, stderr);
    assert.equal(new TextDecoder().decode(output.stdout), "");
    assert.match(stderr, /^pab could not answer this hook, so it blocks: .*took longer than 10000 ms/);
    // The store's deadline (10 s) and a process start: well before Claude Code's 30 s, and the lock's 40 s.
    assert.ok(took < 16_000, `the hook ended after ${Math.round(took)} ms`);
  } finally {
    await lock.release();
    await Deno.remove(dir, { recursive: true });
  }
});
