/**
 * `pab lint POLICY...`: check policy files.
 *
 * @module
 */
import { PolicyError } from "../../mod.ts";
import { IoError, UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import type { Io } from "./io.ts";
import { loadPolicyFile } from "./load_policy.ts";
import { parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";

const HELP = `Usage: pab lint POLICY...

Check policy files: parse and validate each one, and report every problem with
where it is and how to fix it. The format comes from the extension: .yaml or
.yml for YAML, .json or .jsonc for JSONC.

Prints "ok: FILE (N tools)" on stdout for each valid policy, and each invalid
policy's problems on stderr:

  error: Cannot load policy "email.yaml": 1 issue
    - at tools.send_email.args.to.alow: unknown key "alow" (did you mean "allow"?)

Options:
  -h, --help  Show this help

Exit codes: 0 every policy is valid; 2 a policy is invalid or unreadable, or bad usage.
`;

/**
 * `pab lint`: parse each policy file and report what is wrong with it.
 *
 * @example
 * ```ts
 * import { lintCommand } from "./lint.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({ files: { "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n" } });
 * console.log(await lintCommand.run(["p.yaml"], memory.io), memory.stdout()); // 0 "ok: p.yaml (1 tool)\n"
 * ```
 */
export const lintCommand: Command = {
  name: "lint",
  summary: "Check policy files and report every problem with its path and a hint",
  help: HELP,
  run: lint,
};

async function lint(args: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs(args, { help: { type: "boolean", short: "h" } }, "lint");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (!positionals.length) throw new UsageError("name at least one policy file", "lint");
    let failed = false;
    for (const path of positionals) {
      try {
        const policy = await loadPolicyFile(path, io);
        const count = Object.keys(policy.tools).length;
        await io.stdout.write(`ok: ${path} (${count} ${count === 1 ? "tool" : "tools"})\n`);
      } catch (error) {
        if (!(error instanceof PolicyError || error instanceof IoError)) throw error;
        failed = true;
        await io.stderr.write(`error: ${error.message}\n`);
      }
    }
    return failed ? 2 : 0;
  } catch (error) {
    return await reportError(error, io);
  }
}
