/**
 * What a replay says: for every tool call of a trace, pab's decision with its
 * reasons, notes and evidence. `replayTrace()` and `replayEvents()` both
 * return it.
 *
 * @module
 */
import type { Evidence, GapCode, GuardOptions, Note, Outcome, Recovery } from "../../guard/mod.ts";
import type { Actor } from "./trace.ts";

/**
 * One reason a call was not allowed outright: a gap's code and sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ReplayReason } from "./trace_replay.ts";
 * const reason: ReplayReason = { code: "tainted-context", message: "context contains untrusted input from tool:read_inbox" };
 * assert.deepEqual(JSON.parse(JSON.stringify(reason)), reason);
 * ```
 */
export interface ReplayReason {
  /** The gap kind, such as `untrusted-argument`. */
  readonly code: GapCode;
  /** The sentence naming the rule, the argument, the value and the source. */
  readonly message: string;
}

/**
 * A remark that did not change the decision, such as weak evidence or an unknown tool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ReplayNote } from "./trace_replay.ts";
 * const note: ReplayNote = { code: "unknown-tool", message: "search is not in policy \"p.yaml\"" };
 * assert.deepEqual(JSON.parse(JSON.stringify(note)), note);
 * ```
 */
export interface ReplayNote {
  /** The note kind. */
  readonly code: Note["code"];
  /** What to know and what to do about it. */
  readonly message: string;
}

/**
 * What pab decided for one tool call of a trace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ReplayedCall } from "./trace_replay.ts";
 * const call: ReplayedCall = {
 *   trace: "hijack",
 *   id: "call_2",
 *   tool: "send_email",
 *   args: { to: "alice@corp.example" },
 *   decision: "confirm",
 *   reasons: [{ code: "tainted-context", message: "context contains untrusted input from tool:read_inbox" }],
 *   notes: [],
 *   evidence: [],
 *   explanation: "send_email: confirm\n- [tainted-context] context contains untrusted input from tool:read_inbox",
 *   ran: false,
 * };
 * assert.equal(call.explanation.split("\n")[0], `${call.tool}: ${call.decision}`);
 * ```
 */
export interface ReplayedCall {
  /** The trace's id. */
  readonly trace: string;
  /** The call's own id in the trace. */
  readonly id: string;
  /** The tool. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Who wanted the call, when the trace says. */
  readonly actor?: Actor;
  /** `allow`, `confirm` (the user may waive the reasons) or `block`. */
  readonly decision: Outcome;
  /** Why the call is not allowed outright (empty when it is). */
  readonly reasons: readonly ReplayReason[];
  /** Remarks that did not change the decision. */
  readonly notes: readonly ReplayNote[];
  /** Why each checked argument value that passed did so. */
  readonly evidence: readonly Evidence[];
  /** The way to yes, when the call is not allowed outright. */
  readonly recovery?: Recovery;
  /** The decision as `explain()` renders it, first line `tool: outcome`. */
  readonly explanation: string;
  /** Whether the trace shows the call's result (the recorded agent really ran it). */
  readonly ran: boolean;
}

/**
 * Every call of one trace, with pab's decision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { TraceReplay } from "./trace_replay.ts";
 * const replay: TraceReplay = { trace: "empty", calls: [] };
 * assert.deepEqual(JSON.parse(JSON.stringify(replay)), replay);
 * ```
 */
export interface TraceReplay {
  /** The trace's id. */
  readonly trace: string;
  /** The calls, in the order they were made. */
  readonly calls: readonly ReplayedCall[];
}

/**
 * Options for `replayTrace()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { ReplayOptions } from "./trace_replay.ts";
 * const options: ReplayOptions = { guard: { approvers: { legal: () => true } } };
 * assert.deepEqual(Object.keys(options.guard?.approvers ?? {}), ["legal"]);
 * ```
 */
export interface ReplayOptions {
  /**
   * Options for the guard (approver rules and casts the policy names). A
   * `confirm` callback is ignored: a replay decides, it asks nobody.
   */
  readonly guard?: GuardOptions;
}
