/**
 * The error a policy that cannot load raises.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/** The code a {@linkcode PolicyError} carries. */
export type PolicyErrorCode = "ERR_POLICY_INVALID";

/** Every {@linkcode PolicyErrorCode}, at run time (a closed list). */
export const POLICY_ERROR_CODES: readonly PolicyErrorCode[] = ["ERR_POLICY_INVALID"];

/** One problem found in a policy: where it is, what is wrong and how to fix it. */
export interface PolicyIssue {
  /** Dotted path to the offending key, such as `tools.send_email.args.to.alow`. */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly hint: string;
}

/**
 * A policy failed to parse or validate. `issues` lists every problem found,
 * not just the first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PolicyError } from "./policy_error.ts";
 * const error = new PolicyError("policy.yaml", [{ path: "tools.x.alow", message: 'unknown key "alow"', hint: 'did you mean "allow"?' }]);
 * assert.equal(error.code, "ERR_POLICY_INVALID");
 * assert.equal(error.message, 'Cannot load policy "policy.yaml": 1 issue\n  - at tools.x.alow: unknown key "alow" (did you mean "allow"?)');
 * ```
 */
export class PolicyError extends PabError<PolicyErrorCode> {
  /** Every problem found. */
  readonly issues: readonly PolicyIssue[];
  /** The policy's name (usually its file name). */
  readonly source: string;

  /** Make a policy error from its issues. */
  constructor(source: string, issues: readonly PolicyIssue[]) {
    const count = issues.length === 1 ? "1 issue" : `${issues.length} issues`;
    const lines = issues.map((issue) => `  - at ${issue.path || "(top level)"}: ${issue.message} (${issue.hint})`);
    super("ERR_POLICY_INVALID", `Cannot load policy "${source}": ${count}\n${lines.join("\n")}`);
    this.name = "PolicyError";
    this.issues = Object.freeze([...issues]);
    this.source = source;
  }
}
