/**
 * Claude Code hooks: `pab hook claude-code` reads a hook's JSON on stdin and
 * answers in Claude Code's documented form, with each session's state in a
 * store because every hook is a new process.
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
export { answerHook, type HookAnswer, MAX_RESULT_CHARS } from "./answer_hook.ts";
export { type HookInput, HookInputError, parseHookInput, readHookInput } from "./hook_input.ts";
export { CLAUDE_CODE_HOOK_PATH, claudeCodeRoute } from "./hook_route.ts";
