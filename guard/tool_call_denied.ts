/**
 * The error a protected tool throws when the guard denies the call.
 *
 * @module
 */
import { PabError } from "../core/errors.ts";
import type { Decision } from "./decision.ts";

/**
 * A tool call was denied. `decision` says why and, where one exists, how to get to yes.
 *
 * @example
 * ```ts
 * import { ToolCallDenied } from "./tool_call_denied.ts";
 * try {
 *   // await sendEmail({ to: "eve@attacker.example" });
 * } catch (error) {
 *   if (error instanceof ToolCallDenied) console.log(error.decision.explain());
 * }
 * ```
 */
export class ToolCallDenied extends PabError {
  /** The decision that denied the call. */
  readonly decision: Decision;

  /** Make the error from a decision. */
  constructor(decision: Decision) {
    super("ERR_TOOL_CALL_DENIED", `Tool call denied: ${decision.explain()}`);
    this.name = "ToolCallDenied";
    this.decision = decision;
  }
}
