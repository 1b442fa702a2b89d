/**
 * Answer a Claude Code hook from a session kept in the store (every hook is a
 * new process): `UserPromptSubmit` records the user's words (trusted),
 * `PostToolUse` records the tool's result under its label, as structured as it
 * came, and commits its effects (`PostToolUseFailure` records the error and
 * releases the call's reservation), `PreToolUse` decides: `deny` (with the
 * decision and the way to yes as the reason Claude reads), `ask` (the user
 * confirms), or, when pab has no objection, no decision at all, so that Claude
 * Code's own permission flow goes on as it would without pab (`allow` only for
 * the tools the options name). Whatever fails inside is a blocking answer.
 *
 * @module
 */
import { errorText, fingerprintCall, type Label, makeLabel } from "../../core/mod.ts";
import { explainDecision, ReservationError } from "../../guard/mod.ts";
import { RequestError, type SessionHost } from "../serve/mod.ts";
import { guardArgs } from "./tool_input/mod.ts";
import { failed, type HookAnswer, NO_DECISION, permission } from "./hook_answer.ts";
import { type HookInput, HookInputError } from "./hook_input.ts";
import { type HookOptions, HOST_DECIDES } from "./hook_options.ts";
import { keepResponse } from "./kept_response.ts";

/**
 * Answer one hook call. Never throws: a failure inside is {@linkcode failed} (exit 2).
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
 * assert.deepEqual(ls, { stdout: "", exitCode: 0, stderr: "" }); // no objection: Claude Code's own flow decides
 * const rm = await answerHook(host, { event: "PreToolUse", session: "abc", tool: "Bash", args: { command: "rm -rf ~" } });
 * assert.equal(JSON.parse(rm.stdout).hookSpecificOutput.permissionDecision, "deny");
 * host.store.close();
 * ```
 */
export async function answerHook(
  host: SessionHost,
  input: HookInput,
  options: HookOptions = HOST_DECIDES,
): Promise<HookAnswer> {
  if (input.event === "other") return NO_DECISION;
  const session = `cc_${input.session}`;
  try {
    await ensureSession(host, session);
    switch (input.event) {
      case "UserPromptSubmit":
        await host.message(session, "user", input.prompt);
        return NO_DECISION;
      case "PostToolUse":
      case "PostToolUseFailure":
        await finish(host, session, input, options.maxResultChars);
        return NO_DECISION;
      case "PreToolUse":
        return await preToolUse(host, session, input, options);
    }
  } catch (error) {
    return failed(errorText(error));
  }
}

async function preToolUse(
  host: SessionHost,
  session: string,
  input: Extract<HookInput, { event: "PreToolUse" }>,
  options: HookOptions,
): Promise<HookAnswer> {
  const result = await host.propose(session, {
    tool: input.tool,
    args: guardArgs(input.tool, input.args, input.cwd),
    accept: true, // each read is recorded and later calls are judged against it
    reservation: reservationId(input),
  });
  const explanation = explainDecision(result.decision);
  if (result.status === "reserved") {
    return options.allowTools.has(input.tool) ? permission("allow", `pab: ${explanation}`) : NO_DECISION;
  }
  if (result.decision.outcome === "confirm") return permission("ask", `pab asks you to confirm:\n${explanation}`);
  return permission("deny", `pab denied this call:\n${explanation}`);
}

async function finish(
  host: SessionHost,
  session: string,
  input: Extract<HookInput, { event: "PostToolUse" | "PostToolUseFailure" }>,
  limit: number | undefined,
): Promise<void> {
  const kept = input.event === "PostToolUse" ? keepResponse(input.response, limit) : undefined;
  // A response cut at the limit is less trusted than the tool's label, never more: what was cut vouches for nothing.
  const label = kept?.cut ? cutLabel(host, input.tool) : undefined;
  const outcome = input.event === "PostToolUse"
    ? { output: kept!.value, ...(label ? { label } : {}) }
    : { error: input.error };
  const args = guardArgs(input.tool, input.args, input.cwd);
  try {
    await host.commit(session, { reservation: reservationId(input), ...outcome });
  } catch (error) {
    if (!(error instanceof ReservationError)) throw error;
    // Not reserved (the user confirmed it after "ask"): it ran, so record it and commit its effects.
    if (!kept?.cut) {
      await host.result(session, { tool: input.tool, args, output: undefined, ...outcome, ran: true });
      return;
    }
    // Its effects are committed under its name; the cut output is recorded as an unlabelled tool's (the strictest).
    await host.result(session, { tool: input.tool, args, output: CUT_NOTE, ran: true });
    await host.result(session, { tool: `${input.tool} (cut by pab)`, args, output: kept.value });
  }
}

const CUT_NOTE = "[pab: this output was over the limit; what was kept is recorded as an unlabelled tool's]";

/** The tool's label with the lowest trust: same readers, suspicious. */
function cutLabel(host: SessionHost, tool: string): Label {
  const spec = Object.hasOwn(host.policy.tools, tool) ? host.policy.tools[tool].output : undefined;
  return makeLabel(spec?.kind === "label" ? spec.label.readers : [], "suspicious");
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
  if (input.toolUseId !== undefined) return `tu_${input.toolUseId}`;
  try {
    return `fp_${fingerprintCall(input.tool, input.args as Record<string, unknown>)}`;
  } catch (error) {
    // Arguments with no canonical form (nested past the stack's depth): the call cannot be named without its id.
    throw new HookInputError(
      `"tool_input" cannot be fingerprinted (${errorText(error)}) and there is no "tool_use_id"`,
    );
  }
}
