/**
 * Rulings: one approver's sign-off on one exact call, spent once.
 *
 * @module
 */
import type { PartialLabel } from "../core/partial_label.ts";
import type { Gap, GapCode } from "./gap.ts";

/** A sign-off on one exact call. Only the guard that minted it accepts it, once. */
export interface Ruling {
  /** A unique id, such as `legal#1`. */
  readonly id: string;
  /** The approver who gave it (`user` for a confirmation). */
  readonly approver: string;
  /** The tool of the call it approves. */
  readonly tool: string;
  /** The fingerprint of the one call it approves. */
  readonly fingerprint: string;
  /** The gap kinds it waives. */
  readonly covers: readonly GapCode[];
  /** The branch it was given in; it is valid only there. */
  readonly branch: string;
}

/** What an approver's business rule is asked. */
export interface RulingRequest {
  /** The tool to be called. */
  readonly tool: string;
  /** Its exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The gaps this approver is asked to waive (inside its mandate). */
  readonly gaps: readonly Gap[];
  /** The branch's label now. */
  readonly label: PartialLabel;
  /** The effects already committed to the ledger. */
  readonly effects: readonly string[];
  /** The branch asking. */
  readonly branch: string;
}

/**
 * An approver's business rule, registered in code. Return `true` to approve;
 * `false` or a reason to refuse. It must not have side effects: the recovery
 * planner asks it whether it would approve.
 */
export type ApproverRule = (request: RulingRequest) => boolean | string;
