/**
 * `pab lint POLICY...`: check policy files and report every issue at once.
 *
 * @module
 */
import type { Command } from "../shell/command.ts";
import { defineCommand } from "../shell/define_command.ts";
import { escapeControl } from "../io/escape_text.ts";
import { type LintIssue, lintPolicyText } from "../policy/lint_policy.ts";
import { readPolicyText } from "../policy/load_policy.ts";
import { DEFAULT_MAX_BYTES, expandInputs, readInputText } from "../io/read_input.ts";
import { IoError } from "../shell/cli_error.ts";
import type { Io } from "../io/io.ts";
import { argumentCoverage, type CoveredArgument } from "../policy/lint_coverage.ts";
import { readToolDefinitions, type ToolDefinition } from "../draft/tool_definitions.ts";
import { policyIssuesText, reportText } from "../shell/report_error.ts";
import { errorText, PabError } from "../../../core/mod.ts";
import { parseJson } from "../../json/mod.ts";

/**
 * `pab lint`: parse each policy file and report everything wrong with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lintCommand } from "./lint.ts";
 * import { memoryIo } from "../io/memory_io.ts";
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
    - at tools.send_email.args.to.alow (line 7): unknown key "alow" (did you mean "allow"?)

With --tools SOURCE (tool definitions, as pab generate reads them), also
report the coverage of every argument of the tools that change state: a
selector (require), an option (allow), content (embedded), or none, with the
rule pab generate would write for it:

  coverage: email.yaml: 1 of 2 arguments of tools that change state covered
    - send_email.body: no rule (suggested: content: { embedded: trusted })`,
  options: {
    json: {
      type: "boolean",
      description: 'Print {"schemaVersion":1,"policies":[{"file","ok","tools","issues":\n' +
        '[{"kind":"syntax|schema|semantic|io","path","message","hint","line"}],\n' +
        '"coverage":[{"tool","argument","covered":"selector|option|content|none","suggestion"}]}]}\n' +
        "on stdout (coverage with --tools)",
    },
    tools: {
      type: "string",
      value: "SOURCE",
      description: "Tool definitions (MCP tools/list, OpenAI tools, an AgentDojo suite.json):\n" +
        'report which arguments of tools that change state no rule covers ("coverage" in --json)',
    },
    "max-bytes": {
      type: "integer",
      value: "N",
      default: DEFAULT_MAX_BYTES,
      description: "Refuse a policy larger than N bytes",
    },
  },
  arguments: { name: "POLICY", min: 1, max: Infinity, missing: "name at least one policy file" },
  exitCodes: "0 every policy is valid (and, with --tools, covers every argument); 1 an argument of a tool that\n" +
    "changes state has no rule; 2 a policy is invalid or unreadable, or bad usage.",
  async run(input, io) {
    const paths = await expandInputs(input.positionals, io, "policies", [".yaml", ".yml", ".json", ".jsonc"]);
    const toolsSource = input.string("tools");
    const definitions = toolsSource === undefined
      ? undefined
      : await readToolFile(toolsSource, io, input.integer("max-bytes") ?? DEFAULT_MAX_BYTES);
    const results: {
      file: string;
      ok: boolean;
      tools: number | null;
      issues: IssueJson[];
      coverage?: CoveredArgument[];
    }[] = [];
    for (const path of paths) {
      try {
        const text = await readPolicyText(path, io, input.integer("max-bytes"));
        const { policy, issues } = lintPolicyText(text.text, { source: path, format: text.format });
        const tools = policy ? Object.keys(policy.tools).length : null;
        results.push({
          file: path,
          ok: issues.length === 0,
          tools,
          issues: [...issues],
          ...(policy && definitions ? { coverage: argumentCoverage(policy, definitions) } : {}),
        });
      } catch (error) {
        if (!isReadError(error)) throw error;
        results.push({
          file: path,
          ok: false,
          tools: null,
          issues: [{ kind: "io", path: "", message: reportText(error), hint: "" }],
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
          const located = result.issues.map((issue) =>
            "line" in issue && issue.line !== undefined
              ? { ...issue, path: `${issue.path} (line ${issue.line})` }
              : issue
          );
          await io.stderr.write(`error: ${policyIssuesText(result.file, located)}\n`);
        }
        if (result.coverage) await io.stdout.write(coverageText(result.file, result.coverage));
      }
    }
    if (!results.every((result) => result.ok)) return 2;
    return results.some((result) => result.coverage?.some((row) => row.covered === "none")) ? 1 : 0;
  },
});

function coverageText(file: string, rows: readonly CoveredArgument[]): string {
  const missing = rows.filter((row) => row.covered === "none");
  const lines = [
    `coverage: ${escapeControl(file)}: ${rows.length - missing.length} of ${rows.length} arguments of tools ` +
    "that change state covered",
    ...missing.map((row) =>
      `  - ${escapeControl(row.tool)}.${escapeControl(row.argument)}: no rule (suggested: ${
        escapeControl(row.suggestion ?? "")
      })`
    ),
  ];
  return `${lines.join("\n")}\n`;
}

async function readToolFile(path: string, io: Io, maxBytes: number): Promise<ToolDefinition[]> {
  const text = await readInputText(path, io, { what: "tool definition file", maxBytes });
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new IoError(`Cannot read tool definitions from "${path}": it is not JSON (${errorText(error)})`);
  }
  return readToolDefinitions(value, path).tools;
}

type IssueJson = LintIssue | { kind: "io"; path: string; message: string; hint: string };

/** A policy that cannot be read is reported with the others; anything else stops lint. */
function isReadError(error: unknown): boolean {
  return error instanceof PabError && ["ERR_CLI_IO", "ERR_CLI_ENCODING", "ERR_CLI_TOO_LARGE"].includes(error.code);
}
