/**
 * Claude Code hooks: `pab hook claude-code` reads a hook's JSON on stdin and
 * answers in Claude Code's documented form, with each session's state in a
 * store because every hook is a new process. Where pab has no objection it
 * says nothing, so Claude Code's own permission flow decides.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHookInput } from "./mod.ts";
 * const input = parseHookInput('{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":"hi"}');
 * assert.deepEqual(input, { event: "UserPromptSubmit", session: "s1", prompt: "hi" });
 * ```
 *
 * @module
 */
export { answerHook } from "./answer_hook.ts";
export { failed, type HookAnswer, NO_DECISION, permission } from "./hook_answer.ts";
export {
  HOOK_ERROR_CODES,
  type HookErrorCode,
  type HookInput,
  HookInputError,
  parseHookInput,
  readHookInput,
} from "./hook_input.ts";
export { type HookOptions, hookOptions, HOST_DECIDES } from "./hook_options.ts";
export { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "./hook_route.ts";
export { type HookForm, type HookHandler, type HooksBlock, hooksBlock, mergeHookSettings } from "./hook_settings.ts";
export { keepResponse, type KeptResponse, MAX_RESULT_CHARS, MAX_RESULT_DEPTH } from "./kept_response.ts";
export {
  type CommandTargets,
  commandTargets,
  guardArgs,
  MAX_COMMAND_CHARS,
  resolvePath,
  shellCommands,
  shellWords,
} from "./tool_input/mod.ts";
export { STARTER_POLICY } from "./starter_policy.ts";
