/**
 * The shapes the Guard's methods take and return.
 *
 * @module
 */
import type { EffectStore, Label, LedgerEvent } from "../core/mod.ts";
import type { Decision, RecoveryStep } from "./decision.ts";
import type { ApproverRule, Ruling } from "./ruling.ts";

/** A tool as the guard runs it: one object of arguments in, a result out. */
export type ToolFunction = (args: Record<string, unknown>) => unknown;

/** Asked when a call needs the user's confirmation. Saying no, or throwing, blocks the call. */
export type ConfirmFunction = (decision: Decision) => boolean | Promise<boolean>;

/** A labeller registered for a cast: the label of data from an unlabelled tool. */
export type CastFunction = (tool: string) => Label;

/** Options fixed when a guard is made. Bad options are rejected at once. */
export interface GuardOptions {
  /** Business rules of the approvers the policy names, by approver name. */
  readonly approvers?: Readonly<Record<string, ApproverRule>>;
  /** Labellers for the casts the policy names, by cast name. */
  readonly casts?: Readonly<Record<string, CastFunction>>;
  /** Asked when a call needs the user's confirmation; without it, `confirm` is a block. */
  readonly confirm?: ConfirmFunction;
  /** Judge calls against the label after their own read (default `true`). `false` exists only to show the difference. */
  readonly prospective?: boolean;
  /** Let protected tools follow recovery plans by themselves (default `true`). */
  readonly recover?: boolean;
  /** How many prerequisite runs a recovery plan may have (default 3). */
  readonly planDepth?: number;
  /** Where ledger effects are reserved and committed (default: in memory). */
  readonly effects?: EffectStore;
  /** Told about every decision, ruling, reservation and effect, as plain JSON, as it happens. */
  readonly onEvent?: (event: LedgerEvent) => void;
}

/** Options for one proposed (or reserved) call. */
export interface ProposeOptions {
  /** Runs the tool; defaults to the function registered with `Guard.protect`. */
  readonly run?: ToolFunction;
  /** Accept that the branch's label becomes stricter (default `false`). */
  readonly accept?: boolean;
  /** Rulings for this exact call. */
  readonly rulings?: readonly Ruling[];
  /** Overrides the guard's confirm callback for this call. */
  readonly confirm?: ConfirmFunction;
}

/** What happened to a proposed call. */
export type ProposeResult =
  /** The tool ran; `value` is its result. */
  | { readonly status: "done"; readonly value: unknown; readonly decision: Decision }
  /** Gaps remain; `decision.recovery` says how to get to yes. */
  | { readonly status: "blocked"; readonly decision: Decision }
  /** Allowed, but the branch's label would become stricter: propose again with `accept`, or read in a child branch. */
  | { readonly status: "needs_accept"; readonly decision: Decision; readonly options: readonly RecoveryStep[] };

/** A call allowed and dispatched: its ledger effects are reserved until `Guard.complete`. */
export interface Reservation {
  /** A unique id, such as `main#call-3`. */
  readonly id: string;
  /** The tool. */
  readonly tool: string;
  /** The fingerprint of the exact call. */
  readonly fingerprint: string;
  /** The effect keys the call writes when it completes. */
  readonly effects: readonly string[];
}

/** What `Guard.reserve` says. */
export type ReserveResult =
  /** The caller now runs the tool, then calls `Guard.complete`. */
  | { readonly status: "reserved"; readonly decision: Decision; readonly reservation: Reservation }
  /** Gaps remain (or another call holds one of its effects); `decision.recovery` says how to get to yes. */
  | { readonly status: "blocked"; readonly decision: Decision }
  /** Allowed, but the branch's label would become stricter. */
  | { readonly status: "needs_accept"; readonly decision: Decision; readonly options: readonly RecoveryStep[] };

/** How a reserved call ended: its output (and the label of what really came back), or its error text. */
export type CompleteResult = { readonly output: unknown; readonly label?: Label } | { readonly error: string };

/** Options for `Guard.protect`. */
export interface ProtectOptions {
  /** The tool's name in the policy (defaults to the function's name). */
  readonly name?: string;
  /** Asked when a call needs confirmation (defaults to the guard's). */
  readonly confirm?: ConfirmFunction;
  /** Accept stricter labels without asking (default `true`). */
  readonly accept?: boolean;
}
