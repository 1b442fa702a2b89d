/**
 * The round trip of `pab hook claude-code` as Claude Code runs it: a new
 * process per hook, the payload on stdin, state in a Deno KV file. Measures
 * the first call of a new session on a new store ("cold") and later calls
 * ("warm"), next to the floor of starting the runtime at all.
 *
 * Run: `deno run --unstable-kv --allow-net=localhost --allow-run --allow-read --allow-write=/tmp --allow-env adapters/claude_code/bench_hook.ts [--calls 10] [--http-only]`
 * (the HTTP hook is timed over 20 times as many calls).
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

/** Timings of events through `pab serve`'s HTTP hook endpoint, in milliseconds. */
export interface HttpHookBenchResult {
  /** Events timed: a PreToolUse and a PostToolUse (with about 3 KB of output) per call. */
  readonly events: number;
  /** Median over every event. */
  readonly p50Ms: number;
  /** 99th percentile over every event. */
  readonly p99Ms: number;
  /** Median of the PreToolUse events alone. */
  readonly preP50Ms: number;
  /** Median of the PostToolUse events alone. */
  readonly postP50Ms: number;
}

/**
 * Time `calls` tool calls (a PreToolUse and a PostToolUse each, as Claude
 * Code sends them) through `pab serve`'s HTTP hook endpoint (a Claude Code
 * `http` hook), with a Deno KV file store, each event timed end to end (the
 * HTTP request from a client in this process to the answer's last byte).
 *
 * @example
 * ```ts ignore
 * import { benchHookHttp } from "./bench_hook.ts";
 * const result = await benchHookHttp(5);
 * ```
 */
export async function benchHookHttp(calls: number): Promise<HttpHookBenchResult> {
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
      const text = await response.text();
      if (!response.ok) throw new Error(`The hook failed: ${text}`);
      return performance.now() - started;
    };
    const session = { session_id: "bench", transcript_path: "/tmp/t.jsonl", cwd: "/tmp" };
    await post({ ...session, hook_event_name: "UserPromptSubmit", prompt: "run ls -la and read the notes" });
    const pre: number[] = [];
    const postTimes: number[] = [];
    const output = "notes line with some words in it\n".repeat(96);
    for (let i = 0; i < calls; i++) {
      const call = {
        ...session,
        tool_name: "Read",
        tool_input: { file_path: `/tmp/notes${i}.md` },
        tool_use_id: `toolu_${i}`,
      };
      pre.push(await post({ ...call, hook_event_name: "PreToolUse" }));
      postTimes.push(
        await post({
          ...call,
          hook_event_name: "PostToolUse",
          tool_response: { type: "text", file: { content: output } },
        }),
      );
    }
    const all = [...pre, ...postTimes];
    return {
      events: all.length,
      p50Ms: quantile(all, 0.5),
      p99Ms: quantile(all, 0.99),
      preP50Ms: quantile(pre, 0.5),
      postP50Ms: quantile(postTimes, 0.5),
    };
  } finally {
    await server.shutdown();
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

function quantile(times: readonly number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] * 10) / 10;
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
  console.log(JSON.stringify({ route: "pab serve, http hook", ...(await benchHookHttp(calls * 20)) }));
  if (!Deno.args.includes("--http-only")) {
    const runtimes = [[Deno.execPath()], ["npx", "-y", "deno@2.9.6"]];
    for (const runtime of runtimes) console.log(JSON.stringify(await benchHook(runtime, calls)));
  }
}
