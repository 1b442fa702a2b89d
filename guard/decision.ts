/**
 * Decisions: what the guard says about one exact call, and why.
 *
 * A decision is plain, JSON-serialisable data; `explain()` renders it.
 *
 * @module
 */
import type { PartialLabel } from "../core/partial_label.ts";
import { canonicalJson } from "../core/canonical_json.ts";
import type { Evidence, Gap, GapCode, Note } from "./gap.ts";
import { quoteValue } from "./quote_value.ts";

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

/** The guard's verdict on one exact call. */
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
  /** Render the decision as text, one reason per line. */
  explain(): string;
}

/** Build a decision; `explain` is attached as a non-enumerable method so JSON stays plain data. */
export function makeDecision(data: Omit<Decision, "outcome" | "explain">): Decision {
  const outcome: Outcome = data.gaps.some((gap) => gap.severity === "block")
    ? "block"
    : data.gaps.length
    ? "confirm"
    : "allow";
  const decision = { ...data, outcome } as Decision;
  Object.defineProperty(decision, "explain", { value: () => explainDecision(decision), enumerable: false });
  return Object.freeze(decision);
}

/** A copy of a decision with a recovery plan attached. */
export function withRecovery(decision: Decision, recovery: Recovery): Decision {
  const { explain: _, ...data } = decision;
  return makeDecision({ ...data, recovery });
}

/**
 * Render a decision the way pab prints it:
 *
 * ```text
 * send_email: block
 * - [untrusted-argument] to='eve@attacker.example' appears only in untrusted input from tool:read_inbox
 * - [tainted-context] context contains untrusted input from tool:read_inbox
 * way to yes: none: ...
 * ```
 */
export function explainDecision(decision: Decision): string {
  const lines = [`${decision.tool}: ${decision.outcome}`];
  for (const gap of decision.gaps) lines.push(`- [${gap.code}] ${gap.message}`);
  for (const waiver of decision.waived) {
    lines.push(`- waived [${waiver.code}] by ruling ${waiver.ruling} from ${waiver.approver}`);
  }
  for (const item of decision.evidence) {
    const shown = `${item.argument}=${quoteValue(item.value)}`;
    lines.push(
      item.sources.length ? `+ ${shown} comes from ${item.sources.join(", ")}` : `+ ${shown} is on the allow list`,
    );
  }
  for (const note of decision.notes) lines.push(`  note [${note.code}]: ${note.message}`);
  if (decision.recovery) lines.push(formatRecovery(decision.recovery));
  return lines.join("\n");
}

/** One line describing a recovery: the steps of the way to yes, or why there is none. */
export function formatRecovery(recovery: Recovery): string {
  if (!recovery.found) return `way to yes: none in this policy: ${recovery.reason}`;
  const steps = recovery.steps.map((step, i) => `${recovery.steps.length > 1 ? `${i + 1}. ` : ""}${formatStep(step)}`);
  return `way to yes: ${steps.join("; ")}`;
}

/** Describe one recovery step. */
export function formatStep(step: RecoveryStep): string {
  switch (step.kind) {
    case "ruling":
      return step.approver === "user"
        ? `confirm with the user (covers ${step.covers.join(", ")})`
        : `ask approver "${step.approver}" for a ruling on this exact call (covers ${step.covers.join(", ")})`;
    case "run":
      return `run ${step.tool} ${canonicalJson(step.args)} first (writes ${step.writes.join(", ")})`;
    case "accept":
      return `accept the stricter label ${step.label}`;
    case "fork":
      return `read it in a child branch whose answer leaves through schema "${step.schema}"`;
  }
}
