/**
 * What recording a tool's result commits: the effects of a call that ran
 * (without a reservation) and finished, under a holder its fingerprint
 * names; nothing for any other result, whose call is then only checked as
 * `makeToolCall` checks it, without the copy and fingerprint it would make.
 *
 * @module
 */
import { makeToolCall, planEffects, type Policy } from "../../guard/mod.ts";
import type { EffectCommit } from "../store/mod.ts";

/**
 * The keys a result commits and the commit to write with it (none when no
 * key), given the ledger's `effects` (their committed keys read only when the call ran).
 * Throws the `TypeError` `makeToolCall` throws for a call of the wrong shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { resultEffects } from "./result_effects.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  publish: {once: release.sent}\n", { source: "p.yaml" });
 * const ran = { tool: "publish", args: {}, ran: true };
 * assert.deepEqual(resultEffects(policy, "s_1", ran, { committed: () => new Set() }).keys, ["release.sent"]);
 * assert.equal(resultEffects(policy, "s_1", { ...ran, ran: false }, { committed: () => new Set() }).commit, undefined);
 * assert.throws(() => resultEffects(policy, "s_1", { tool: "", args: {} }, { committed: () => new Set() }), TypeError);
 * ```
 */
export function resultEffects(
  policy: Policy,
  ledger: string,
  call: { readonly tool: string; readonly args: unknown; readonly error?: string; readonly ran?: boolean },
  effects: { committed(): ReadonlySet<string> },
): { keys: readonly string[]; commit?: EffectCommit } {
  if (!call.ran || call.error !== undefined) {
    assertCallShape(call.tool, call.args);
    return { keys: [] };
  }
  const toolCall = makeToolCall(call.tool, call.args);
  const keys = planEffects(policy, toolCall, effects.committed()).commit;
  return keys.length ? { keys, commit: { ledger, keys, holder: `result:${toolCall.fingerprint}` } } : { keys };
}

/**
 * Throw the `TypeError` `makeToolCall(tool, args)` throws, if it throws: a
 * tool name that is not a non-empty string, or arguments that are not an
 * object of named values (tests/serve_result_effects_properties_test.ts
 * compares the two).
 */
export function assertCallShape(tool: unknown, args: unknown): void {
  if (typeof tool !== "string" || !tool) {
    throw new TypeError("Cannot decide a call: the tool name must be a non-empty string");
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new TypeError(`Cannot decide a call to ${tool}: arguments must be an object of named values`);
  }
}
