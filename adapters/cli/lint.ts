/**
 * `pab lint POLICY...`: check policy files and report every issue at once.
 *
 * @module
 */
import type { Command } from "./command.ts";
import { defineCommand } from "./define_command.ts";
import { escapeControl } from "./escape_text.ts";
import { type LintIssue, lintPolicyText } from "./lint_policy.ts";
import { readPolicyText } from "./load_policy.ts";
import { DEFAULT_MAX_BYTES, expandInputs } from "./read_input.ts";
import { errorText, policyIssuesText } from "./report_error.ts";
import { PabError } from "../../core/mod.ts";

/**
 * `pab lint`: parse each policy file and report everything wrong with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lintCommand } from "./lint.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({ files: { "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n" } });
 * assert.equal(await lintCommand.run(["p.yaml"], memory.io), 0);
 * assert.equal(memory.stdout(), "ok: p.yaml (1 tool)\n");
 * ```
 */
export const lintCommand: Command = defineCommand({
  name: "lint",
  summary: "Check policy files and report every problem with its path and a hint",
  description: `Check policy files: parse and validate each one, and report every problem with
where it is and how to fix it, syntax, schema and semantic issues in one pass.
The format comes from the extension: .yaml or .yml for YAML, .json or .jsonc
for JSONC. POLICY may be "-" (standard input: JSONC if it starts with "{",
else YAML), a folder (every policy file under it) or a quoted glob.

Prints "ok: FILE (N tools)" on stdout for each valid policy, and each invalid
policy's problems on stderr:

  error: Cannot load policy "email.yaml": 1 issue
    - at tools.send_email.args.to.alow: unknown key "alow" (did you mean "allow"?)`,
  options: {
    json: {
      type: "boolean",
      description: 'Print {"schemaVersion":1,"policies":[{"file","ok","tools","issues":\n' +
        '[{"kind":"syntax|schema|semantic|io","path","message","hint"}]}]} on stdout',
    },
    "max-bytes": {
      type: "integer",
      value: "N",
      default: DEFAULT_MAX_BYTES,
      description: "Refuse a policy larger than N bytes",
    },
  },
  arguments: { name: "POLICY", min: 1, max: Infinity, missing: "name at least one policy file" },
  exitCodes: "0 every policy is valid; 2 a policy is invalid or unreadable, or bad usage.",
  async run(input, io) {
    const paths = await expandInputs(input.positionals, io, "policies", [".yaml", ".yml", ".json", ".jsonc"]);
    const results: { file: string; ok: boolean; tools: number | null; issues: IssueJson[] }[] = [];
    for (const path of paths) {
      try {
        const text = await readPolicyText(path, io, input.integer("max-bytes"));
        const { policy, issues } = lintPolicyText(text.text, { source: path, format: text.format });
        const tools = policy ? Object.keys(policy.tools).length : null;
        results.push({ file: path, ok: issues.length === 0, tools, issues: [...issues] });
      } catch (error) {
        if (!isReadError(error)) throw error;
        results.push({
          file: path,
          ok: false,
          tools: null,
          issues: [{ kind: "io", path: "", message: errorText(error), hint: "" }],
        });
      }
    }
    if (input.flag("json")) {
      await io.stdout.write(`${JSON.stringify({ schemaVersion: 1, policies: results }, null, 2)}\n`);
    } else {
      for (const result of results) {
        if (result.ok) {
          await io.stdout.write(
            `ok: ${escapeControl(result.file)} (${result.tools} ${result.tools === 1 ? "tool" : "tools"})\n`,
          );
        } else if (result.issues[0]?.kind === "io") {
          await io.stderr.write(`error: ${result.issues[0].message}\n`);
        } else {
          await io.stderr.write(`error: ${policyIssuesText(result.file, result.issues)}\n`);
        }
      }
    }
    return results.every((result) => result.ok) ? 0 : 2;
  },
});

type IssueJson = LintIssue | { kind: "io"; path: string; message: string; hint: string };

/** A policy that cannot be read is reported with the others; anything else stops lint. */
function isReadError(error: unknown): boolean {
  return error instanceof PabError && ["ERR_CLI_IO", "ERR_CLI_ENCODING", "ERR_CLI_TOO_LARGE"].includes(error.code);
}
