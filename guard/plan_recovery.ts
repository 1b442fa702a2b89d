/**
 * The recovery planner: when a call is blocked, search the moves that can
 * change the situation for the shortest plan that clears every gap.
 *
 * Reading more never helps (labels only get stricter), so the moves are:
 * a ruling from an approver whose mandate covers the gaps (the user's
 * confirmation for `confirm` gaps), and running a prerequisite tool that
 * writes a missing ledger effect. The search is breadth first with a depth
 * bound; every step it proposes still goes through both gates when run.
 *
 * @module
 */
import { canonicalJson } from "../core/canonical_json.ts";
import type { Gap, GapCode } from "./gap.ts";
import type { Recovery, RecoveryStep } from "./decision.ts";
import type { BranchState, GapReport } from "./find_gaps.ts";
import type { Policy } from "./policy.ts";
import type { ApproverRule } from "./ruling.ts";

/** An approver the planner may ask: its mandate from the policy and its rule from code. */
export interface PlannerApprover {
  /** The gap kinds it may waive. */
  readonly mandate: readonly GapCode[];
  /** Its business rule. */
  readonly rule: ApproverRule;
}

/** What the planner needs. */
export interface PlannerContext {
  /** The policy (for prerequisite contracts). */
  readonly policy: Policy;
  /** Gate 1 in a hypothetical state. */
  readonly gapsAt: (state: BranchState, tool: string, args: Readonly<Record<string, unknown>>) => GapReport;
  /** Approvers by name (without `user`). */
  readonly approvers: Readonly<Record<string, PlannerApprover>>;
  /** The branch planning. */
  readonly branch: string;
  /** At most this many prerequisite runs. */
  readonly depth: number;
}

/**
 * Find the shortest plan that clears every gap of `tool(args)`, or say why none exists.
 *
 * @example
 * ```ts
 * import { planRecovery } from "./plan_recovery.ts";
 * import { findGaps } from "./find_gaps.ts";
 * import { compilePolicy } from "./compile_policy.ts";
 * import { knownLabel } from "../core/partial_label.ts";
 * const policy = compilePolicy({ version: 1, tools: { refund: { needs_approval: true, output: "trusted" } } });
 * const gapsAt = (state: any, tool: string, args: any) =>
 *   findGaps({ policy, casts: {}, prospective: true, evidence: () => [], tainters: [] }, state, tool, args);
 * const recovery = planRecovery(
 *   { policy, gapsAt, approvers: { manager: { mandate: ["approval"], rule: () => true } }, branch: "main", depth: 3 },
 *   { label: knownLabel(policy.top), effects: new Set() },
 *   "refund",
 *   { account: 4211, amount: 120 },
 * );
 * console.log(recovery); // { found: true, steps: [{ kind: "ruling", approver: "manager", covers: ["approval"] }] }
 * ```
 */
export function planRecovery(
  context: PlannerContext,
  start: BranchState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
): Recovery {
  const queue: Array<{ state: BranchState; steps: RecoveryStep[] }> = [{ state: start, steps: [] }];
  const seen = new Set([stateKey(start)]);
  const first = context.gapsAt(start, tool, args);
  if (first.gaps.some((gap) => gap.code === "guard-error")) {
    return { found: false, reason: "the guard failed while deciding" };
  }
  while (queue.length) {
    const { state, steps } = queue.shift()!;
    const report = state === start ? first : context.gapsAt(state, tool, args);
    if (report.gaps.length === 0) return { found: true, steps };
    const rulings = coverWithRulings(context, state, tool, args, report.gaps);
    if (rulings) return { found: true, steps: [...steps, ...rulings] };
    if (steps.length >= context.depth) continue;
    const missing = new Set(report.gaps.filter((gap) => gap.code === "prior").map((gap) => gap.effect!));
    for (const [name, spec] of Object.entries(context.policy.tools)) {
      if (!spec.prerequisite || !spec.effects.some((effect) => missing.has(effect))) continue;
      const prerequisiteArgs = fillTemplate(spec.prerequisite.args, args) as Record<string, unknown>;
      const prerequisite = context.gapsAt(state, name, prerequisiteArgs);
      if (prerequisite.gaps.length) continue;
      const next: BranchState = { label: prerequisite.future, effects: new Set([...state.effects, ...spec.effects]) };
      const key = stateKey(next);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({
        state: next,
        steps: [...steps, { kind: "run", tool: name, args: prerequisiteArgs, writes: spec.effects }],
      });
    }
  }
  return { found: false, reason: explainNoRoute(context, start, tool, args, first.gaps) };
}

/** The smallest set of rulings that waives every gap, if the approvers would give them. */
function coverWithRulings(
  context: PlannerContext,
  state: BranchState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  gaps: readonly Gap[],
): RecoveryStep[] | undefined {
  const indexed = gaps.map((gap, index) => ({ gap, index }));
  const candidates: Array<{ approver: string; covers: Set<number> }> = [];
  for (const [name, approver] of Object.entries(context.approvers)) {
    const covered = indexed.filter(({ gap }) => approver.mandate.includes(gap.code));
    if (!covered.length) continue;
    if (askRule(approver.rule, context, state, tool, args, covered.map(({ gap }) => gap)) !== true) continue;
    candidates.push({ approver: name, covers: new Set(covered.map(({ index }) => index)) });
  }
  // The user's confirmation waives exactly the gaps of confirm severity, as Guard.propose() applies it.
  const confirmable = indexed.filter(({ gap }) => gap.severity === "confirm");
  if (confirmable.length) candidates.push({ approver: "user", covers: new Set(confirmable.map(({ index }) => index)) });
  // Smallest subset of candidates covering every gap; named approvers before the user. Exhaustive for the handful of
  // approvers a policy names; past that, the search would explode, so take candidates greedily instead.
  const all = gaps.map((_, i) => i);
  if (candidates.length > MAX_EXACT_COVER) return greedyCover(candidates, gaps);
  for (let size = 1; size <= candidates.length; size++) {
    for (const subset of combinations(candidates, size)) {
      const covered = new Set(subset.flatMap((candidate) => [...candidate.covers]));
      if (all.every((i) => covered.has(i))) {
        return subset.map((candidate) => ({
          kind: "ruling" as const,
          approver: candidate.approver,
          covers: [...new Set([...candidate.covers].map((i) => gaps[i].code))],
        }));
      }
    }
  }
  return undefined;
}

const MAX_EXACT_COVER = 12;

function greedyCover(
  candidates: ReadonlyArray<{ approver: string; covers: Set<number> }>,
  gaps: readonly Gap[],
): RecoveryStep[] | undefined {
  const open = new Set(gaps.map((_, i) => i));
  const chosen: Array<{ approver: string; covers: Set<number> }> = [];
  while (open.size) {
    let best: { approver: string; covers: Set<number> } | undefined;
    let gain = 0;
    for (const candidate of candidates) {
      const covered = [...candidate.covers].filter((i) => open.has(i)).length;
      if (covered > gain) [best, gain] = [candidate, covered];
    }
    if (!best) return undefined;
    chosen.push(best);
    for (const i of best.covers) open.delete(i);
  }
  return chosen.map((candidate) => ({
    kind: "ruling" as const,
    approver: candidate.approver,
    covers: [...new Set([...candidate.covers].map((i) => gaps[i].code))],
  }));
}

function askRule(
  rule: ApproverRule,
  context: PlannerContext,
  state: BranchState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  gaps: readonly Gap[],
): true | string {
  try {
    const answer = rule({
      tool,
      args,
      gaps,
      label: state.label,
      effects: [...state.effects].sort(),
      branch: context.branch,
    });
    return answer === true ? true : typeof answer === "string" ? answer : "its rule says no";
  } catch (error) {
    return `its rule failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function explainNoRoute(
  context: PlannerContext,
  state: BranchState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  gaps: readonly Gap[],
): string {
  const reasons: string[] = [];
  for (const code of [...new Set(gaps.map((gap) => gap.code))]) {
    const ofCode = gaps.filter((gap) => gap.code === code);
    if (ofCode.every((gap) => gap.severity === "confirm")) continue;
    const holders = Object.entries(context.approvers).filter(([, approver]) => approver.mandate.includes(code));
    const refusals = holders.map(([name, approver]) => {
      const answer = askRule(approver.rule, context, state, tool, args, ofCode);
      return answer === true ? undefined : `approver "${name}" refuses (${answer})`;
    }).filter((text): text is string => text !== undefined);
    let why = holders.length ? refusals.join(", ") : `no approver's mandate covers [${code}]`;
    if (code === "prior") {
      why += `; no runnable prerequisite writes ${ofCode.map((gap) => `"${gap.effect}"`).join(", ")}`;
    }
    if (code === "no-prior") why += "; the ledger is append-only, so this cannot be undone";
    if (code === "recipient" || code === "trust") why += "; reading more can only make the label stricter";
    if (code === "untrusted-argument" || code === "invented-argument" || code === "not-allowed") {
      why +=
        "; only a value a trusted source supplied (the user, or a tool the policy trusts) or the allow list passes";
    }
    if (code === "tainted-context") why += "; do untrusted reads in a child branch so they stay out of this context";
    if (code === "unlabelled") why += "; label the tool in the policy, or register a cast for it";
    reasons.push(`[${code}] ${why}`);
  }
  return reasons.join("; ") || "no combination of moves clears every gap within the depth bound";
}

/** Substitute `{{arg}}` strings with the blocked call's argument values (types kept). */
export function fillTemplate(template: unknown, args: Readonly<Record<string, unknown>>): unknown {
  if (typeof template === "string") {
    const whole = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(template);
    if (whole) return args[whole[1]];
    return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, name: string) => String(args[name] ?? ""));
  }
  if (Array.isArray(template)) return template.map((item) => fillTemplate(item, args));
  if (template && typeof template === "object") {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fillTemplate(value, args)]));
  }
  return template;
}

function stateKey(state: BranchState): string {
  return canonicalJson({ label: state.label, effects: [...state.effects].sort() });
}

function* combinations<T>(items: readonly T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= items.length - size; i++) {
    for (const rest of combinations(items, size - 1, i + 1)) yield [items[i], ...rest];
  }
}
