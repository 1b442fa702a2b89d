/**
 * The decisions a host showed the user, by the host's id for the question
 * (a tool call id, an approval id), so the user's later answer binds to what
 * they saw (see `Guard.confirmShown`) and not to whatever the call's gaps are
 * by then.
 *
 * @module
 */
import type { Decision } from "./decision.ts";
import { RulingError } from "./guard_errors.ts";
import type { Ruling } from "./ruling.ts";

/** How many shown decisions are kept by default: an answer to a forgotten question is not honoured. */
export const SHOWN_DECISIONS_KEPT = 1024;

/** What records the user's yes to a decision shown (a `Guard`). */
export interface ConfirmingGuard {
  /** See `Guard.confirmShown`. */
  confirmShown(shown: Decision): Ruling;
}

/** Each guard's shown decisions (see {@linkcode ShownDecisions.of}). */
const BY_GUARD = new WeakMap<ConfirmingGuard, ShownDecisions>();

/**
 * Decisions shown to the user, oldest forgotten first. The first decision
 * shown for an id is the one kept: showing the call again under the same id
 * does not change what the user answered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ShownDecisions } from "./shown_decisions.ts";
 * import type { Decision } from "./decision.ts";
 * const shown = new ShownDecisions(1);
 * const first = { tool: "send_email" } as Decision;
 * shown.remember("c1", first);
 * shown.remember("c1", { tool: "other" } as Decision);
 * assert.equal(shown.peek("c1"), first);
 * assert.equal(shown.take("c1"), first);
 * assert.equal(shown.take("c1"), undefined);
 * shown.remember("c2", first);
 * shown.remember("c3", first);
 * assert.equal(shown.take("c2"), undefined); // forgotten: one is kept
 * ```
 */
export class ShownDecisions {
  readonly #limit: number;
  readonly #byId = new Map<string, Decision>();

  /** The shown decisions of one guard, shared by every adapter wrapped around it. */
  static of(guard: ConfirmingGuard): ShownDecisions {
    let shown = BY_GUARD.get(guard);
    if (!shown) BY_GUARD.set(guard, shown = new ShownDecisions());
    return shown;
  }

  /** Keep at most `limit` decisions. */
  constructor(limit = SHOWN_DECISIONS_KEPT) {
    if (!Number.isInteger(limit) || limit < 1) throw new TypeError("Cannot keep shown decisions: limit must be >= 1");
    this.#limit = limit;
  }

  /** Remember the decision shown for `id`, unless one is remembered already. */
  remember(id: string, decision: Decision): void {
    if (this.#byId.has(id)) return;
    if (this.#byId.size >= this.#limit) this.#byId.delete(this.#byId.keys().next().value!);
    this.#byId.set(id, decision);
  }

  /** The decision shown for `id`, still remembered. */
  peek(id: string): Decision | undefined {
    return this.#byId.get(id);
  }

  /** The decision shown for `id`, forgotten as it is returned. */
  take(id: string): Decision | undefined {
    const decision = this.#byId.get(id);
    this.#byId.delete(id);
    return decision;
  }

  /**
   * The user's yes to the decision shown for `id`, as `guard` binds it
   * (`Guard.confirmShown`), forgetting it; `undefined` when nothing was shown
   * for `id` or it no longer fits (the call is then asked about again).
   */
  confirmation(guard: ConfirmingGuard, id: string): Ruling | undefined {
    const shown = this.take(id);
    if (!shown) return undefined;
    try {
      return guard.confirmShown(shown);
    } catch (error) {
      if (error instanceof RulingError) return undefined;
      throw error;
    }
  }
}
