/**
 * `pab hook claude-code settings`: print the hooks block of Claude Code's
 * `.claude/settings.json` that runs pab (command or HTTP form), or merge it
 * into a settings file, keeping every other setting and hook.
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type HookForm, hookOptions, hooksBlock, mergeHookSettings } from "../../claude_code/mod.ts";
import { errorText } from "../../../core/mod.ts";
import { IoError, UnsafePathError, UsageError } from "../shell/cli_error.ts";
import { createFileExclusively } from "../io/create_file.ts";
import { fileProblem, type Io } from "../io/io.ts";
import { loadPolicyFile } from "../policy/load_policy.ts";
import type { Command } from "../shell/command.ts";
import { type CommandInput, defineCommand } from "../shell/define_command.ts";
import { policyOption } from "../policy/policy_option.ts";

/**
 * `pab hook claude-code settings`, run with the arguments after `settings`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hookSettingsCommand } from "./hook_settings.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo({ files: { "/p.yaml": "version: 1\ntools: {}\n" } });
 * assert.equal(await hookSettingsCommand.run(["--policy", "/p.yaml", "--http", "http://localhost:4517/v1/hooks/claude-code"], memory.io), 0);
 * assert.equal(JSON.parse(memory.stdout()).hooks.PreToolUse[0].hooks[0].onFailure, "block");
 * ```
 */
export const hookSettingsCommand: Command = defineCommand({
  name: "hook claude-code settings",
  summary: "Print or merge the hooks block of .claude/settings.json",
  description: `Print the "hooks" block of .claude/settings.json that runs pab on
UserPromptSubmit, PreToolUse, PostToolUse and PostToolUseFailure, or merge it
into FILE (every other setting and hook kept; pab's earlier entries replaced).
Both forms fail closed: "onFailure": "block" (Claude Code 2.1.295 or later)
blocks a call when the hook cannot start, times out or fails, and the command
form turns any exit code but 0 and 2 into 2.`,
  options: {
    policy: policyOption("The policy (made an absolute path)"),
    http: {
      type: "string",
      value: "URL",
      description: `Use pab serve's endpoint (such as
http://localhost:4517/v1/hooks/claude-code) instead of a process per hook`,
    },
    "token-env": { type: "string", value: "VAR", description: 'With --http: send "Authorization: Bearer $VAR"' },
    store: { type: "string", value: "PATH|URL", description: "The command hook's store" },
    "allow-tools": { type: "string", value: "LIST", description: "The command hook's --allow-tools" },
    merge: {
      type: "string",
      value: "FILE",
      description: `Merge into FILE (such as .claude/settings.json) instead of printing;
links are refused, the file is replaced whole`,
    },
  },
  exitCodes: "0 printed or merged; 2 bad usage, a policy that does not load or a file that cannot be merged.",
  run: (input, io) => printSettings(input, io),
});

async function printSettings(input: CommandInput, io: Io): Promise<number> {
  const values = {
    policy: input.string("policy")!,
    http: input.string("http"),
    "token-env": input.string("token-env"),
    store: input.string("store"),
    "allow-tools": input.string("allow-tools"),
    merge: input.string("merge"),
  };
  const policyPath = resolve(values.policy);
  const policy = await loadPolicyFile(policyPath, io);
  const allowTools = typeof values["allow-tools"] === "string" ? values["allow-tools"] : undefined;
  try {
    hookOptions(policy, { allowTools: allowTools?.split(",").map((tool) => tool.trim()) ?? [] });
  } catch (error) {
    throw new UsageError(`option --allow-tools: ${errorText(error)}`, "hook");
  }
  const form = typeof values.http === "string"
    ? httpForm(values.http, values["token-env"], values.store, allowTools)
    : commandForm(policyPath, values.store, allowTools, values["token-env"]);
  const block = hooksBlock(form);
  if (typeof values.merge !== "string") {
    await io.stdout.write(`${JSON.stringify({ hooks: block }, null, 2)}\n`);
    return 0;
  }
  await mergeInto(values.merge, block, io);
  return 0;
}

function httpForm(url: string, tokenEnv: unknown, store: unknown, allowTools: unknown): HookForm {
  if (store !== undefined || allowTools !== undefined) {
    throw new UsageError("--store and --allow-tools belong to the command hook; pass them to pab serve's side", "hook");
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`option --http must be a URL, not "${url}"`, "hook");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UsageError(`option --http must be an http(s) URL, not "${url}"`, "hook");
  }
  if (tokenEnv !== undefined && (typeof tokenEnv !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv))) {
    throw new UsageError(`option --token-env must be an environment variable's name, not "${tokenEnv}"`, "hook");
  }
  return { kind: "http", url: parsed.href, ...(typeof tokenEnv === "string" ? { tokenVariable: tokenEnv } : {}) };
}

function commandForm(policy: string, store: unknown, allowTools: unknown, tokenEnv: unknown): HookForm {
  if (tokenEnv !== undefined) throw new UsageError("--token-env belongs to --http", "hook");
  const storePath = typeof store === "string" ? store : "/tmp/pab/hooks.kv";
  const remote = /^https?:\/\//i.test(storePath);
  const runtime = Deno.execPath();
  const words = basename(runtime).startsWith("deno")
    ? [
      runtime,
      "run",
      "--unstable-kv",
      "--allow-read",
      ...(remote
        ? [`--allow-net=${new URL(storePath).host}`, "--allow-env=DENO_KV_ACCESS_TOKEN"]
        : [`--allow-write=${dirname(resolve(storePath))}`]),
      fileURLToPath(new URL("../../../cli.ts", import.meta.url)),
    ]
    : [runtime];
  words.push("hook", "claude-code", "--policy", policy);
  if (typeof store === "string") words.push("--store", remote ? storePath : resolve(storePath));
  if (typeof allowTools === "string") words.push("--allow-tools", allowTools);
  return { kind: "command", command: words.map(shellQuote).join(" ") };
}

/** A word for a POSIX shell: as is when it is plain, else in single quotes. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Merge into the settings file at `path`: never through a link, and replaced whole (a new file renamed over it). */
async function mergeInto(path: string, block: ReturnType<typeof hooksBlock>, io: Io): Promise<void> {
  const absolute = resolve(path);
  let existing: unknown;
  try {
    const info = await Deno.lstat(absolute).catch((error) => {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    });
    if (info?.isSymlink) {
      throw new UnsafePathError(
        `Cannot merge into "${path}": it is a symbolic link, and pab does not write through links`,
      );
    }
    if (info && !info.isFile) throw new IoError(`Cannot merge into "${path}": it is not a regular file`);
    if (info) existing = parseSettings(await io.readTextFile(absolute), path);
  } catch (error) {
    if (error instanceof UnsafePathError || error instanceof IoError || error instanceof UsageError) throw error;
    throw new IoError(`Cannot read "${path}": ${fileProblem(error)} (check the path and --allow-read)`);
  }
  let merged;
  try {
    merged = mergeHookSettings(existing, block);
  } catch (error) {
    throw new UsageError(
      `${errorText(error)} in "${path}" (fix it by hand, or merge the printed block yourself)`,
      "hook",
    );
  }
  const temporary = `${absolute}.pab-${crypto.randomUUID()}.tmp`;
  try {
    await createFileExclusively(temporary, `${JSON.stringify(merged, null, 2)}\n`);
    await Deno.rename(temporary, absolute);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    if (error instanceof UnsafePathError) throw error;
    throw new IoError(
      `Cannot write "${path}": ${
        fileProblem(error)
      } (run with --allow-write for its folder, or print the block and paste it)`,
    );
  }
  await io.stderr.write(`pab: merged pab's hooks into "${path}"\n`);
}

function parseSettings(text: string, path: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new UsageError(
      `"${path}" is not JSON (${errorText(error)}); fix it first, pab does not overwrite it`,
      "hook",
    );
  }
}
