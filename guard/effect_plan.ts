/**
 * Which effect keys a call reserves at dispatch, commits when it finishes,
 * and releases, as SECURITY.md documents.
 *
 * @module
 */
import { effectKey, type Policy, toolPolicy } from "./policy/mod.ts";
import type { ToolCall } from "./tool_call.ts";

/** A call's effect keys. */
export interface EffectPlan {
  /** Reserved at dispatch, all or nothing. */
  readonly reserve: readonly string[];
  /** Committed when the call finishes. */
  readonly commit: readonly string[];
  /** Released when the call finishes (keys it only checked); a failed call releases every reserved key. */
  readonly releaseOnSuccess: readonly string[];
}

/**
 * Plan a call's effects. Reserved: the keys it writes that any rule depends
 * on (`once`, `requires_no_prior`, `requires_prior`) and are not committed
 * yet, and the `requires_no_prior` keys it checks. A call that finishes
 * commits what it writes and releases what it only checked; a tool that fails
 * commits nothing and releases every key, so a retry may run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planEffects } from "./effect_plan.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * import { compilePolicy } from "./policy/mod.ts";
 * const policy = compilePolicy({ version: 1, tools: { send_release: { output: "trusted", once: "release.sent{to}" } } });
 * const plan = planEffects(policy, makeToolCall("send_release", { to: "press" }), new Set());
 * assert.deepEqual(plan.reserve, ['release.sent{"to":"press"}']);
 * assert.deepEqual(plan.commit, ['release.sent{"to":"press"}']);
 * ```
 */
export function planEffects(policy: Policy, call: ToolCall, committed: ReadonlySet<string>): EffectPlan {
  const spec = toolPolicy(policy, call.tool);
  if (!spec) return { reserve: [], commit: [], releaseOnSuccess: [] };
  const exclusive = new Set(Object.values(policy.tools).flatMap((tool) => tool.requiresNoPrior));
  const prerequisite = new Set(Object.values(policy.tools).flatMap((tool) => tool.requiresPrior));
  const writes = new Map(spec.effects.map((template) => [effectKey(template, call.args), template]));
  const guarded = [...writes].filter(([key, template]) =>
    (exclusive.has(template) || prerequisite.has(template)) && !committed.has(key)
  );
  const checks = [...new Set(spec.requiresNoPrior.map((template) => effectKey(template, call.args)))]
    .filter((key) => !writes.has(key));
  return {
    reserve: [...guarded.map(([key]) => key), ...checks],
    commit: [...writes.keys()],
    releaseOnSuccess: checks,
  };
}
