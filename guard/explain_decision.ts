/**
 * Rendering decisions and recovery plans as the text pab prints.
 *
 * @module
 */
import { canonicalJson } from "../core/mod.ts";
import type { Decision, Recovery, RecoveryStep } from "./decision.ts";
import { quoteValue } from "./quote_value.ts";

/**
 * Render a decision the way pab prints it, one reason per line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { explainDecision } from "./explain_decision.ts";
 * import { makeDecision } from "./decision.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const label = knownLabel(makeLabel(["public"], "trusted"));
 * const decision = makeDecision({
 *   tool: "send_email", args: { to: "eve@attacker.example" }, fingerprint: "f", branch: "main", waived: [],
 *   notes: [], evidence: [], labelBefore: label, labelAfter: label,
 *   gaps: [{ code: "invented-argument", severity: "block", message: "to='eve@attacker.example' appears in no input the model has seen" }],
 *   recovery: { found: false, reason: "no approver's mandate covers [invented-argument]" },
 * });
 * assert.equal(explainDecision(decision), [
 *   "send_email: block",
 *   "- [invented-argument] to='eve@attacker.example' appears in no input the model has seen",
 *   "way to yes: none in this policy: no approver's mandate covers [invented-argument]",
 * ].join("\n"));
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
    const from = item.formula
      ? `is ${item.formula}, from ${item.sources.join(", ")}`
      : `comes from ${item.sources.join(", ")}`;
    lines.push(item.sources.length ? `+ ${shown} ${from}` : `+ ${shown} is on the allow list`);
  }
  for (const note of decision.notes) lines.push(`  note [${note.code}]: ${note.message}`);
  if (decision.recovery) lines.push(formatRecovery(decision.recovery));
  return lines.join("\n");
}

/**
 * One line describing a recovery: the steps of the way to yes, or why there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatRecovery } from "./explain_decision.ts";
 * assert.equal(
 *   formatRecovery({ found: true, steps: [{ kind: "ruling", approver: "manager", covers: ["approval"] }] }),
 *   'way to yes: ask approver "manager" for a ruling on this exact call (covers approval)',
 * );
 * ```
 */
export function formatRecovery(recovery: Recovery): string {
  if (!recovery.found) return `way to yes: none in this policy: ${recovery.reason}`;
  const steps = recovery.steps.map((step, i) => `${recovery.steps.length > 1 ? `${i + 1}. ` : ""}${formatStep(step)}`);
  return `way to yes: ${steps.join("; ")}`;
}

/**
 * Describe one recovery step.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatStep } from "./explain_decision.ts";
 * assert.equal(formatStep({ kind: "fork", schema: "yes_no" }), 'read it in a child branch whose answer leaves through schema "yes_no"');
 * ```
 */
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
