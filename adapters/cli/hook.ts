/**
 * `pab hook claude-code`: answer Claude Code's hooks from pab's guard.
 *
 * @module
 */
import { answerHook, parseHookInput } from "../claude_code/mod.ts";
import { SessionHost } from "../serve/mod.ts";
import { openStore } from "../store/mod.ts";
import { UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import { loadPolicyFile } from "./load_policy.ts";
import { parseArgs } from "./parse_args.ts";

/** Where hook state lives unless --store says otherwise. */
export const DEFAULT_HOOK_STORE = "/tmp/pab/hooks.kv";

const MAX_STDIN = 8 * 1024 * 1024;

const HELP = `Usage: pab hook claude-code --policy FILE [--store PATH|URL]

Answer a Claude Code hook: reads the hook's JSON on stdin. UserPromptSubmit
records the user's words (trusted); PostToolUse records the tool's result
under its label; PreToolUse decides and prints allow, deny (the decision and
the way to yes, for Claude to read) or ask (the user confirms). Each session's
state lives in the store, keyed by its session id.

Options:
  -p, --policy FILE     The policy (.yaml, .yml, .json or .jsonc)
      --store PATH|URL  A Deno KV file (default ${DEFAULT_HOOK_STORE}) or a remote KV URL

Permissions: --unstable-kv --allow-read --allow-write=/tmp/pab (or the store's
folder).
`;

/**
 * The `pab hook` command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hookCommand } from "./hook.ts";
 * assert.equal(hookCommand.name, "hook");
 * ```
 */
export const hookCommand: Command = {
  name: "hook",
  summary: "Answer Claude Code hooks (pab hook claude-code)",
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseArgs(args, {
      policy: { type: "string", short: "p" },
      store: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, "hook");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (positionals[0] !== "claude-code" || positionals.length > 1) {
      throw new UsageError(
        positionals[0] === undefined
          ? "name the agent: pab hook claude-code"
          : `unknown agent "${positionals[0]}" (use claude-code)`,
        "hook",
      );
    }
    if (typeof values.policy !== "string") throw new UsageError("missing --policy FILE", "hook");
    const input = parseHookInput(await readStdin());
    const policy = await loadPolicyFile(values.policy, io);
    const store = await openStore(typeof values.store === "string" ? values.store : DEFAULT_HOOK_STORE);
    try {
      const answer = await answerHook(new SessionHost(policy, store), input);
      if (answer.stdout) await io.stdout.write(answer.stdout);
      if (answer.stderr) await io.stderr.write(answer.stderr);
      return answer.exitCode;
    } finally {
      store.close();
    }
  },
};

async function readStdin(): Promise<string> {
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
  return new TextDecoder().decode(bytes);
}
