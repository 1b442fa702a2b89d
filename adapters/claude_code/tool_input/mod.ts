/**
 * What pab judges of a Claude Code tool call's `tool_input`: `Bash`'s URLs,
 * hosts and paths, read from its shell words, and the file tools' paths
 * matched with the payload's `cwd`. Pure functions, shared by the hook and by
 * `pab check`'s reading of Claude Code transcripts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guardArgs } from "./mod.ts";
 * assert.deepEqual(guardArgs("Bash", { command: "ssh deploy@build.example" }, "/p"), {
 *   command: "ssh deploy@build.example",
 *   urls: [],
 *   hosts: ["build.example"],
 *   paths: [],
 * });
 * ```
 *
 * @module
 */
export { guardArgs } from "./guard_args.ts";
export { type CommandTargets, commandTargets } from "./command_targets.ts";
export { MAX_COMMAND_CHARS, shellCommands, shellWords } from "./shell_words.ts";
export { resolvePath } from "./resolve_path.ts";
