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
  /** Those of them the user wrote as a percentage (`19.5%`): only these scale a base. */
  readonly percents?: readonly number[];
}

/** A quantity found in a source the user designated. */
export interface Quantity {
  /** The number (an amount's number). */
  readonly value: number;
  /** Whether it was written as a percentage somewhere (`5%`). */
  readonly percent: boolean;
}

/** The quantities in the sources the user designated that are below trusted (see `delegated_value.ts`). */
export interface DelegatedQuantities {
  /** The distinct quantities, in the order read, at most `DELEGATED_LIMIT`: exactly one is delegated. */
  readonly values: readonly Quantity[];
  /** The names of the designated sources that held them. */
  readonly sources: readonly string[];
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
  /** The quantities in the sources the user designated, for values delegated to them (none when absent). */
  readonly delegated?: DelegatedQuantities;
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
