/**
 * The `hooks` block of Claude Code's `.claude/settings.json` that runs pab,
 * in command or HTTP form, and its merge into a user's existing settings
 * (every other setting and every other hook kept; pab's earlier entries
 * replaced). Both forms fail closed: `"onFailure": "block"` makes a hook that
 * cannot start, times out or answers an unexpected code block the call, and
 * the command form also turns any exit code but 0 and 2 into 2 (a crash of
 * the runtime itself), for Claude Code versions without `onFailure`.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";

/** The events pab answers, and whether each takes a tool matcher. */
const EVENTS: readonly (readonly [string, boolean])[] = [
  ["UserPromptSubmit", false],
  ["PreToolUse", true],
  ["PostToolUse", true],
  ["PostToolUseFailure", true],
];

/** How Claude Code reaches pab. */
export type HookForm =
  /** A process per hook: the shell command that runs `pab hook claude-code`. */
  | { readonly kind: "command"; readonly command: string; readonly timeoutSeconds?: number }
  /** `pab serve`'s endpoint; `tokenVariable` names the environment variable holding its bearer token. */
  | { readonly kind: "http"; readonly url: string; readonly tokenVariable?: string; readonly timeoutSeconds?: number };

/** One hook handler as Claude Code's settings write it. */
export type HookHandler = Readonly<Record<string, unknown>>;

/** The `hooks` object: event name to matcher groups. */
export type HooksBlock = Readonly<
  Record<string, readonly { readonly matcher?: string; readonly hooks: readonly HookHandler[] }[]>
>;

/**
 * The `hooks` block for `form`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hooksBlock } from "./hook_settings.ts";
 * const block = hooksBlock({ kind: "http", url: "http://localhost:4517/v1/hooks/claude-code" });
 * assert.deepEqual(block.PreToolUse, [{
 *   matcher: "*",
 *   hooks: [{ type: "http", url: "http://localhost:4517/v1/hooks/claude-code", timeout: 10, onFailure: "block" }],
 * }]);
 * const command = hooksBlock({ kind: "command", command: "pab hook claude-code --policy /p.yaml" });
 * assert.equal(command.UserPromptSubmit[0].hooks[0].command, "pab hook claude-code --policy /p.yaml || exit 2");
 * ```
 */
export function hooksBlock(form: HookForm): HooksBlock {
  const handler: HookHandler = form.kind === "command"
    ? { type: "command", command: `${form.command} || exit 2`, timeout: form.timeoutSeconds ?? 30, onFailure: "block" }
    : {
      type: "http",
      url: form.url,
      ...(form.tokenVariable
        ? { headers: { Authorization: `Bearer $${form.tokenVariable}` }, allowedEnvVars: [form.tokenVariable] }
        : {}),
      timeout: form.timeoutSeconds ?? 10,
      onFailure: "block",
    };
  const block: Record<string, { matcher?: string; hooks: HookHandler[] }[]> = {};
  for (const [event, matched] of EVENTS) block[event] = [{ ...(matched ? { matcher: "*" } : {}), hooks: [handler] }];
  return block;
}

/**
 * Merge `block` into `settings` (a parsed `settings.json`, or `undefined` for
 * none): every other key and every other hook is kept, in order; a handler of
 * pab's from an earlier merge (a command running `hook claude-code`, or a URL
 * ending in `/v1/hooks/claude-code`) is replaced. Throws a `TypeError` when
 * `settings` or its `hooks` is not shaped as Claude Code reads it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hooksBlock, mergeHookSettings } from "./hook_settings.ts";
 * const mine = { model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } };
 * const block = hooksBlock({ kind: "http", url: "http://localhost:4517/v1/hooks/claude-code" });
 * const merged = mergeHookSettings(mine, block);
 * assert.equal(merged.model, "opus");
 * assert.deepEqual(merged.hooks.Stop, mine.hooks.Stop);
 * assert.deepEqual(mergeHookSettings(merged, block), merged); // merging again changes nothing
 * ```
 */
export function mergeHookSettings(
  settings: unknown,
  block: HooksBlock,
): Record<string, unknown> & { hooks: Record<string, unknown[]> } {
  if (settings !== undefined && !isRecord(settings)) {
    throw new TypeError("Cannot merge into the settings: they are not a JSON object");
  }
  const base = settings ?? {};
  const hooks = base.hooks ?? {};
  if (!isRecord(hooks)) throw new TypeError('Cannot merge into the settings: "hooks" is not an object');
  const merged: Record<string, unknown[]> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) throw new TypeError(`Cannot merge into the settings: "hooks.${event}" is not a list`);
    merged[event] = groups.flatMap((group) => withoutPab(group));
  }
  for (const [event, groups] of Object.entries(block)) merged[event] = [...(merged[event] ?? []), ...groups];
  return { ...base, hooks: merged };
}

/** A matcher group with pab's handlers taken out; nothing when pab's were its only ones. */
function withoutPab(group: unknown): unknown[] {
  if (!isRecord(group) || !Array.isArray(group.hooks)) return [group];
  const kept = group.hooks.filter((handler) => !isPabHandler(handler));
  if (kept.length === group.hooks.length) return [group];
  return kept.length ? [{ ...group, hooks: kept }] : [];
}

function isPabHandler(handler: unknown): boolean {
  if (!isRecord(handler)) return false;
  if (handler.type === "command" && typeof handler.command === "string") {
    return /\bhook claude-code\b/.test(handler.command);
  }
  return handler.type === "http" && typeof handler.url === "string" && /\/v1\/hooks\/claude-code$/.test(handler.url);
}
