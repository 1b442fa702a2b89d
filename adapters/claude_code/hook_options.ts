/**
 * Options of the Claude Code hook, checked against the policy when the hook
 * is made (a bad option is refused before any hook is answered).
 *
 * @module
 */
import { closestWord } from "../../core/mod.ts";
import type { Policy } from "../../guard/mod.ts";
import { MAX_RESULT_CHARS } from "./kept_response.ts";

/** How the hook answers when pab has no objection to a call. */
export interface HookOptions {
  /**
   * Tools for which "no objection" is answered `allow`, which skips Claude
   * Code's own permission prompt. Every other call pab does not object to
   * gets no decision, so Claude Code's own permission flow (its allow, ask and
   * deny rules and its prompt) decides, as it would without pab.
   */
  readonly allowTools: ReadonlySet<string>;
  /** The budget of a recorded tool response, in characters of keys and leaves (default {@linkcode MAX_RESULT_CHARS}). */
  readonly maxResultChars?: number;
}

/** Options that keep Claude Code's own permission flow for every call. */
export const HOST_DECIDES: HookOptions = Object.freeze({ allowTools: new Set<string>() });

/**
 * Check hook options against `policy`: every tool in `allowTools` must be a
 * tool the policy names, exactly (no patterns), once. Throws a `TypeError`
 * naming the bad entry and the closest tool the policy names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { hookOptions } from "./hook_options.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  Read: {output: trusted}\n", { source: "p.yaml" });
 * assert.deepEqual([...hookOptions(policy, { allowTools: ["Read"] }).allowTools], ["Read"]);
 * assert.throws(() => hookOptions(policy, { allowTools: ["Raed"] }), /not a tool the policy names \(did you mean "Read"\?\)/);
 * assert.throws(() => hookOptions(policy, { allowTools: ["*"] }), /not a tool the policy names/);
 * ```
 */
export function hookOptions(
  policy: Policy,
  options: { readonly allowTools?: readonly string[]; readonly maxResultChars?: number } = {},
): HookOptions {
  const budget = options.maxResultChars ?? MAX_RESULT_CHARS;
  if (!Number.isSafeInteger(budget) || budget < 0) {
    throw new TypeError(`Cannot keep tool responses of ${budget} characters: give a whole number of at least 0`);
  }
  const allowTools = new Set<string>();
  for (const tool of options.allowTools ?? []) {
    if (typeof tool !== "string" || !Object.hasOwn(policy.tools, tool)) {
      const near = typeof tool === "string" ? closestWord(tool, Object.keys(policy.tools)) : undefined;
      throw new TypeError(
        `Cannot answer allow for ${JSON.stringify(tool)}: not a tool the policy names` +
          (near ? ` (did you mean "${near}"?)` : " (name each tool exactly as the policy's tools section does)"),
      );
    }
    if (allowTools.has(tool)) throw new TypeError(`Cannot answer allow for "${tool}": it is listed twice`);
    allowTools.add(tool);
  }
  return Object.freeze({ allowTools, maxResultChars: budget });
}
