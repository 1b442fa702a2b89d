/**
 * A conversation's shared parts: the policy, the ledger and its effect store,
 * the bound approvers and casts, the registered tools, and calls in flight.
 *
 * @module
 */
import { type Cast, Ledger, MemoryEffectStore, trustRank } from "../core/mod.ts";
import type { EffectPlan } from "./effect_plan.ts";
import { firstSources, NAMED_SOURCES } from "./first_sources.ts";
import type { CastFunction, GuardOptions, Reservation, ToolFunction } from "./guard_options.ts";
import type { JudgeState } from "./judge.ts";
import type { Branch } from "./branch.ts";
import type { PlannerApprover } from "./plan_recovery.ts";
import type { Policy } from "./policy/mod.ts";
import type { ApproverRule } from "./ruling.ts";
import type { Source } from "./source.ts";
import type { ToolCall } from "./tool_call.ts";

/** A call reserved and not yet completed. */
export interface Pending {
  /** What the caller holds. */
  readonly reservation: Reservation;
  /** The call. */
  readonly call: ToolCall;
  /** The branch that dispatched it. */
  readonly branch: Branch;
  /** Its effect keys. */
  readonly plan: EffectPlan;
}

/** Everything branches of one conversation share. */
export interface Session {
  /** The policy. */
  readonly policy: Policy;
  /** The options the guard was made with. */
  readonly options: GuardOptions;
  /** The audit log and the effect store. */
  readonly ledger: Ledger;
  /** Approvers with their mandates and rules. */
  readonly approvers: Readonly<Record<string, PlannerApprover>>;
  /** Casts by tool name. */
  readonly casts: Readonly<Record<string, Cast>>;
  /** Tools registered with `protect`. */
  readonly tools: Map<string, ToolFunction>;
  /** Every source, in order. */
  readonly sources: Source[];
  /** Counters for ids. */
  readonly counter: { rulings: number; children: number; calls: number };
  /** Calls reserved and not completed, by reservation id. */
  readonly pending: Map<string, Pending>;
}

/** Make a session, rejecting options that do not fit the policy with a `TypeError`. */
export function openSession(policy: Policy, options: GuardOptions): Session {
  if (!policy || typeof policy !== "object" || policy.version !== 1) {
    throw new TypeError("Cannot make a guard: pass a policy from parsePolicy() or compilePolicy()");
  }
  if (options.onEvent !== undefined && typeof options.onEvent !== "function") {
    throw new TypeError("Cannot make a guard: options.onEvent must be a function");
  }
  return {
    policy,
    options,
    ledger: new Ledger({ store: options.effects ?? new MemoryEffectStore(), onEvent: options.onEvent }),
    approvers: bindApprovers(policy, options.approvers ?? {}),
    casts: bindCasts(policy, options.casts ?? {}),
    tools: new Map(),
    sources: [],
    counter: { rulings: 0, children: 0, calls: 0 },
    pending: new Map(),
  };
}

/** Gate 1's view of a branch now. */
export function judgeState(session: Session, branch: Branch): JudgeState {
  return {
    policy: session.policy,
    casts: session.casts,
    prospective: session.options.prospective ?? true,
    label: branch.label,
    tainters: branch.tainters,
    effects: session.ledger.store.committed(),
    evidence: (value, atLeast) => namedSources(branch, session, value, atLeast === undefined ? 0 : trustRank(atLeast)),
    stated: branch.stated,
    delegated: branch.delegated,
  };
}

/** The named sources of a value (see {@linkcode firstSources}), in the order they were read. */
function namedSources(branch: Branch, session: Session, value: string, minRank: number): Source[] {
  const rankOf = (id: number) => trustRank(session.sources[id].trust);
  return firstSources(branch.evidence, value, minRank, NAMED_SOURCES, rankOf).sort((a, b) => a - b)
    .map((id) => session.sources[id]);
}

function bindApprovers(policy: Policy, rules: Readonly<Record<string, ApproverRule>>): Record<string, PlannerApprover> {
  const bound: Record<string, PlannerApprover> = {};
  for (const name of Object.keys(rules)) {
    if (!Object.hasOwn(policy.approvers, name)) {
      throw new TypeError(
        `Cannot register approver "${name}": policy "${policy.source}" does not name it under approvers`,
      );
    }
  }
  for (const [name, spec] of Object.entries(policy.approvers)) {
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (typeof rule !== "function") {
      throw new TypeError(
        `Cannot make a guard: policy "${policy.source}" names approver "${name}" but no rule is registered for it (options.approvers.${name})`,
      );
    }
    bound[name] = { mandate: spec.mandate, rule };
  }
  return bound;
}

function bindCasts(policy: Policy, functions: Readonly<Record<string, CastFunction>>): Record<string, Cast> {
  const bound: Record<string, Cast> = {};
  const named = new Set(Object.values(policy.casts).map((spec) => spec.cast));
  for (const name of Object.keys(functions)) {
    if (!named.has(name)) {
      throw new TypeError(`Cannot register cast "${name}": policy "${policy.source}" does not name it under casts`);
    }
  }
  for (const [tool, spec] of Object.entries(policy.casts)) {
    const resolve = Object.hasOwn(functions, spec.cast) ? functions[spec.cast] : undefined;
    if (typeof resolve !== "function") {
      throw new TypeError(
        `Cannot make a guard: policy "${policy.source}" names cast "${spec.cast}" for ${tool} but no labeller is registered (options.casts.${spec.cast})`,
      );
    }
    bound[tool] = { name: spec.cast, ceiling: spec.ceiling, resolve };
  }
  return bound;
}
