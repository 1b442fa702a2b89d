// Private: turning shape issues into policy issues with paths and fix hints, and "did you mean" suggestions.
import { closestWord } from "../../core/mod.ts";
import type { PolicyIssue } from "./policy_error.ts";
import { KNOWN_KEYS } from "./_schema.ts";
import type { ShapeIssue } from "./_shape.ts";

export function shapeIssueToPolicyIssues(issue: ShapeIssue, prefix: readonly PropertyKey[]): PolicyIssue[] {
  const fullPath = [...prefix, ...issue.path];
  const path = fullPath.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys!.map((key) => ({
      path: path ? `${path}.${key}` : key,
      message: `unknown key "${key}"`,
      hint: suggest(key, KNOWN_KEYS) ?? "remove it; see the policy reference in README.md",
    }));
  }
  if (issue.code === "invalid_union") {
    // Report the branch that got furthest, so the hint is about what the author meant.
    const branches = issue.errors!.map((branch) =>
      branch.flatMap((inner) => shapeIssueToPolicyIssues(inner, fullPath))
    );
    const best = branches.sort((a, b) => depth(b) - depth(a))[0];
    if (best && depth(best) > path.split(".").length) return best;
    return [{ path, message: `unexpected value ${describe(issue.input)}`, hint: unionHint(path) }];
  }
  if (issue.code === "invalid_value") {
    const values = issue.values!.map((v) => JSON.stringify(v)).join(", ");
    return [{
      path,
      message: issue.input === undefined ? "missing required key" : `invalid value ${describe(issue.input)}`,
      hint: issue.input === undefined
        ? `add "${String(fullPath.at(-1))}" with one of ${values}`
        : `use one of ${values}`,
    }];
  }
  if (issue.code === "invalid_type" && /\.allow\.\d+$/.test(path) && issue.input !== undefined) {
    return [{
      path,
      message: `expected a string, got ${describe(issue.input)}`,
      hint: `quote it, as ${JSON.stringify(String(issue.input))}, so the allowed value keeps its exact text`,
    }];
  }
  if (issue.code === "invalid_type") {
    const expected = String(issue.expected);
    return [{
      path,
      message: issue.input === undefined
        ? "missing required key"
        : `expected ${expected}, got ${describe(issue.input)}`,
      hint: issue.input === undefined
        ? `add "${String(fullPath.at(-1))}"`
        : `write ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected} here`,
    }];
  }
  return [{ path, message: issue.message, hint: "see the policy reference in README.md" }];
}

function depth(issues: PolicyIssue[]): number {
  return Math.max(0, ...issues.map((issue) => issue.path.split(".").length));
}

function unionHint(path: string): string {
  const last = path.split(".").at(-1) ?? "";
  if (last === "output" || path.endsWith("output")) {
    return 'write "trusted", "untrusted", "unlabelled", a label name, {readers, trust} or {catalogue: NAME}';
  }
  if (path.includes(".fields.")) return 'write "bool", {int: {min, max}} or {enum: [...]}';
  if (path.includes(".recipients.")) return "write a group name or {arg: ARGUMENT}";
  return "see the policy reference in README.md";
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text && text.length > 40 ? `${text.slice(0, 37)}...` : String(text);
}

/** The closest known word as a hint, if it is close enough to be a typo. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  const best = closestWord(word, candidates);
  return best === undefined ? undefined : `did you mean "${best}"?`;
}
