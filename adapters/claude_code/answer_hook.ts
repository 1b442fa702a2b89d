/**
 * Answer a Claude Code hook from a session kept in the store (every hook is a
 * new process): `UserPromptSubmit` records the user's words (trusted),
 * `PostToolUse` records the tool's result under its label and commits its
 * effects (`PostToolUseFailure` records the error and releases the call's
 * reservation), `PreToolUse` decides and answers `allow`, `deny` (with the decision
 * and the way to yes as the reason Claude reads) or `ask` (the user confirms).
 *
 * @module
 */
import { fingerprintCall } from "../../core/mod.ts";
import { explainDecision } from "../../guard/mod.ts";
import { RequestError, type SessionHost } from "../serve/mod.ts";
import type { HookInput } from "./hook_input.ts";

/** What the hook process prints and exits with. */
export interface HookAnswer {
  /** JSON for Claude Code on stdout (empty when there is nothing to say). */
  readonly stdout: string;
  /** The exit code: 0, or 2 to block with `stderr` as the reason. */
  readonly exitCode: number;
  /** Text for stderr. */
  readonly stderr: string;
}

/** Tool results longer than this (as JSON text) are kept truncated: what is cut vouches for nothing. */
export const MAX_RESULT_CHARS = 200_000;

/**
 * Answer one hook call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { SessionHost } from "../serve/mod.ts";
 * import { openStore } from "../store/mod.ts";
 * import { answerHook } from "./answer_hook.ts";
 * const policy = parsePolicy("version: 1\ntools:\n  Bash: {args: {command: {require: trusted}}}\n", { source: "p.yaml" });
 * const host = new SessionHost(policy, await openStore());
 * await answerHook(host, { event: "UserPromptSubmit", session: "abc", prompt: "list the files with ls -la" });
 * const ls = await answerHook(host, { event: "PreToolUse", session: "abc", tool: "Bash", args: { command: "ls -la" } });
 * assert.equal(JSON.parse(ls.stdout).hookSpecificOutput.permissionDecision, "allow");
 * const rm = await answerHook(host, { event: "PreToolUse", session: "abc", tool: "Bash", args: { command: "rm -rf ~" } });
 * assert.equal(JSON.parse(rm.stdout).hookSpecificOutput.permissionDecision, "deny");
 * host.store.close();
 * ```
 */
export async function answerHook(host: SessionHost, input: HookInput): Promise<HookAnswer> {
  const session = `cc_${input.session}`;
  if (input.event === "other") return { stdout: "", exitCode: 0, stderr: "" };
  try {
    await ensureSession(host, session);
    switch (input.event) {
      case "UserPromptSubmit":
        await host.message(session, "user", input.prompt);
        return { stdout: "", exitCode: 0, stderr: "" };
      case "PostToolUse":
      case "PostToolUseFailure":
        await finish(host, session, input);
        return { stdout: "", exitCode: 0, stderr: "" };
      case "PreToolUse":
        return await preToolUse(host, session, input);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (input.event === "PreToolUse") {
      return permission("deny", `pab could not decide, so the call is denied: ${message}`);
    }
    return { stdout: "", exitCode: 1, stderr: `pab: ${message}\n` };
  }
}

async function preToolUse(
  host: SessionHost,
  session: string,
  input: Extract<HookInput, { event: "PreToolUse" }>,
): Promise<HookAnswer> {
  const result = await host.propose(session, {
    tool: input.tool,
    args: input.args,
    accept: true, // each read is recorded and later calls are judged against it
    reservation: reservationId(input),
  });
  const explanation = explainDecision(result.decision);
  if (result.status === "reserved") return permission("allow", `pab: ${explanation}`);
  if (result.decision.outcome === "confirm") return permission("ask", `pab asks you to confirm:\n${explanation}`);
  return permission("deny", `pab denied this call:\n${explanation}`);
}

async function finish(
  host: SessionHost,
  session: string,
  input: Extract<HookInput, { event: "PostToolUse" | "PostToolUseFailure" }>,
): Promise<void> {
  const outcome = input.event === "PostToolUse" ? { output: bounded(input.response) } : { error: input.error };
  try {
    await host.commit(session, { reservation: reservationId(input), ...outcome });
  } catch (error) {
    if (!(error instanceof RequestError) || error.code !== "ERR_RESERVATION_UNKNOWN") throw error;
    // Not reserved (the user confirmed it after "ask"): it ran, so record it and commit its effects.
    await host.result(session, { tool: input.tool, args: input.args, output: undefined, ...outcome, ran: true });
  }
}

async function ensureSession(host: SessionHost, session: string): Promise<void> {
  if (await host.has(session)) return;
  try {
    await host.create({ id: session });
  } catch (error) {
    // A parallel hook of the same session made it first.
    if (!(error instanceof RequestError) || error.code !== "ERR_SESSION_EXISTS") throw error;
  }
}

function reservationId(input: { readonly tool: string; readonly args: object; readonly toolUseId?: string }): string {
  return input.toolUseId !== undefined
    ? `tu_${input.toolUseId}`
    : `fp_${fingerprintCall(input.tool, input.args as Record<string, unknown>)}`;
}

function bounded(response: unknown): unknown {
  const text = typeof response === "string" ? response : JSON.stringify(response) ?? "";
  if (text.length <= MAX_RESULT_CHARS) return response;
  return `${text.slice(0, MAX_RESULT_CHARS)}\n[pab: ${text.length - MAX_RESULT_CHARS} more characters not kept]`;
}

function permission(decision: "allow" | "deny" | "ask", reason: string): HookAnswer {
  const stdout = JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason },
  });
  return { stdout: `${stdout}\n`, exitCode: 0, stderr: "" };
}
