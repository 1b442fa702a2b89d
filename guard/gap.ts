/**
 * Gaps: everything that stands between one exact call and a yes.
 *
 * @module
 */

/** The kinds of gap a decision can report. Approver mandates name these. */
export type GapCode =
  | "untrusted-argument"
  | "invented-argument"
  | "not-allowed"
  | "tainted-context"
  | "recipient"
  | "trust"
  | "prior"
  | "no-prior"
  | "approval"
  | "unlabelled"
  | "guard-error";

/** Every gap code, in the order explanations list them. */
export const GAP_CODES: readonly GapCode[] = Object.freeze([
  "untrusted-argument",
  "invented-argument",
  "not-allowed",
  "tainted-context",
  "recipient",
  "trust",
  "prior",
  "no-prior",
  "approval",
  "unlabelled",
  "guard-error",
]);

/** Gap codes an approver's mandate may name (`guard-error` can never be waived). */
export const WAIVABLE_GAP_CODES: readonly GapCode[] = Object.freeze(GAP_CODES.filter((code) => code !== "guard-error"));

/**
 * How a gap may be cleared: `confirm` gaps can be waived by the user's
 * confirmation (a ruling from the user); `block` gaps only by an approver
 * whose mandate names the gap's code, or by changing the situation.
 */
export type Severity = "confirm" | "block";

/** One reason a call is not allowed outright. */
export interface Gap {
  /** What kind of gap this is. */
  readonly code: GapCode;
  /** Whether the user's confirmation is enough to waive it. */
  readonly severity: Severity;
  /** A sentence naming the rule, the argument, the value and the source. */
  readonly message: string;
  /** The argument concerned, if any (a dotted path for nested values). */
  readonly argument?: string;
  /** The offending value, if any. */
  readonly value?: string;
  /** The sources involved, such as `tool:read_inbox`. */
  readonly sources?: readonly string[];
  /** For `recipient` gaps: the group that may not read the data. */
  readonly group?: string;
  /** For `trust` gaps: the least trust the call needs. */
  readonly trust?: "attested" | "trusted";
  /** For `prior` / `no-prior` gaps: the ledger effect. */
  readonly effect?: string;
}

/** Why a checked argument value passed: the sources that vouched for it, or its allow list. */
export interface Evidence {
  /** The argument (a dotted path for nested values). */
  readonly argument: string;
  /** The value. */
  readonly value: string;
  /** The vouching sources, such as `user` or `tool:get_contacts`; empty when the allow list passed it. */
  readonly sources: readonly string[];
}

/** A remark that does not block, such as weak evidence. */
export interface Note {
  /**
   * `weak-evidence`, `unknown-tool`, `cast` (a cast settled an unlabelled
   * source), `ruling-ignored` (a ruling for another call, already spent, or
   * not minted by this branch) or `user-declined` (the confirm callback said
   * no or threw).
   */
  readonly code: "weak-evidence" | "unknown-tool" | "cast" | "ruling-ignored" | "user-declined";
  /** What to know and what to do about it. */
  readonly message: string;
}

/** Whether a string names a gap code. */
export function isGapCode(value: unknown): value is GapCode {
  return typeof value === "string" && (GAP_CODES as readonly string[]).includes(value);
}
