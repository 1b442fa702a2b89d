/**
 * Claude Code's hooks as an endpoint of `pab serve` (`POST
 * /v1/hooks/claude-code`), for Claude Code's `http` hooks: the same JSON in and
 * out as the command hook, without starting a process per hook.
 *
 * @module
 */
import { RequestError, type SessionHost } from "../serve/mod.ts";
import { answerHook } from "./answer_hook.ts";
import { readHookInput } from "./hook_input.ts";

/** The path `pab serve` answers Claude Code's HTTP hooks on. */
export const CLAUDE_CODE_HOOK_PATH = "/v1/hooks/claude-code";

/**
 * A route for {@linkcode CLAUDE_CODE_HOOK_PATH}: the hook's input in, the
 * hook's JSON output out (`{}` when there is nothing to say).
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
 * ```
 */
export function claudeCodeRoute(host: SessionHost): (body: unknown) => Promise<unknown> {
  return async (body) => {
    const answer = await answerHook(host, readHookInput(body));
    if (answer.exitCode !== 0) throw new RequestError(500, "ERR_INTERNAL", answer.stderr.trim());
    return answer.stdout ? JSON.parse(answer.stdout) : {};
  };
}
