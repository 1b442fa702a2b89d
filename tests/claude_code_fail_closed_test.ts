/**
 * The Claude Code hook fails closed: whatever goes wrong inside (a store
 * Deno KV would panic on, a corrupted store, a store that never answers, a
 * thrown error), `PreToolUse` is answered with exit 2 or `deny`, never the
 * silent exit 1 that Claude Code lets a call through on; the same over the
 * HTTP hook, whose failures are answered 200 with a deny.
 */
import assert from "node:assert/strict";
import { answerHook, claudeCodeRoute, hooksBlock } from "../adapters/claude_code/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { MemoryStore, type PabStore } from "../adapters/store/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { ROOT } from "./_serve_fixtures.ts";

const POLICY = "version: 1\ntools:\n  Read: { output: trusted, on_tainted: allow }\n";
const PRE = {
  session_id: "s1",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/work/project",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "toolu_1",
};

async function runHook(
  dir: string,
  store: string,
  payload: unknown,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--unstable-kv",
      "--allow-read",
      "--allow-write=/tmp",
      "--allow-net=localhost",
      "--allow-env",
      "cli.ts",
      "hook",
      "claude-code",
      "--policy",
      `${dir}/policy.yaml`,
      "--store",
      store,
      ...extra,
    ],
    cwd: ROOT,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(payload)));
  await writer.close();
  const output = await child.output();
  const text = new TextDecoder();
  return { code: output.code, stdout: text.decode(output.stdout), stderr: text.decode(output.stderr) };
}

async function folder(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "pab_hook_fault_" });
  await Deno.writeTextFile(`${dir}/policy.yaml`, POLICY);
  return dir;
}

Deno.test("pab hook claude-code exits 2 when the store's -shm file cannot be written (Deno KV would panic with exit 1)", async () => {
  const dir = await folder();
  try {
    await Deno.mkdir(`${dir}/hooks.kv-shm`);
    const result = await runHook(dir, `${dir}/hooks.kv`, PRE);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stdout, "");
    assert.match(
      result.stderr,
      /pab could not answer this hook, so it blocks: Cannot open store ".*hooks\.kv": ".*hooks\.kv-shm" is unusable: it is not a regular file/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab hook claude-code exits 2 when the store is a symbolic link or a corrupted file", async () => {
  const dir = await folder();
  try {
    await Deno.writeFile(`${dir}/corrupt.kv`, crypto.getRandomValues(new Uint8Array(8192)));
    const corrupt = await runHook(dir, `${dir}/corrupt.kv`, PRE);
    assert.equal(corrupt.code, 2, corrupt.stderr);
    assert.match(corrupt.stderr, /^pab could not answer this hook, so it blocks: Cannot open store/);
    await new Deno.Command("ln", { args: ["-s", `${dir}/elsewhere.kv`, `${dir}/linked.kv`] }).output();
    const linked = await runHook(dir, `${dir}/linked.kv`, PRE);
    assert.equal(linked.code, 2, linked.stderr);
    assert.match(linked.stderr, /it is a symbolic link/);
    await assert.rejects(Deno.lstat(`${dir}/elsewhere.kv`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab hook claude-code exits 2 when the store does not answer in time", async () => {
  const dir = await folder();
  // A server that accepts connections and never answers: a remote KV that hangs.
  const listener = Deno.listen({ hostname: "localhost", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })();
  try {
    const started = performance.now();
    const result = await runHook(dir, `http://localhost:${listener.addr.port}`, PRE, ["--timeout-ms", "1500"]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /pab could not answer this hook, so it blocks: (no answer within 1500 ms|Cannot open (the )?store)/,
    );
    assert.ok(performance.now() - started < 20_000);
  } finally {
    listener.close();
    for (const conn of held) conn.close();
    await accepting.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

/** A store whose every call throws once `fault.on` is set, as a store with an I/O fault would. */
function brokenStore(fault: { on: boolean }): PabStore {
  const real = new MemoryStore();
  return new Proxy(real, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function" || key === "close") return value;
      return (...args: unknown[]) => {
        if (fault.on) throw new TypeError("injected I/O fault");
        return value.apply(target, args);
      };
    },
  });
}

Deno.test("answerHook() blocks every event when the store throws, and the HTTP route answers 200 with a deny", async () => {
  const fault = { on: false };
  const host = new SessionHost(parsePolicy(POLICY, { source: "p.yaml" }), brokenStore(fault));
  fault.on = true;
  const blocked = {
    stdout: "",
    exitCode: 2,
    stderr: "pab could not answer this hook, so it blocks: injected I/O fault\n",
  };
  assert.deepEqual(await answerHook(host, { event: "PreToolUse", session: "s", tool: "Bash", args: {} }), blocked);
  assert.deepEqual(await answerHook(host, { event: "UserPromptSubmit", session: "s", prompt: "hi" }), blocked);
  assert.deepEqual(
    await answerHook(host, { event: "PostToolUse", session: "s", tool: "Read", args: {}, response: "x" }),
    blocked,
  );
  const route = claudeCodeRoute(host);
  assert.deepEqual(await route(PRE), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "pab could not answer this hook, so it blocks: injected I/O fault",
    },
  });
  assert.deepEqual(await route({ ...PRE, hook_event_name: "PostToolUse", tool_response: "x" }), {
    decision: "block",
    reason: "pab could not answer this hook, so it blocks: injected I/O fault",
  });
  // A body that is not a hook payload at all is answered as a PreToolUse would be: deny.
  for (const body of [null, [], "text", { session_id: "s" }, { ...PRE, tool_input: [1] }]) {
    const answer = await route(body) as { hookSpecificOutput?: { permissionDecision: string } };
    assert.equal(answer.hookSpecificOutput?.permissionDecision, "deny", JSON.stringify(body));
  }
});

Deno.test("the printed command hook turns a crash of the runtime (any exit but 0 and 2) into exit 2", async () => {
  for (const [exit, expected] of [[0, 0], [1, 2], [2, 2], [101, 2], [134, 2]]) {
    const { command } = hooksBlock({ kind: "command", command: `sh -c 'exit ${exit}'` }).PreToolUse[0].hooks[0];
    const output = await new Deno.Command("sh", { args: ["-c", command as string] }).output();
    assert.equal(output.code, expected, `exit ${exit}`);
  }
  const http = hooksBlock({ kind: "http", url: "http://localhost:4517/v1/hooks/claude-code" });
  for (const groups of Object.values(http)) assert.equal(groups[0].hooks[0].onFailure, "block");
});
