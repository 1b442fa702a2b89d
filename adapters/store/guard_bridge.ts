/**
 * STAND-IN for the Guard's two-step dispatch (`guard.reserve()` /
 * `guard.complete()`, `GuardOptions.effects`) until it lands in `guard/`. It is
 * built only from today's public API (`decide`, `propose` with a `run` it
 * controls, `record`, `ledger`). The integrator replaces this one file: the
 * types by those of `guard/mod.ts`, {@linkcode reserveCall} by
 * `guard.reserve()` and {@linkcode completeCall} by `guard.complete()`.
 *
 * @module
 */
import type { Label } from "../../core/mod.ts";
import type { Decision, Guard, Policy, ProposeOptions, RecoveryStep, Waiver } from "../../guard/mod.ts";

/** Ledger effects with atomic reservations (the contract's `EffectStore`). */
export interface EffectStore {
  /** Reserve every key or none; false if any key is reserved or committed. */
  reserve(keys: readonly string[], holder: string): boolean | Promise<boolean>;
  /** Commit keys (the call finished); a reservation of the holder becomes a commitment. */
  commit(keys: readonly string[], holder: string): void | Promise<void>;
  /** Give up the holder's reservation of keys. */
  release(keys: readonly string[], holder: string): void | Promise<void>;
  /** A synchronous snapshot of the committed keys. */
  committed(): ReadonlySet<string>;
}

/** A reserved call (the contract's `Reservation`). */
export interface Reservation {
  /** Its id; also the holder of its keys. */
  readonly id: string;
  /** The tool. */
  readonly tool: string;
  /** The call's fingerprint. */
  readonly fingerprint: string;
  /** Every effect the call writes when it finishes. */
  readonly effects: readonly string[];
}

/** What {@linkcode reserveCall} did (the contract's `ReserveResult`). */
export type ReserveResult =
  | { readonly status: "reserved"; readonly decision: Decision; readonly reservation: Reservation }
  | { readonly status: "blocked"; readonly decision: Decision }
  | { readonly status: "needs_accept"; readonly decision: Decision; readonly options: readonly RecoveryStep[] };

const RESERVE_ONLY: unique symbol = Symbol("pab.reserve-only");
const CONFLICTS = new WeakSet<Decision>();

/**
 * Whether `decision` is the block {@linkcode reserveCall} gave because another
 * call held the effects. Such a refusal went through the guard's failed-tool
 * path, which already applied the call's read to the branch's label in this
 * process: rebuild the session from its inputs before using it again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard, parsePolicy } from "../../guard/mod.ts";
 * import { isReservationConflict, reserveCall } from "./guard_bridge.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  publish: {once: release.sent, output: trusted}\n", { source: "p.yaml" }));
 * const effects = { reserve: () => false, commit: () => {}, release: () => {}, committed: () => new Set<string>() };
 * const result = await reserveCall(guard, effects, "publish", {}, { id: "r1" });
 * assert.equal(isReservationConflict(result.decision), true);
 * ```
 */
export function isReservationConflict(decision: Decision): boolean {
  return CONFLICTS.has(decision);
}

/**
 * The effects of `tool` that must be reserved before it runs: those some tool
 * of the policy requires to be absent (`requires_no_prior`, `once`). Other
 * effects may be written any number of times and are only committed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/mod.ts";
 * import { exclusiveEffects } from "./guard_bridge.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  publish: {once: release.sent, effects: [log.written]}\n", { source: "p.yaml" });
 * assert.deepEqual(exclusiveEffects(policy, "publish"), ["release.sent"]);
 * ```
 */
export function exclusiveEffects(policy: Policy, tool: string): string[] {
  return toolEffects(policy, tool).filter((effect) =>
    Object.values(policy.tools).some((spec) => spec.requiresNoPrior.includes(effect))
  );
}

/**
 * Every effect `tool` writes when it finishes (none for a tool the policy does not name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/mod.ts";
 * import { toolEffects } from "./guard_bridge.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  publish: {once: release.sent}\n", { source: "p.yaml" });
 * assert.deepEqual(toolEffects(policy, "publish"), ["release.sent"]);
 * assert.deepEqual(toolEffects(policy, "other"), []);
 * ```
 */
export function toolEffects(policy: Policy, tool: string): string[] {
  return Object.hasOwn(policy.tools, tool) ? [...policy.tools[tool].effects] : [];
}

/**
 * Decide a call and, if it is allowed (after rulings, confirmation and
 * accepting), reserve its exclusive effects atomically in `effects`. A call
 * whose effects another call holds is blocked with a `no-prior` gap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard, parsePolicy } from "../../guard/mod.ts";
 * import { reserveCall } from "./guard_bridge.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  publish: {once: release.sent, output: trusted}\n", { source: "p.yaml" }));
 * const held = new Set<string>();
 * const effects = {
 *   reserve: (keys: readonly string[]) => keys.every((key) => !held.has(key)) && (keys.forEach((key) => held.add(key)), true),
 *   commit: () => {},
 *   release: () => {},
 *   committed: () => new Set<string>(),
 * };
 * assert.equal((await reserveCall(guard, effects, "publish", {}, { id: "r1" })).status, "reserved");
 * assert.equal((await reserveCall(guard, effects, "publish", {}, { id: "r2" })).status, "blocked");
 * ```
 */
export async function reserveCall(
  guard: Guard,
  effects: EffectStore,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  options: Omit<ProposeOptions, "run"> & { readonly id: string },
): Promise<ReserveResult> {
  guard.ledger.commit([...effects.committed()]);
  const before = guard.decide(tool, args);
  const keys = exclusiveEffects(guard.policy, tool);
  let reserved: boolean | undefined;
  const run = async (): Promise<never> => {
    reserved = await effects.reserve(keys, options.id);
    throw RESERVE_ONLY;
  };
  try {
    const result = await guard.propose(tool, args, { ...options, run });
    if (result.status === "done") throw new TypeError(`Cannot reserve ${tool}: the guard ran the tool itself`);
    return result;
  } catch (error) {
    if (error !== RESERVE_ONLY || reserved === undefined) throw error;
  }
  const { recovery: _, ...data } = before;
  if (!reserved) {
    const held = keys.map((key) => `"${key}"`).join(", ");
    const decision: Decision = {
      ...data,
      outcome: "block",
      gaps: [...data.gaps, {
        code: "no-prior",
        severity: "block",
        message: `${tool} may not run: another call holds or already wrote ${held}`,
      }],
    };
    CONFLICTS.add(decision);
    return { status: "blocked", decision };
  }
  const waived: Waiver[] = before.gaps.map((gap) => {
    const ruling = (options.rulings ?? []).find((candidate) =>
      candidate.covers.includes(gap.code) && (candidate.approver !== "user" || gap.severity === "confirm")
    );
    return { code: gap.code, approver: ruling?.approver ?? "user", ruling: ruling?.id ?? "user" };
  });
  return {
    status: "reserved",
    decision: { ...data, outcome: "allow", gaps: [], waived: [...data.waived, ...waived] },
    reservation: { id: options.id, tool, fingerprint: before.fingerprint, effects: toolEffects(guard.policy, tool) },
  };
}

/**
 * Finish a reserved call: record its output under the tool's label (the
 * stricter of it and `label`) and commit its effects; or record the error text
 * as the tool's output and release its reservation (nothing is committed, but
 * whatever the tool may have read still counts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard, parsePolicy } from "../../guard/mod.ts";
 * import { completeCall } from "./guard_bridge.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  publish: {once: release.sent}\n", { source: "p.yaml" }));
 * const committed = new Set<string>();
 * const effects = {
 *   reserve: () => true,
 *   commit: (keys: readonly string[]) => keys.forEach((key) => committed.add(key)),
 *   release: () => {},
 *   committed: () => committed,
 * };
 * const reservation = { id: "r1", tool: "publish", fingerprint: "", effects: ["release.sent"] };
 * await completeCall(guard, effects, reservation, { args: {}, keys: ["release.sent"] }, { output: "done" });
 * assert.ok(guard.ledger.has("release.sent"));
 * ```
 */
export async function completeCall(
  guard: Guard,
  effects: EffectStore,
  reservation: Reservation,
  call: { readonly args: Readonly<Record<string, unknown>>; readonly keys: readonly string[] },
  outcome: { readonly output: unknown; readonly label?: Label } | { readonly error: string },
): Promise<void> {
  if ("error" in outcome) {
    await effects.release(call.keys, reservation.id);
    guard.record(reservation.tool, outcome.error, { args: call.args });
    return;
  }
  await effects.commit(reservation.effects, reservation.id);
  guard.ledger.commit(reservation.effects);
  guard.record(reservation.tool, outcome.output, {
    args: call.args,
    ...(outcome.label ? { label: outcome.label } : {}),
  });
}
