/**
 * pab's error tree. Every error carries a stable `code`; tests assert code and
 * message together. Programmer mistakes (a wrong argument type) are plain
 * `TypeError`s instead.
 *
 * @module
 */

/** The base of every error pab raises on purpose. */
export class PabError extends Error {
  /** A stable, machine-readable code such as `ERR_POLICY_INVALID`. */
  readonly code: string;

  /** Make an error with a stable code. */
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "PabError";
    this.code = code;
  }
}

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
 * import { PolicyError } from "./errors.ts";
 * const error = new PolicyError("policy.yaml", [{ path: "tools.x.alow", message: 'unknown key "alow"', hint: 'did you mean "allow"?' }]);
 * console.log(error.code); // "ERR_POLICY_INVALID"
 * ```
 */
export class PolicyError extends PabError {
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

/** A trace (a recorded conversation) could not be read. */
export class TraceError extends PabError {
  /** Make a trace error. */
  constructor(message: string, options?: ErrorOptions) {
    super("ERR_TRACE_INVALID", message, options);
    this.name = "TraceError";
  }
}

/** An answer leaving a child branch did not fit the schema fixed before the branch read anything. */
export class SchemaError extends PabError {
  /** Make a schema error. */
  constructor(message: string) {
    super("ERR_SCHEMA_MISMATCH", message);
    this.name = "SchemaError";
  }
}

/** A ruling was refused, forged, already spent or presented for another call. */
export class RulingError extends PabError {
  /** Make a ruling error. */
  constructor(message: string) {
    super("ERR_RULING_REFUSED", message);
    this.name = "RulingError";
  }
}
