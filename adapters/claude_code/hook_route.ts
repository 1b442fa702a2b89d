/**
 * Claude Code's hooks as an endpoint of `pab serve` (`POST
 * /v1/hooks/claude-code`), for Claude Code's `http` hooks: the same JSON in and
 * out as the command hook, without starting a process per hook. It fails
 * closed: whatever goes wrong once the body is read (input that is not a hook
 * payload, a store fault, a thrown error) is answered 200 with a blocking
 * answer, because Claude Code treats a non-2xx answer as a non-blocking error
 * unless the hook is configured with `"onFailure": "block"`.
 *
 * @module
 */

import { errorText } from "../../core/mod.ts";
import type { SessionHost } from "../serve/mod.ts";
import { answerHook } from "./answer_hook.ts";
import type { HookAnswer } from "./hook_answer.ts";
import { readHookInput } from "./hook_input.ts";
import { type HookOptions, HOST_DECIDES } from "./hook_options.ts";

/** The path `pab serve` answers Claude Code's HTTP hooks on. */
export const CLAUDE_CODE_HOOK_PATH = "/v1/hooks/claude-code";

/**
 * A route for {@linkcode CLAUDE_CODE_HOOK_PATH}: the hook's input in, the
 * hook's JSON output out (`{}` when there is nothing to say). A failure is
 * `deny` for `PreToolUse` and `{"decision":"block","reason":...}` for any
 * other event (Claude Code's blocking answer for `UserPromptSubmit` and
 * `PostToolUse`); the route itself never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { SessionHost } from "../serve/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { claudeCodeRoute } from "./hook_route.ts";
 * const host = new SessionHost(parsePolicy("version: 1\ntools:\n  Bash: {args: {command: {require: trusted}}}\n", { source: "p.yaml" }), await openStore());
 * const route = claudeCodeRoute(host);
 * const answer = await route({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf ~" } });
 * assert.equal((answer as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision, "deny");
 * const garbled = await route({ hook_event_name: "PreToolUse" });
 * assert.equal((garbled as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision, "deny");
 * host.store.close();
 * ```
 */
export function claudeCodeRoute(
  host: SessionHost,
  options: HookOptions = HOST_DECIDES,
): (body: unknown) => Promise<unknown> {
  return async (body) => {
    let answer: HookAnswer;
    try {
      answer = await answerHook(host, readHookInput(body), options);
    } catch (error) {
      answer = { stdout: "", exitCode: 2, stderr: `pab could not read this hook, so it blocks: ${errorText(error)}` };
    }
    if (answer.exitCode === 0) return answer.stdout ? JSON.parse(answer.stdout) : {};
    const reason = answer.stderr.trim();
    if (eventOf(body) === "PreToolUse") {
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: reason,
        },
      };
    }
    return { decision: "block", reason };
  };
}

/** The event a body names, if it names one; a body that names none may be a `PreToolUse`, and is answered as one. */
function eventOf(body: unknown): string {
  const event = typeof body === "object" && body !== null
    ? (body as Record<string, unknown>).hook_event_name
    : undefined;
  return typeof event === "string" && event !== "" ? event : "PreToolUse";
}
