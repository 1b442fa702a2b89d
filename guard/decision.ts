/**
 * Decisions: what the guard says about one exact call, and why, as plain,
 * JSON-serialisable data. {@linkcode explainDecision} renders one.
 *
 * @module
 */
import type { PartialLabel } from "../core/mod.ts";
import type { Evidence, Gap, GapCode, Note } from "./gap.ts";

/** What the caller should do with the call. */
export type Outcome = "allow" | "confirm" | "block";

/** One step of a way to yes. */
export type RecoveryStep =
  /** Ask an approver (or, for `user`, the user) for a ruling on this exact call. */
  | { readonly kind: "ruling"; readonly approver: string; readonly covers: readonly GapCode[] }
  /** Run a prerequisite tool that writes missing ledger effects. */
  | {
    readonly kind: "run";
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly writes: readonly string[];
  }
  /** Accept that the branch's label becomes stricter. */
  | { readonly kind: "accept"; readonly label: string }
  /** Do this read in a child branch whose answer leaves through a schema. */
  | { readonly kind: "fork"; readonly schema: string };

/** The recovery planner's answer. */
export type Recovery =
  | { readonly found: true; readonly steps: readonly RecoveryStep[] }
  | { readonly found: false; readonly reason: string };

/** A waived gap and who waived it. */
export interface Waiver {
  /** The gap kind waived. */
  readonly code: GapCode;
  /** The approver whose ruling waived it. */
  readonly approver: string;
  /** The ruling's id. */
  readonly ruling: string;
}

/** The guard's verdict on one exact call: plain data, no methods. */
export interface Decision {
  /** The tool. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** sha256 of the canonical JSON of `{tool, args}`. */
  readonly fingerprint: string;
  /** The branch that asked. */
  readonly branch: string;
  /** `allow`, `confirm` (the user may waive the gaps) or `block`. */
  readonly outcome: Outcome;
  /** The gaps still open. */
  readonly gaps: readonly Gap[];
  /** Gaps waived by rulings. */
  readonly waived: readonly Waiver[];
  /** Remarks that do not block. */
  readonly notes: readonly Note[];
  /** Why each checked argument value that passed did so. */
  readonly evidence: readonly Evidence[];
  /** The branch's label before the call. */
  readonly labelBefore: PartialLabel;
  /** The label the branch would have after the call's read. */
  readonly labelAfter: PartialLabel;
  /** The way to yes, when the call is not allowed outright. */
  readonly recovery?: Recovery;
}

/**
 * Build a frozen decision; its outcome follows from its open gaps: any
 * `block` gap blocks, else any gap asks for confirmation, else it is allowed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeDecision } from "./decision.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const label = knownLabel(makeLabel(["public"], "trusted"));
 * const decision = makeDecision({
 *   tool: "post", args: {}, fingerprint: "f", branch: "main", waived: [], notes: [], evidence: [],
 *   labelBefore: label, labelAfter: label,
 *   gaps: [{ code: "tainted-context", severity: "confirm", message: "context contains untrusted input from tool:web" }],
 * });
 * assert.equal(decision.outcome, "confirm");
 * assert.deepEqual(JSON.parse(JSON.stringify(decision)), decision);
 * ```
 */
export function makeDecision(data: Omit<Decision, "outcome">): Decision {
  let outcome: Outcome = "allow";
  for (const gap of data.gaps) {
    outcome = "confirm";
    if (gap.severity === "block") {
      outcome = "block";
      break;
    }
  }
  // The fields in the order given (an `outcome` given keeps its place), then `outcome`, then `recovery` when there is
  // one: a copy field by field, as an object rest pattern is slow in V8.
  const decision: Record<string, unknown> = {};
  const given = data as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(given)) if (key !== "recovery") decision[key] = given[key];
  decision.outcome = outcome;
  if (data.recovery) decision.recovery = data.recovery;
  return Object.freeze(decision) as unknown as Decision;
}
