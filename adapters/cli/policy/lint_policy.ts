/**
 * Every problem of a policy in one pass: syntax, schema and semantic issues
 * together, even when the schema check fails.
 *
 * @module
 */
import { load } from "npm:js-yaml@5.5.0";
import { parse as parseJsonc } from "npm:jsonc-parser@3.3.1";
import { compilePolicy, type Policy } from "../../../guard/mod.ts";
import { parsePolicy, type PolicyFormat } from "../../../guard/policy/text/mod.ts";
import { lineOfPath } from "./policy_line.ts";

/**
 * One problem found in a policy, with its kind.
 *
 * @example
 * ```ts
 * import type { LintIssue } from "./lint_policy.ts";
 * const issue: LintIssue = { kind: "schema", path: "tools.x.alow", message: 'unknown key "alow"', hint: 'did you mean "allow"?' };
 * ```
 */
export interface LintIssue {
  /** `syntax` (the YAML or JSONC does not parse), `schema` (a key or value the format does not have) or `semantic` (names that do not resolve, rules that contradict). */
  readonly kind: "syntax" | "schema" | "semantic";
  /** Where: a dotted path, or `line L, column C` for syntax. */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
  /** The 1-based line of the path in the policy's text, when the text has it (not for syntax issues). */
  readonly line?: number;
}

/**
 * What linting one policy found: the policy when it is valid, else every issue.
 *
 * @example
 * ```ts
 * import type { LintResult } from "./lint_policy.ts";
 * const result: LintResult = { issues: [] };
 * ```
 */
export interface LintResult {
  /** The compiled policy, when there is no issue. */
  readonly policy?: Policy;
  /** Every issue found, schema and semantic alike. */
  readonly issues: readonly LintIssue[];
}

const MAX_PASSES = 8;
const SCHEMA_MESSAGE = /^(unknown key|invalid value|expected |missing required key|unexpected value)/;

/**
 * Lint a policy's text. The policy layer stops at schema issues, so when
 * there are some, this removes the offending keys from the parsed document
 * and compiles the rest again, up to 8 times, to collect the semantic issues
 * the schema issues would hide (an issue at or above a removed key is left
 * out: the removal may have caused it). Each issue carries the line of its
 * path in the text when the text has it. Issues are classified by their wording
 * (schema issues are about unknown keys, invalid values and missing keys).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lintPolicyText } from "./lint_policy.ts";
 * const result = lintPolicyText(
 *   "version: 1\nreaders: {groups: [corp]}\ntools:\n  a: {on_taint: confirm}\n  b: {recipients: [nowhere]}\n",
 *   { source: "p.yaml", format: "yaml" },
 * );
 * assert.deepEqual(result.issues.map((issue) => issue.kind), ["schema", "semantic", "semantic"]);
 * ```
 */
export function lintPolicyText(text: string, options: { source: string; format: PolicyFormat }): LintResult {
  const result = collectIssues(text, options);
  if (!result.issues.length) return result;
  return {
    issues: result.issues.map((issue) => {
      if (issue.kind === "syntax") return issue;
      const line = lineOfPath(text, options.format, issue.path);
      return line === undefined ? issue : { ...issue, line };
    }),
  };
}

function collectIssues(text: string, options: { source: string; format: PolicyFormat }): LintResult {
  let first: readonly LintIssue[];
  try {
    return { policy: parsePolicy(text, options), issues: [] };
  } catch (error) {
    const issues = issuesOf(error);
    if (!issues) throw error;
    first = issues.map(classify);
  }
  if (first.some((issue) => issue.kind === "syntax")) return { issues: first };
  let raw: unknown;
  try {
    raw = options.format === "jsonc" ? parseJsonc(text, [], { allowTrailingComma: true }) : load(text);
  } catch {
    return { issues: first };
  }
  const all = [...first];
  const seen = new Set(all.map(key));
  let pending = first;
  const pruned: string[] = [];
  for (let pass = 1; pass < MAX_PASSES && pending.length; pass++) {
    // Deepest and highest-numbered paths first, so removing an array item does not shift the next one.
    const paths = pending.map((issue) => issue.path).sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
    for (const path of paths) prune(raw, path);
    pruned.push(...paths);
    let found: readonly LintIssue[] = [];
    try {
      compilePolicy(raw, options.source);
    } catch (error) {
      found = (issuesOf(error) ?? []).map(classify);
    }
    // An issue at or above a removed key may be caused by the removal itself (a rule left empty): not reported.
    pending = found.filter((issue) =>
      !seen.has(key(issue)) && !pruned.some((path) => path === issue.path || path.startsWith(`${issue.path}.`))
    );
    for (const issue of pending) {
      seen.add(key(issue));
      all.push(issue);
    }
  }
  return { issues: all };
}

function issuesOf(error: unknown): readonly { path: string; message: string; hint: string }[] | undefined {
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  return Array.isArray(issues) ? issues : undefined;
}

function classify(issue: { path: string; message: string; hint: string }): LintIssue {
  const kind = /^line \d+, column \d+$/.test(issue.path)
    ? "syntax"
    : SCHEMA_MESSAGE.test(issue.message)
    ? "schema"
    : "semantic";
  return { kind, path: issue.path, message: issue.message, hint: issue.hint };
}

function key(issue: LintIssue): string {
  return `${issue.path}\u0000${issue.message}`;
}

/** Remove the value at a dotted path, so the rest can be compiled (nothing when the path does not exist). */
function prune(raw: unknown, path: string): void {
  const parts = path.split(".");
  const last = parts.pop()!;
  let node = raw;
  for (const part of parts) {
    if (!isObject(node) || !Object.hasOwn(node, part)) return;
    node = node[part];
  }
  if (!isObject(node) || !Object.hasOwn(node, last)) return;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
