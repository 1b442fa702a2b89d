/**
 * What a Claude Code hook answers, in Claude Code's documented form: JSON on
 * stdout with exit 0, or exit 2 with the reason on stderr (a blocking error).
 * Any other exit code is a non-blocking error that lets a tool call run, so
 * pab never answers one.
 *
 * @module
 */

/** What the hook process prints and exits with. */
export interface HookAnswer {
  /** JSON for Claude Code on stdout (empty when there is nothing to say). */
  readonly stdout: string;
  /** The exit code: 0, or 2 to block with `stderr` as the reason. */
  readonly exitCode: 0 | 2;
  /** Text for stderr. */
  readonly stderr: string;
}

/**
 * No objection and nothing to say: Claude Code's own permission flow decides (exit 0, no output).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_DECISION } from "./hook_answer.ts";
 * assert.deepEqual(NO_DECISION, { stdout: "", exitCode: 0, stderr: "" });
 * ```
 */
export const NO_DECISION: HookAnswer = Object.freeze({ stdout: "", exitCode: 0, stderr: "" });

/**
 * A `PreToolUse` permission decision with its reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { permission } from "./hook_answer.ts";
 * const answer = permission("deny", "pab denied this call");
 * assert.equal(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, "deny");
 * ```
 */
export function permission(decision: "allow" | "deny" | "ask", reason: string): HookAnswer {
  const stdout = JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason },
  });
  return { stdout: `${stdout}\n`, exitCode: 0, stderr: "" };
}

/**
 * pab failed: a blocking error (exit 2), whatever the event, with what failed
 * on stderr. For `PreToolUse` the call does not run; for `PostToolUse` Claude
 * reads that the result was not recorded; for `UserPromptSubmit` the prompt is
 * not processed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failed } from "./hook_answer.ts";
 * assert.deepEqual(failed("the store is corrupted"), {
 *   stdout: "",
 *   exitCode: 2,
 *   stderr: "pab could not answer this hook, so it blocks: the store is corrupted\n",
 * });
 * ```
 */
export function failed(problem: string): HookAnswer {
  return { stdout: "", exitCode: 2, stderr: `pab could not answer this hook, so it blocks: ${problem}\n` };
}
