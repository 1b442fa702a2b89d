/**
 * Rulings: one approver's sign-off on one exact call, bound to the gaps and
 * the branch label it was shown with, spent once.
 *
 * @module
 */
import type { PartialLabel } from "../core/mod.ts";
import type { Gap, GapCode } from "./gap.ts";

/**
 * A sign-off on one exact call. Only the branch that minted it accepts it,
 * once, and only while the call, the gaps it was shown and the branch's
 * label are all unchanged.
 */
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
  /** The identities (see `gapKey`) of the exact gaps it was shown; it waives only these. */
  readonly gaps: readonly string[];
  /** The branch's label when it was given, as canonical JSON; it is void under any other label. */
  readonly label: string;
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
