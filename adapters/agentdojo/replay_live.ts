/**
 * The bench's own replay of an AgentDojo trace: each call decided in order, as
 * `replayTrace` from `adapters/trace` does, but a call that would not have run
 * live (no route, or held for a user who refuses) does not feed its recorded
 * output to the guard, so it cannot vouch for later calls.
 *
 * @module
 */
import { formatPartialLabel } from "../../core/mod.ts";
import { type Evidence, type Gap, Guard, type Outcome, type Policy, type Recovery } from "../../guard/mod.ts";
import { type Actor, feedRecordedResult, type ResultEvent, type Trace } from "../trace/mod.ts";

/**
 * How a call fares without a human: `allow` outright; `approver` (only named
 * approvers' rulings are needed: code that signs); `user` (the user's own
 * ruling is needed); `no-route` (the planner finds no way to yes).
 */
export type Verdict = "allow" | "approver" | "user" | "no-route";

/**
 * Which recorded outputs the replay feeds to the guard: `ran` (default) only
 * those of calls that would have run live; `recorded` every output the trace
 * holds, as `replayTrace` does.
 */
export type FeedMode = "ran" | "recorded";

/** One call of a replayed trace. */
export interface LiveCall {
  /** The call's id in the trace. */
  readonly id: string;
  /** The tool. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Who wanted the call (`user` unless the trace says `attacker`). */
  readonly actor: Actor;
  /** The guard's outcome. */
  readonly outcome: Outcome;
  /** How the call fares without a human. */
  readonly verdict: Verdict;
  /** For `approver` and `user`: `approver:gap+gap` per ruling step. */
  readonly rulings: readonly string[];
  /** The open gaps. */
  readonly gaps: readonly Gap[];
  /** Why each checked argument passed. */
  readonly evidence: readonly Evidence[];
  /** The way to yes, if the call is not allowed outright. */
  readonly recovery?: Recovery;
  /** Whether the call would have run live, so its output was fed to the guard. */
  readonly ran: boolean;
  /** The recorded output's text, if the trace has one. */
  readonly output?: string;
  /** The session's label when the call was decided (`formatPartialLabel`'s text and the known trust). */
  readonly labelAtCall: LabelStep;
  /** The label once the call's output was fed to the guard; absent when it was not fed. */
  readonly labelAfter?: LabelStep;
}

/** A session label at one moment of a replay. */
export interface LabelStep {
  /** As `formatPartialLabel` writes it. */
  readonly label: string;
  /** The known trust: `trusted`, `attested` or `suspicious`. */
  readonly trust: string;
}

function labelStep(guard: Guard): LabelStep {
  const label = guard.label;
  return { label: formatPartialLabel(label), trust: label.known.trust };
}

/** How a decision fares without a human. */
export function verdictOf(outcome: Outcome, recovery: Recovery | undefined): { verdict: Verdict; rulings: string[] } {
  if (outcome === "allow") return { verdict: "allow", rulings: [] };
  if (!recovery?.found) return { verdict: "no-route", rulings: [] };
  const rulings = recovery.steps.flatMap((step) =>
    step.kind === "ruling" ? [`${step.approver}:${step.covers.join("+")}`] : []
  );
  return { verdict: rulings.some((ruling) => ruling.startsWith("user:")) ? "user" : "approver", rulings };
}

/**
 * Whether a call would have run live: allowed calls and calls a named approver
 * signs run; the user confirms their own calls and refuses the attacker's; a
 * call with no route never runs.
 */
export function wouldRun(actor: Actor, verdict: Verdict): boolean {
  if (verdict === "allow" || verdict === "approver") return true;
  return verdict === "user" && actor !== "attacker";
}

/** Replay `trace` through a fresh guard for `policy`. */
export async function replayLive(trace: Trace, policy: Policy, feed: FeedMode = "ran"): Promise<readonly LiveCall[]> {
  const guard = new Guard(policy, {});
  const results = new Map<string, ResultEvent>();
  for (const event of trace.events) if (event.type === "result") results.set(event.id, event);
  const calls: LiveCall[] = [];
  for (const event of trace.events) {
    if (event.type === "system") guard.system(event.content);
    else if (event.type === "user") guard.user(event.content);
    if (event.type !== "call") continue;
    const decision = guard.decide(event.tool, event.args);
    const actor: Actor = event.actor ?? "user";
    const { verdict, rulings } = verdictOf(decision.outcome, decision.recovery);
    const result = results.get(event.id);
    const ran = wouldRun(actor, verdict);
    const labelAtCall = labelStep(guard);
    const fed = result !== undefined && (feed === "recorded" || ran);
    if (fed) await feedRecordedResult(guard, event.tool, event.args, result, decision.outcome === "allow");
    calls.push({
      id: event.id,
      tool: event.tool,
      args: event.args,
      actor,
      outcome: decision.outcome,
      verdict,
      rulings,
      gaps: decision.gaps,
      evidence: decision.evidence,
      ...(decision.recovery ? { recovery: decision.recovery } : {}),
      ran,
      ...(result ? { output: result.content } : {}),
      labelAtCall,
      ...(fed ? { labelAfter: labelStep(guard) } : {}),
    });
  }
  return calls;
}
