/**
 * What the HTML pictures show, as plain data: one call's decision, the label
 * over time, one trace. The playground builds these in the browser from live
 * decisions; the reports build them from a replay ({@linkcode traceView}).
 *
 * @module
 */

/** A reason a call is not allowed outright, or a remark. */
export interface ReasonView {
  /** The gap or note kind, such as `untrusted-argument`. */
  readonly code: string;
  /** The sentence naming the rule, the argument, the value and the source. */
  readonly message: string;
}

/** A checked argument value that passed, and what vouched for it. */
export interface VouchView {
  /** The argument's name or path. */
  readonly argument: string;
  /** The value, as the decision quotes it. */
  readonly value: unknown;
  /** The sources that supplied it (empty: the allow list passed it). */
  readonly sources: readonly string[];
}

/** One call and pab's decision. */
export interface CallView {
  /** The call's id in the trace. */
  readonly id: string;
  /** The tool. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Who wanted the call (`user` or `attacker`), when the trace says. */
  readonly actor?: string;
  /** `allow`, `confirm` or `block`. */
  readonly outcome: string;
  /** Why the call is not allowed outright. */
  readonly reasons: readonly ReasonView[];
  /** The vouching sources of each checked value that passed. */
  readonly vouching: readonly VouchView[];
  /** Remarks that did not change the decision. */
  readonly notes: readonly ReasonView[];
  /** The way to yes, as `formatRecovery` words it, when the call is not allowed outright. */
  readonly wayToYes?: string;
  /** Gaps waived by rulings, as sentences (`untrusted-argument waived by user (ruling r1)`). */
  readonly waived?: readonly string[];
  /** What happened after rulings were applied (`ran after the ruling`), in the playground. */
  readonly status?: string;
}

/** The branch's label after one event. */
export interface TimelineStep {
  /** What happened: `system prompt`, `user message`, `read_inbox returned`, `call send_email`. */
  readonly event: string;
  /** The label after it, as `formatPartialLabel` writes it. */
  readonly label: string;
  /** The label's known trust: `trusted`, `attested` or `suspicious`. */
  readonly trust: string;
  /** For a call, its outcome. */
  readonly outcome?: string;
}

/** One trace: its calls and its label over time. */
export interface TraceView {
  /** The file the trace came from. */
  readonly file: string;
  /** The trace's id. */
  readonly trace: string;
  /** Every call with its decision, in order. */
  readonly calls: readonly CallView[];
  /** The label after every event, in order. */
  readonly timeline: readonly TimelineStep[];
}
