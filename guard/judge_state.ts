/**
 * What Gate 1 reads (a branch's state as plain data) and what it finds.
 *
 * @module
 */
import type { Cast, PartialLabel, Trust } from "../core/mod.ts";
import type { Evidence, Gap, Note } from "./gap.ts";
import type { Policy } from "./policy/mod.ts";
import type { Source } from "./source.ts";

/** The changes a user stated: the numbers in their words (amounts' numbers too), at most `STATED_LIMIT` (`derived_value.ts`). */
export interface StatedChanges {
  /** The numbers, each once, in the order the user wrote them. */
  readonly numbers: readonly number[];
}

/** Everything Gate 1 reads: the policy and one branch's state. */
export interface JudgeState {
  /** The policy. */
  readonly policy: Policy;
  /** Casts for unlabelled tools, by tool name. */
  readonly casts: Readonly<Record<string, Cast>>;
  /** Judge against the label after the call's read (true) or before it (reactive, for comparison only). */
  readonly prospective: boolean;
  /** The branch's running label. */
  readonly label: PartialLabel;
  /** Names of the untrusted sources the branch has read. */
  readonly tainters: readonly string[];
  /** Effect keys committed to the ledger. */
  readonly effects: ReadonlySet<string>;
  /**
   * The sources that contain a value (the guard names at most a few). With `atLeast`, when some source at least that
   * trusted contains the value, it may name only those: a vouched value needs no other names.
   */
  readonly evidence: (value: string, atLeast?: Trust) => readonly Source[];
  /** The changes the user stated in their own words, for values computed in one step from them (none when absent). */
  readonly stated?: StatedChanges;
}

/** Gate 1's full findings for one call. */
export interface Judgement {
  /** The label the branch would have after the call's read. */
  readonly future: PartialLabel;
  /** Every gap, in a stable order. */
  readonly gaps: readonly Gap[];
  /** Remarks that do not block. */
  readonly notes: readonly Note[];
  /** Why each checked argument value that passed did so. */
  readonly evidence: readonly Evidence[];
}
