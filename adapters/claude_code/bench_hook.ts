/**
 * The round trip of `pab hook claude-code` as Claude Code runs it: a new
 * process per hook, the payload on stdin, state in a Deno KV file. Measures
 * the first call of a new session on a new store ("cold") and later calls
 * ("warm"), next to the floor of starting the runtime at all.
 *
 * Run: `deno run --unstable-kv --allow-net=localhost --allow-run --allow-read --allow-write=/tmp --allow-env adapters/claude_code/bench_hook.ts [--calls 10]`
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parsePolicy } from "../../guard/policy/text/mod.ts";
import { SessionHost, startServer } from "../serve/mod.ts";
import { openStore } from "../store/mod.ts";
import { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "./hook_route.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const POLICY = `
version: 1
tools:
  Read: { output: trusted, on_tainted: allow }
  Bash:
    on_tainted: confirm
    args:
      command: { require: trusted }
`;

/** Timings of hook round trips, in milliseconds. */
export interface HookBenchResult {
  /** The command that runs Deno. */
  readonly runtime: string;
  /** Starting the runtime with an empty program. */
  readonly floorMs: number;
  /** The first hook, with an empty Deno cache, a new store and a new session. */
  readonly coldMs: number;
  /** Median of the later PreToolUse calls. */
  readonly warmP50Ms: number;
  /** Slowest of the later PreToolUse calls. */
  readonly warmMaxMs: number;
}

/**
 * Time `calls` hook round trips with the runtime `deno` (a path, or a command and its first words such as `npx -y deno@2.9.6`).
 *
 * @example
 * ```ts ignore
 * import { benchHook } from "./bench_hook.ts";
 * const result = await benchHook([Deno.execPath()], 3);
 * ```
 */
export async function benchHook(deno: readonly string[], calls: number): Promise<HookBenchResult> {
  const dir = await Deno.makeTempDir({ prefix: "pab_hook_bench_" });
  try {
    await Deno.writeTextFile(`${dir}/policy.yaml`, POLICY);
    const floorMs = await timed(deno, ["eval", "0"], "", {});
    const env = { DENO_DIR: `${dir}/deno_dir` };
    const hook = [
      "run",
      "--unstable-kv",
      "--allow-read",
      "--allow-write=/tmp",
      `${ROOT}cli.ts`,
      "hook",
      "claude-code",
      "--policy",
      `${dir}/policy.yaml`,
      "--store",
      `${dir}/hooks.kv`,
    ];
    const session = { session_id: "bench", transcript_path: "/tmp/t.jsonl", cwd: "/tmp" };
    const coldMs = await timed(
      deno,
      hook,
      JSON.stringify({ ...session, hook_event_name: "UserPromptSubmit", prompt: "run ls -la" }),
      env,
    );
    const warm: number[] = [];
    for (let i = 0; i < calls; i++) {
      const payload = {
        ...session,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "ls -la" },
        tool_use_id: `toolu_${i}`,
      };
      warm.push(await timed(deno, hook, JSON.stringify(payload), env));
    }
    warm.sort((a, b) => a - b);
    return {
      runtime: deno.join(" "),
      floorMs,
      coldMs,
      warmP50Ms: warm[Math.floor(warm.length / 2)],
      warmMaxMs: warm[warm.length - 1],
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Time `calls` PreToolUse round trips through `pab serve`'s http hook endpoint
 * (a Claude Code `http` hook), with a Deno KV file store; median and slowest.
 *
 * @example
 * ```ts ignore
 * import { benchHookHttp } from "./bench_hook.ts";
 * const result = await benchHookHttp(5);
 * ```
 */
export async function benchHookHttp(calls: number): Promise<{ readonly p50Ms: number; readonly maxMs: number }> {
  const dir = await Deno.makeTempDir({ prefix: "pab_hook_bench_" });
  const store = await openStore(`${dir}/hooks.kv`);
  const host = new SessionHost(parsePolicy(POLICY, { source: "bench.yaml" }), store);
  const server = startServer(host, {
    version: "bench",
    port: 0,
    routes: { [CLAUDE_CODE_HOOK_PATH]: claudeCodeRoute(host) },
  });
  try {
    const post = async (body: unknown) => {
      const started = performance.now();
      const response = await fetch(`${server.url}${CLAUDE_CODE_HOOK_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`The hook failed: ${await response.text()}`);
      await response.body?.cancel();
      return performance.now() - started;
    };
    const session = { session_id: "bench", transcript_path: "/tmp/t.jsonl", cwd: "/tmp" };
    await post({ ...session, hook_event_name: "UserPromptSubmit", prompt: "run ls -la" });
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      times.push(
        await post({ ...session, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la" } }),
      );
    }
    times.sort((a, b) => a - b);
    return {
      p50Ms: Math.round(times[Math.floor(times.length / 2)] * 10) / 10,
      maxMs: Math.round(times.at(-1)! * 10) / 10,
    };
  } finally {
    await server.shutdown();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function timed(
  deno: readonly string[],
  args: string[],
  stdin: string,
  env: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(deno[0], {
    args: [...deno.slice(1), ...args],
    cwd: ROOT,
    env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const output = await child.output();
  if (output.code !== 0) throw new Error(`The hook failed: ${new TextDecoder().decode(output.stderr)}`);
  return Math.round(performance.now() - started);
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--calls");
  const calls = at >= 0 ? Number(Deno.args[at + 1]) : 10;
  const runtimes = [[Deno.execPath()], ["npx", "-y", "deno@2.9.6"]];
  for (const runtime of runtimes) console.log(JSON.stringify(await benchHook(runtime, calls)));
  console.log(JSON.stringify({ runtime: "pab serve, http hook", ...(await benchHookHttp(calls)) }));
}
