/**
 * Claude Code's hook input (JSON on stdin), checked: the fields pab reads from
 * `UserPromptSubmit`, `PreToolUse` and `PostToolUse`.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";
import { parseJson } from "../json/mod.ts";

/** What a hook was called for, with the fields pab uses. */
export type HookInput =
  /** The user submitted a prompt. */
  | { readonly event: "UserPromptSubmit"; readonly session: string; readonly prompt: string }
  /** Claude is about to call a tool. */
  | {
    readonly event: "PreToolUse";
    readonly session: string;
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly toolUseId?: string;
    /** The folder Claude Code runs in (the payload's `cwd`), when it is given. */
    readonly cwd?: string;
  }
  /** A tool returned. */
  | {
    readonly event: "PostToolUse";
    readonly session: string;
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly response: unknown;
    readonly toolUseId?: string;
    /** The folder Claude Code runs in (the payload's `cwd`), when it is given. */
    readonly cwd?: string;
  }
  /** A tool call failed (Claude Code's `PostToolUseFailure`): its reservation is released. */
  | {
    readonly event: "PostToolUseFailure";
    readonly session: string;
    readonly tool: string;
    readonly args: Readonly<Record<string, unknown>>;
    readonly error: string;
    readonly toolUseId?: string;
    /** The folder Claude Code runs in (the payload's `cwd`), when it is given. */
    readonly cwd?: string;
  }
  /** Any other event: pab has nothing to do. */
  | { readonly event: "other"; readonly session: string; readonly name: string };

/** Every code a {@linkcode HookInputError} carries (a closed list). */
export const HOOK_ERROR_CODES = ["ERR_HOOK_INPUT"] as const;

/** A code of {@linkcode HOOK_ERROR_CODES}. */
export type HookErrorCode = typeof HOOK_ERROR_CODES[number];

/**
 * The hook input could not be read. Code `ERR_HOOK_INPUT`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HookInputError } from "./hook_input.ts";
 * assert.equal(new HookInputError("no session_id").code, "ERR_HOOK_INPUT");
 * ```
 */
export class HookInputError extends PabError<HookErrorCode> {
  /** Make a hook input error. */
  constructor(problem: string) {
    super("ERR_HOOK_INPUT", `Cannot read the Claude Code hook input: ${problem}`);
    this.name = "HookInputError";
  }
}

/**
 * Read the hook's JSON text, or its bytes as read from stdin (UTF-8, as
 * Claude Code writes it: bytes that are not fail, since a text read with
 * U+FFFD in their place is not the one the tool is given). Throws
 * {@linkcode HookInputError} naming the field that is missing or mistyped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHookInput } from "./hook_input.ts";
 * const input = parseHookInput(JSON.stringify({
 *   session_id: "abc123",
 *   hook_event_name: "PreToolUse",
 *   tool_name: "Bash",
 *   tool_input: { command: "ls" },
 * }));
 * assert.deepEqual(input, { event: "PreToolUse", session: "abc123", tool: "Bash", args: { command: "ls" } });
 * assert.throws(() => parseHookInput(new Uint8Array([0x7b, 0xff, 0x7d])), /stdin is not UTF-8 text/);
 * ```
 */
export function parseHookInput(input: string | Uint8Array): HookInput {
  let text: string;
  try {
    text = typeof input === "string" ? input : new TextDecoder("utf-8", { fatal: true }).decode(input);
  } catch {
    throw new HookInputError("stdin is not UTF-8 text");
  }
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    throw new HookInputError("stdin is not JSON");
  }
  return readHookInput(value);
}

/**
 * Read a hook's input already parsed from JSON (the body of an HTTP hook).
 * Throws {@linkcode HookInputError} naming the field that is missing or mistyped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHookInput } from "./hook_input.ts";
 * assert.throws(() => readHookInput({ hook_event_name: "Stop" }), { code: "ERR_HOOK_INPUT" });
 * ```
 */
export function readHookInput(value: unknown): HookInput {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HookInputError("the input must be a JSON object");
  }
  const body = value as Record<string, unknown>;
  const session = body.session_id;
  if (typeof session !== "string" || !session || session.length > 200) {
    throw new HookInputError('"session_id" must be a string of 1 to 200 characters');
  }
  const event = body.hook_event_name;
  if (typeof event !== "string") throw new HookInputError('"hook_event_name" must be a string');
  // Claude Code's ids are short; one too long for a store key would fail only after the call's keys were reserved.
  if (typeof body.tool_use_id === "string" && body.tool_use_id.length > 200) {
    throw new HookInputError('"tool_use_id" must be a string of at most 200 characters');
  }
  const toolUseId = typeof body.tool_use_id === "string" && body.tool_use_id ? { toolUseId: body.tool_use_id } : {};
  const cwd = typeof body.cwd === "string" && body.cwd.startsWith("/") ? { cwd: body.cwd } : {};
  switch (event) {
    case "UserPromptSubmit":
      if (typeof body.prompt !== "string") throw new HookInputError('"prompt" must be a string');
      return { event, session, prompt: body.prompt };
    case "PreToolUse":
      return { event, session, ...toolCall(body), ...toolUseId, ...cwd };
    case "PostToolUse":
      return { event, session, ...toolCall(body), response: body.tool_response, ...toolUseId, ...cwd };
    case "PostToolUseFailure":
      return {
        event,
        session,
        ...toolCall(body),
        error: typeof body.error === "string" ? body.error : "the tool failed",
        ...toolUseId,
        ...cwd,
      };
    default:
      return { event: "other", session, name: event };
  }
}

function toolCall(body: Record<string, unknown>): { tool: string; args: Readonly<Record<string, unknown>> } {
  if (typeof body.tool_name !== "string" || !body.tool_name) {
    throw new HookInputError('"tool_name" must be a non-empty string');
  }
  const args = body.tool_input ?? {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new HookInputError('"tool_input" must be an object');
  }
  return { tool: body.tool_name, args: args as Record<string, unknown> };
}
