/**
 * The recovery planner: when a call is blocked, search the moves that can
 * change the situation for the shortest plan that clears every gap.
 *
 * Reading more never helps (labels only get stricter), so the moves are:
 * a ruling from an approver whose mandate covers the gaps (the user's
 * confirmation for `confirm` gaps), and running a prerequisite tool that
 * writes a missing ledger effect. Prerequisite runs are searched breadth
 * first up to a depth bound; rulings are chosen by a shortest-path search
 * over the kinds of gap still open, which is polynomial in the number of
 * approvers and tools. The planner is pure: it judges hypothetical states
 * with {@linkcode judge} and never calls back into a guard. Every step it
 * proposes still goes through both gates when run.
 *
 * @module
 */
import type { Gap, GapCode } from "./gap.ts";
import type { Recovery, RecoveryStep } from "./decision.ts";
import { errorText, meetPartial, type PartialLabel } from "../core/mod.ts";
import { incomingLabel, judge, type Judgement, type JudgeState } from "./judge.ts";
import { effectKey, GAP_KINDS } from "./policy/mod.ts";
import type { ApproverRule } from "./ruling.ts";
import type { Source } from "./source.ts";
import { makeToolCall, type ToolCall } from "./tool_call.ts";

/** An approver the planner may ask: its mandate from the policy and its rule from code. */
export interface PlannerApprover {
  /** The gap kinds it may waive. */
  readonly mandate: readonly GapCode[];
  /** Its business rule. */
  readonly rule: ApproverRule;
}

/** What the planner reads: a branch state, the approvers and the bounds. */
export interface PlanContext {
  /** The branch state to plan from. */
  readonly state: JudgeState;
  /** Approvers by name (without `user`). */
  readonly approvers: Readonly<Record<string, PlannerApprover>>;
  /** The branch planning. */
  readonly branch: string;
  /** At most this many prerequisite runs. */
  readonly depth: number;
}

/**
 * Find the shortest plan that clears every gap of a call, or say why none
 * exists. `first` is Gate 1's judgement of the call in `context.state`, when
 * the caller has it already.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planRecovery } from "./plan_recovery.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * import { compilePolicy } from "./policy/mod.ts";
 * import { knownLabel } from "../core/mod.ts";
 * const policy = compilePolicy({ version: 1, tools: { refund: { needs_approval: true, output: "trusted" } } });
 * const state = {
 *   policy, casts: {}, prospective: true, label: knownLabel(policy.top), tainters: [], effects: new Set<string>(),
 *   evidence: () => [],
 * };
 * const recovery = planRecovery(
 *   { state, approvers: { manager: { mandate: ["approval"], rule: () => true } }, branch: "main", depth: 3 },
 *   makeToolCall("refund", { account: 4211, amount: 120 }),
 * );
 * assert.deepEqual(recovery, { found: true, steps: [{ kind: "ruling", approver: "manager", covers: ["approval"] }] });
 * ```
 */
export function planRecovery(context: PlanContext, call: ToolCall, first?: Judgement): Recovery {
  // Every planning state shares the conversation's sources: a value's sources are looked up once for all of them.
  const start: JudgeState = { ...context.state, evidence: rememberedEvidence(context.state.evidence) };
  const report = first ?? judge(start, call);
  if (report.gaps.some((gap) => !GAP_KINDS[gap.code].waivable)) {
    return { found: false, reason: GAP_KINDS["guard-error"].noRoute };
  }
  const queue: Array<{ state: JudgeState; steps: RecoveryStep[]; report?: Judgement }> = [
    { state: start, steps: [], report },
  ];
  // Made when a prerequisite is first explored: most blocked calls have none.
  let seen: Set<string> | undefined;
  let runnable: readonly PrerequisiteRun[] | undefined;
  for (let head = 0; head < queue.length; head++) {
    const { state, steps } = queue[head];
    const found = queue[head].report ?? judge(state, call);
    if (found.gaps.length === 0) return { found: true, steps };
    const rulings = coverWithRulings(context, state, call, found.gaps);
    if (rulings) return { found: true, steps: [...steps, ...rulings] };
    if (steps.length >= context.depth) continue;
    const missing = new Set(found.gaps.filter((gap) => gap.code === "prior").map((gap) => gap.effect!));
    if (!missing.size) continue;
    runnable ??= prerequisiteRuns(start, call);
    for (const { name, args, writes, run, incoming } of runnable) {
      if (!incoming || !writes.some((effect) => missing.has(effect))) continue;
      // The state a run leads to is known before it is judged (its label is the one Gate 1 looks ahead to): a state
      // another runnable prerequisite already leads to is not judged again.
      const next: JudgeState = {
        ...state,
        label: meetPartial(state.label, incoming),
        effects: new Set([...state.effects, ...writes]),
      };
      seen ??= new Set([stateKey(start)]);
      const key = stateKey(next);
      if (seen.has(key) || judge(state, run).gaps.length) continue;
      seen.add(key);
      queue.push({ state: next, steps: [...steps, { kind: "run", tool: name, args, writes }] });
    }
  }
  return { found: false, reason: explainNoRoute(context, call, report.gaps) };
}

/** A tool that can run as a prerequisite of one blocked call: its call and the effects it writes, made once. */
interface PrerequisiteRun {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly writes: readonly string[];
  readonly run: ToolCall;
  /** The label of what it reads, as Gate 1 computes it; `undefined` when that fails (the run is never runnable). */
  readonly incoming: PartialLabel | undefined;
}

/** The prerequisite runs the policy offers for `call`: they depend on its arguments, not on the planning state. */
function prerequisiteRuns(state: JudgeState, call: ToolCall): readonly PrerequisiteRun[] {
  let byCall = RUNS.get(state.policy);
  if (!byCall) RUNS.set(state.policy, byCall = new Map());
  const known = call.fingerprint ? byCall.get(call.fingerprint) : undefined;
  if (known) return known;
  const runs: PrerequisiteRun[] = [];
  for (const [name, spec] of Object.entries(state.policy.tools)) {
    if (!spec.prerequisite) continue;
    const args = fillTemplate(spec.prerequisite.args, call.args) as Record<string, unknown>;
    const writes = spec.effects.map((template) => effectKey(template, args));
    let incoming: PartialLabel | undefined;
    try {
      incoming = incomingLabel(state.policy, name, args);
    } catch {
      incoming = undefined;
    }
    runs.push({ name, args, writes, run: makeToolCall(name, args), incoming });
  }
  if (byCall.size >= RUNS_KEPT) byCall.delete(byCall.keys().next().value!);
  if (call.fingerprint) byCall.set(call.fingerprint, runs);
  return runs;
}

/**
 * The prerequisite runs of recently planned calls, by policy and call fingerprint: a blocked call is often planned
 * again (decided, then proposed), and its runs, with their fingerprints, depend only on the policy and its arguments.
 */
const RUNS = new WeakMap<object, Map<string, readonly PrerequisiteRun[]>>();
const RUNS_KEPT = 64;

/** `evidence`, remembering each answer for the planning it serves (the sources do not change while it plans). */
function rememberedEvidence(evidence: JudgeState["evidence"]): JudgeState["evidence"] {
  // Made on the first look-up: a plan that judges nothing again (most blocked calls) makes none.
  let known: Map<string, readonly Source[]> | undefined;
  return (value, atLeast) => {
    const key = `${atLeast ?? ""}\u0000${value}`;
    known ??= new Map();
    let sources = known.get(key);
    if (!sources) known.set(key, sources = evidence(value, atLeast));
    return sources;
  };
}

interface Candidate {
  readonly approver: string;
  readonly mask: number;
}

/**
 * The fewest rulings that waive every gap, if the approvers would give them:
 * a breadth-first search over the sets of gap kinds still open (at most one
 * state per set), so its cost grows with the number of approvers, not with
 * the number of their subsets.
 */
function coverWithRulings(
  context: PlanContext,
  state: JudgeState,
  call: ToolCall,
  gaps: readonly Gap[],
): RecoveryStep[] | undefined {
  // Without an approver or a gap of confirm severity, nothing can waive anything (most blocked calls).
  if (!gaps.some((gap) => gap.severity === "confirm") && !Object.keys(context.approvers).length) return undefined;
  const kinds = [...new Set(gaps.map((gap) => `${gap.code}/${gap.severity}`))];
  if (kinds.length > 24) return undefined;
  const bit = (gap: Gap) => 1 << kinds.indexOf(`${gap.code}/${gap.severity}`);
  const candidates: Candidate[] = [];
  for (const [name, approver] of Object.entries(context.approvers)) {
    const covered = gaps.filter((gap) => approver.mandate.includes(gap.code));
    if (!covered.length || askRule(approver.rule, context, state, call, covered) !== true) continue;
    candidates.push({ approver: name, mask: covered.reduce((mask, gap) => mask | bit(gap), 0) });
  }
  // The user's confirmation waives exactly the gaps of confirm severity, as Guard.propose() applies it.
  const confirmable = gaps.filter((gap) => gap.severity === "confirm");
  if (confirmable.length) {
    candidates.push({ approver: "user", mask: confirmable.reduce((mask, gap) => mask | bit(gap), 0) });
  }
  const full = (1 << kinds.length) - 1;
  const chosen = new Map<number, number[]>([[0, []]]);
  for (let layer = [0]; layer.length;) {
    const next: number[] = [];
    for (const mask of layer) {
      for (const [index, candidate] of candidates.entries()) {
        const reached = mask | candidate.mask;
        if (chosen.has(reached)) continue;
        const picks = [...chosen.get(mask)!, index];
        if (reached === full) return picks.sort((a, b) => a - b).map((i) => step(candidates[i], gaps, kinds));
        chosen.set(reached, picks);
        next.push(reached);
      }
    }
    layer = next;
  }
  return undefined;
}

function step(candidate: Candidate, gaps: readonly Gap[], kinds: readonly string[]): RecoveryStep {
  const covers = gaps.filter((gap) => candidate.mask & (1 << kinds.indexOf(`${gap.code}/${gap.severity}`)));
  return { kind: "ruling", approver: candidate.approver, covers: [...new Set(covers.map((gap) => gap.code))] };
}

function askRule(
  rule: ApproverRule,
  context: PlanContext,
  state: JudgeState,
  call: ToolCall,
  gaps: readonly Gap[],
): true | string {
  try {
    const answer = rule({
      tool: call.tool,
      args: call.args,
      gaps,
      label: state.label,
      effects: [...state.effects].sort(),
      branch: context.branch,
    });
    return answer === true ? true : typeof answer === "string" ? answer : "its rule says no";
  } catch (error) {
    return `its rule failed: ${errorText(error)}`;
  }
}

function explainNoRoute(context: PlanContext, call: ToolCall, gaps: readonly Gap[]): string {
  const reasons: string[] = [];
  for (const code of [...new Set(gaps.map((gap) => gap.code))]) {
    const ofCode = gaps.filter((gap) => gap.code === code);
    if (ofCode.every((gap) => gap.severity === "confirm")) continue;
    const holders = Object.entries(context.approvers).filter(([, approver]) => approver.mandate.includes(code));
    const refusals = holders.map(([name, approver]) => {
      const answer = askRule(approver.rule, context, context.state, call, ofCode);
      return answer === true ? undefined : `approver "${name}" refuses (${answer})`;
    }).filter((text): text is string => text !== undefined);
    const why = [
      !holders.length
        ? `no approver's mandate covers [${code}]`
        : refusals.length
        ? refusals.join(", ")
        : `${holders.map(([name]) => `approver "${name}"`).join(", ")} would waive it, but not the other gaps`,
    ];
    if (code === "prior") {
      why.push(`no runnable prerequisite writes ${ofCode.map((gap) => `"${gap.effect}"`).join(", ")}`);
    }
    const undesignated = ofCode.filter((gap) => gap.delegation === "undesignated").flatMap((gap) => gap.sources ?? []);
    if (undesignated.length) {
      why.push(
        `the user did not point at ${[...new Set(undesignated)].join(", ")} in their own words, so the user is not ` +
          `asked; a task that names that source may be confirmed`,
      );
    }
    if (GAP_KINDS[code].noRoute) why.push(GAP_KINDS[code].noRoute);
    reasons.push(`[${code}] ${why.join("; ")}`);
  }
  return reasons.join("; ") || "no combination of moves clears every gap within the depth bound";
}

/** Substitute `{{arg}}` strings with the blocked call's argument values (types kept). */
export function fillTemplate(template: unknown, args: Readonly<Record<string, unknown>>): unknown {
  if (typeof template === "string") {
    const whole = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(template);
    if (whole) return Object.hasOwn(args, whole[1]) ? args[whole[1]] : undefined;
    return template.replace(
      /\{\{\s*([\w.-]+)\s*\}\}/g,
      (_, name: string) => String(Object.hasOwn(args, name) ? args[name] ?? "" : ""),
    );
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, args));
  if (template && typeof template === "object") {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fillTemplate(value, args)]));
  }
  return template;
}

/** What tells two planner states apart: the label (its lists are sorted) and the committed effects. */
function stateKey(state: JudgeState): string {
  const { known, unknown } = state.label;
  return JSON.stringify([known.readers, known.trust, unknown, [...state.effects].sort()]);
}
