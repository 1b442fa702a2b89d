/**
 * The error a protected tool throws when the guard denies the call.
 *
 * @module
 */
import { PabError } from "../core/mod.ts";
import type { Decision } from "./decision.ts";
import { explainDecision } from "./explain_decision.ts";
import type { GuardErrorCode } from "./guard_errors.ts";

/**
 * A tool call was denied. `decision` says why and, where one exists, how to get to yes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ToolCallDenied } from "./tool_call_denied.ts";
 * import { makeDecision } from "./decision.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const label = knownLabel(makeLabel(["public"], "trusted"));
 * const decision = makeDecision({
 *   tool: "send_email", args: {}, fingerprint: "f", branch: "main", waived: [], notes: [], evidence: [],
 *   labelBefore: label, labelAfter: label, gaps: [{ code: "approval", severity: "block", message: "needs a ruling" }],
 * });
 * const error = new ToolCallDenied(decision);
 * assert.equal(error.code, "ERR_TOOL_CALL_DENIED");
 * assert.equal(error.message, "Tool call denied: send_email: block\n- [approval] needs a ruling");
 * ```
 */
export class ToolCallDenied extends PabError<GuardErrorCode> {
  /** The decision that denied the call. */
  readonly decision: Decision;

  /** Make the error from a decision. */
  constructor(decision: Decision) {
    super("ERR_TOOL_CALL_DENIED", `Tool call denied: ${explainDecision(decision)}`);
    this.name = "ToolCallDenied";
    this.decision = decision;
  }
}
