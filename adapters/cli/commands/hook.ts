/**
 * `pab hook claude-code`: answer Claude Code's hooks from pab's guard; with
 * `settings`, print or merge the hooks block of `.claude/settings.json`; with
 * `starter-policy`, print a starter policy for Claude Code's tools.
 *
 * @module
 */
import { answerHook, failed, hookOptions, parseHookInput, STARTER_POLICY } from "../../claude_code/mod.ts";
import { errorText } from "../../../core/mod.ts";
import { SessionHost } from "../../serve/mod.ts";
import { defaultStorePath, openStore } from "../../store/mod.ts";
import { UsageError } from "../shell/cli_error.ts";
import type { Command } from "../shell/command.ts";
import { checkHookStore } from "../hook/hook_store.ts";
import { hookSettingsCommand } from "../hook/hook_settings.ts";
import type { Io } from "../io/io.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import { defineCommand } from "../shell/define_command.ts";
import { policyOption } from "../policy/policy_option.ts";

/** Where hook state lives unless --store says otherwise. */
/** Where the hook keeps its sessions without --store: `hooks.kv` in a folder of the user's own (`defaultStorePath`). */
export const DEFAULT_HOOK_STORE = "/tmp/pab/UID/hooks.kv";

/** How long one hook may take before it blocks (Claude Code's own timeout is longer). */
const DEFAULT_TIMEOUT_MS = 20_000;
const MAX_STDIN = 8 * 1024 * 1024;

/**
 * `pab hook claude-code`: answer one Claude Code hook, read on stdin.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { claudeCodeHookCommand } from "./hook.ts";
 * assert.match(claudeCodeHookCommand.help, /^Usage: pab hook claude-code --policy FILE \[OPTIONS\]\n/);
 * ```
 */
export const claudeCodeHookCommand: Command = defineCommand({
  name: "hook claude-code",
  summary: "Answer a Claude Code hook read on stdin",
  description: `Answer a Claude Code hook: reads the hook's JSON on stdin. UserPromptSubmit
records the user's words (trusted); PostToolUse records the tool's result
under its label; PreToolUse decides: deny (the decision and the way to yes,
for Claude to read), ask (the user confirms), or, when pab has no objection,
no decision, so Claude Code's own permission flow decides as it would
without pab. Each session's state lives in the store, keyed by its session id.
Whatever fails inside pab exits 2 (Claude Code blocks the call).`,
  options: {
    policy: policyOption(),
    store: {
      type: "string",
      value: "PATH|URL",
      description:
        `A Deno KV file (default ${DEFAULT_HOOK_STORE}, in a 0700 folder of the user's own)\nor a remote KV URL`,
    },
    "allow-tools": {
      type: "string",
      value: "LIST",
      description: `Comma-separated tools the policy names for which pab's
"no objection" is answered allow, skipping Claude Code's prompt (default: none)`,
    },
    "timeout-ms": {
      type: "integer",
      default: DEFAULT_TIMEOUT_MS,
      description: "Block when answering takes longer",
    },
  },
  notes: `Other forms:
  pab hook claude-code settings --policy FILE [--http URL] [--merge FILE] ...
      prints the hooks block for .claude/settings.json (see its --help)
  pab hook claude-code starter-policy
      prints a policy for Claude Code's tools to start from

Permissions: --unstable-kv --allow-read --allow-write=/tmp/pab (or the store's
folder).`,
  exitCodes: "0 answered (the decision, if any, on stdout); 2 pab failed or bad usage (Claude Code blocks the call).",
  run: (input, io) => {
    // Claude Code reads the decision on stdout: silenced, a deny would read as no objection.
    if (input.flag("quiet")) {
      throw new UsageError("--quiet would hide the decision from Claude Code: leave it out", "hook");
    }
    return failClosed(io, input.integer("timeout-ms") ?? DEFAULT_TIMEOUT_MS, () =>
      answer(io, {
        policy: input.string("policy")!,
        ...(input.string("store") === undefined ? {} : { store: input.string("store") }),
        allowTools: input.string("allow-tools")?.split(",") ?? [],
      }));
  },
});

/**
 * The `pab hook` command: names the agent, then runs its form.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hookCommand } from "./hook.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * assert.equal(hookCommand.name, "hook");
 * await assert.rejects(hookCommand.run(["cursor"], memoryIo().io), /unknown agent "cursor" \(use claude-code\)/);
 * ```
 */
export const hookCommand: Command = {
  name: "hook",
  summary: "Answer Claude Code hooks (pab hook claude-code)",
  get help() {
    return claudeCodeHookCommand.help;
  },
  async run(args, io) {
    if (args[0] === "claude-code") {
      if (args[1] === "settings") return await hookSettingsCommand.run(args.slice(2), io);
      if (args[1] === "starter-policy" && args.length === 2) {
        await io.stdout.write(STARTER_POLICY);
        return 0;
      }
      return await claudeCodeHookCommand.run(args.slice(1), io);
    }
    if (args.length === 1 && (args[0] === "--help" || args[0] === "-h")) {
      await io.stdout.write(claudeCodeHookCommand.help);
      return 0;
    }
    const agent = args[0]?.startsWith("-") ? undefined : args[0];
    throw new UsageError(
      agent === undefined ? "name the agent: pab hook claude-code" : `unknown agent "${agent}" (use claude-code)`,
      "hook",
    );
  },
};

async function answer(
  io: Io,
  options: { readonly policy: string; readonly store?: string; readonly allowTools: readonly string[] },
): Promise<number> {
  const input = parseHookInput(await readStdin());
  const policy = await loadPolicyFile(options.policy, io);
  let checked;
  try {
    checked = hookOptions(policy, { allowTools: options.allowTools.map((tool) => tool.trim()) });
  } catch (error) {
    throw new UsageError(`option --allow-tools: ${errorText(error)}`, "hook");
  }
  // Without --store: a folder only this user may enter, never a file in a folder everyone shares.
  const location = options.store ?? await defaultStorePath("hooks.kv");
  await checkHookStore(location);
  const store = await openStore(location);
  try {
    const answer = await answerHook(new SessionHost(policy, store), input, checked);
    if (answer.stdout) await io.stdout.write(answer.stdout);
    if (answer.stderr) await io.stderr.write(answer.stderr);
    return answer.exitCode;
  } finally {
    store.close();
  }
}

/**
 * Run `task` so that nothing it does ends in an exit code Claude Code lets a
 * call through on: a thrown error, an unhandled rejection or an uncaught error
 * elsewhere, and a task slower than `timeoutMs` all exit 2 with the problem on
 * stderr. (A crash of the runtime itself is covered by the settings: `|| exit 2`
 * and `"onFailure": "block"`.)
 */
async function failClosed(io: Io, timeoutMs: number, task: () => Promise<number>): Promise<number> {
  const stray = (event: Event) => {
    event.preventDefault();
    const error = event instanceof PromiseRejectionEvent ? event.reason : (event as ErrorEvent).error;
    Deno.stderr.writeSync(new TextEncoder().encode(failed(errorText(error)).stderr));
    Deno.exit(2);
  };
  globalThis.addEventListener("unhandledrejection", stray);
  globalThis.addEventListener("error", stray);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let code: number;
  try {
    const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), timeoutMs));
    const answered = await Promise.race([task(), late]);
    if (answered === "late") {
      // The store may still hold a call open: leave at once.
      Deno.stderr.writeSync(new TextEncoder().encode(failed(`no answer within ${timeoutMs} ms`).stderr));
      Deno.exit(2);
    }
    code = answered;
  } catch (error) {
    await io.stderr.write(failed(errorText(error)).stderr);
    code = 2;
  } finally {
    clearTimeout(timer);
    globalThis.removeEventListener("unhandledrejection", stray);
    globalThis.removeEventListener("error", stray);
  }
  leaveOnceAnswered(code);
  return code;
}

/** How long the process may take to end by itself once its answer is written. */
const EXIT_GRACE_MS = 100;

/**
 * The answer is written: end the process with `code` even if a store call is
 * still pending. A call that missed its deadline keeps running in Deno KV's
 * thread (SQLite waiting for a lock another process holds), and would keep
 * the process, and Claude Code, waiting until that lock is let go: past
 * `--timeout-ms`, and past Claude Code's own timeout, which without
 * `"onFailure": "block"` lets the call run. The timer does not keep the
 * process alive itself, so a process with nothing pending ends at once.
 */
function leaveOnceAnswered(code: number): void {
  Deno.unrefTimer(setTimeout(() => Deno.exit(code), EXIT_GRACE_MS));
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.byteLength;
    if (size > MAX_STDIN) throw new UsageError(`the hook input on stdin is over ${MAX_STDIN} bytes`, "hook");
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
