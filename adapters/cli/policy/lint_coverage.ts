/**
 * `pab lint --tools`: which arguments of the tools that change state no rule
 * of the policy covers.
 *
 * @module
 */
import type { Policy } from "../../../guard/mod.ts";
import { readArgument } from "../draft/draft_arguments.ts";
import { classifyTool } from "../draft/draft_policy.ts";
import type { ToolDefinition } from "../draft/tool_definitions.ts";

/** One argument of a tool that changes state, and how the policy covers it. */
export interface CoveredArgument {
  /** The tool. */
  readonly tool: string;
  /** The argument. */
  readonly argument: string;
  /**
   * `selector` (a `require` rule), `option` (an `allow` list), `content` (an
   * `embedded` rule), or `none`: no rule checks the argument.
   */
  readonly covered: "selector" | "option" | "content" | "none";
  /** For `none`: the class `pab generate` would give it and its rule. */
  readonly suggestion?: string;
}

/**
 * Every argument of every tool in `tools` that changes state, with how
 * `policy` covers it. A tool the policy does not name covers nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { argumentCoverage } from "./lint_coverage.ts";
 * import { compilePolicy } from "../../../guard/mod.ts";
 * const policy = compilePolicy({ version: 1, tools: { send_email: { args: { to: { require: "trusted" } } } } });
 * const rows = argumentCoverage(policy, [{ name: "send_email", parameters: { to: "string", body: "string" } }]);
 * assert.deepEqual(rows.map((row) => [row.argument, row.covered]), [["to", "selector"], ["body", "none"]]);
 * ```
 */
export function argumentCoverage(policy: Policy, tools: readonly ToolDefinition[]): CoveredArgument[] {
  const rows: CoveredArgument[] = [];
  for (const tool of tools) {
    if (classifyTool(tool).readOnly) continue;
    const rules = Object.hasOwn(policy.tools, tool.name) ? policy.tools[tool.name].args : {};
    for (const argument of Object.keys(tool.parameters)) {
      const rule = Object.hasOwn(rules, argument) ? rules[argument] : undefined;
      const covered = rule?.require
        ? "selector"
        : rule?.allow.length
        ? "option"
        : rule?.embedded && rule.embedded !== "off"
        ? "content"
        : "none";
      if (covered !== "none") {
        rows.push({ tool: tool.name, argument, covered });
        continue;
      }
      const reading = readArgument(tool, argument);
      rows.push({ tool: tool.name, argument, covered, suggestion: `${reading.kind}: ${reading.rule}` });
    }
  }
  return rows;
}
