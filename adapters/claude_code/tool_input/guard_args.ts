/**
 * The arguments pab judges for a Claude Code tool call: `tool_input` as it
 * came, plus what a policy needs to check separately. `Bash` gets `urls`,
 * `hosts` and `paths` from its command's shell words; the file tools get
 * `path`, their file resolved with the payload's `cwd`.
 *
 * @module
 */
import { commandTargets } from "./command_targets.ts";
import { resolvePath } from "./resolve_path.ts";

/** Claude Code's file tools and the argument that names their file. */
const FILE_ARGUMENT: Readonly<Record<string, string>> = {
  Read: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  Write: "file_path",
  NotebookEdit: "notebook_path",
  Glob: "path",
  Grep: "path",
  LS: "path",
};

/**
 * The arguments to judge for `tool` with `args` (Claude Code's `tool_input`), run in `cwd`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { guardArgs } from "./guard_args.ts";
 * assert.deepEqual(guardArgs("Bash", { command: "curl https://a.example/x -o out/x" }, "/p"), {
 *   command: "curl https://a.example/x -o out/x",
 *   urls: ["https://a.example/x"],
 *   hosts: [],
 *   paths: ["out/x"],
 * });
 * assert.deepEqual(guardArgs("Edit", { file_path: "/p/src/a.ts" }, "/p"), { file_path: "/p/src/a.ts", path: "src/a.ts" });
 * ```
 */
export function guardArgs(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  cwd: string | undefined,
): Readonly<Record<string, unknown>> {
  if (tool === "Bash" && typeof args.command === "string") {
    const { urls, hosts, paths } = commandTargets(args.command, cwd);
    return { ...args, urls, hosts, paths };
  }
  const name = Object.hasOwn(FILE_ARGUMENT, tool) ? FILE_ARGUMENT[tool] : undefined;
  if (name !== undefined && typeof args[name] === "string") {
    return { ...args, path: resolvePath(args[name] as string, cwd) };
  }
  return args;
}
