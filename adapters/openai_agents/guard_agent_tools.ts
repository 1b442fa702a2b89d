/**
 * The guard in the OpenAI Agents SDK (`@openai/agents` 0.20): every function
 * tool gets
 *
 * - a tool input guardrail that decides the call before it runs: a `block`
 *   is rejected with the decision and the way to yes as the content the
 *   model reads;
 * - `needsApproval` that asks for the user's approval when the decision is
 *   `confirm` or the tool's own `needsApproval` asks (one question: pab's
 *   explanation, when it has one, is what the user is shown; the run stops with an interruption; show the user
 *   {@linkcode explainApproval}, then `state.approve(item)` or
 *   `state.reject(item)`, and run the state again);
 * - an `invoke` that proposes the call to the guard once more at the moment
 *   it runs (an approval of this exact call id is the user's confirmation of
 *   the decision they were shown, `Guard.confirmShown`: it waives exactly the
 *   gaps shown under the label shown, and a gap that appeared since stays
 *   open), then records its output under its label and commits its effects,
 *   in the same step: no output is ever left unrecorded.
 *
 * Other tools (hosted, computer, shell) are returned unchanged: pab cannot
 * see their arguments in the same form, so name them in no policy you rely on.
 * Their results reach the model all the same: give the runner
 * `recordModelInput(guard)` so they are recorded (as untrusted).
 * Translation only: every decision is the guard's.
 *
 * @module
 */
import { errorText, isRecord } from "../../core/mod.ts";
import type { FunctionTool, RunContext, ToolInputGuardrailDefinition } from "npm:@openai/agents@0.20.0";
import { type Decision, explainDecision, type Guard, ShownDecisions } from "../../guard/mod.ts";
import { parseJson } from "../json/mod.ts";
import { knownResults } from "./record_model_input.ts";

/**
 * An agent's tool, as far as pab reads it (the SDK's `Tool` fits): function
 * tools are guarded, every other kind is returned unchanged.
 *
 * @example
 * ```ts
 * import type { AgentTool } from "./guard_agent_tools.ts";
 * const tools: AgentTool[] = [{ type: "hosted_tool" }];
 * ```
 */
export interface AgentTool {
  /** `function` for a function tool. */
  readonly type: string;
}
// deno-lint-ignore no-explicit-any
type AgentFunctionTool = FunctionTool<any, any, any>;

/**
 * Put the guard in front of an agent's tools. Pass the result as the agent's
 * `tools`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tool } from "npm:@openai/agents@0.20.0";
 * import * as z from "npm:zod@4.6.7";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { guardAgentTools } from "./guard_agent_tools.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  send_email: {args: {to: {require: trusted}}}\n"));
 * const [sendEmail] = guardAgentTools(guard, [
 *   tool({ name: "send_email", description: "Send", parameters: z.object({ to: z.string() }), execute: ({ to }) => `sent to ${to}` }),
 * ]);
 * assert.equal(sendEmail.type === "function" && sendEmail.inputGuardrails?.at(-1)?.name, "pab");
 * ```
 */
export function guardAgentTools<TOOLS extends readonly AgentTool[]>(guard: Guard, tools: TOOLS): TOOLS {
  return tools.map((tool) =>
    tool.type === "function" ? guardFunctionTool(guard, tool as AgentFunctionTool) : tool
  ) as unknown as TOOLS;
}

/**
 * pab's explanation for an approval item of a run interrupted by
 * {@linkcode guardAgentTools}: the decision the user is asked about (its gaps,
 * the sources that supplied each value, and the way to yes), to show beside
 * the item. `undefined` for an item pab did not ask about.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { explainApproval } from "./guard_agent_tools.ts";
 * const guard = new Guard(parsePolicy("version: 1\n"));
 * assert.equal(explainApproval(guard, { rawItem: { callId: "c1" } }), undefined);
 * ```
 */
export function explainApproval(guard: Guard, item: { readonly rawItem: object }): string | undefined {
  const callId = (item.rawItem as { readonly callId?: unknown }).callId;
  const shown = typeof callId === "string" ? ShownDecisions.of(guard).peek(callId) : undefined;
  return shown ? `pab asks you to confirm: ${explainDecision(shown)}` : undefined;
}

function guardFunctionTool(guard: Guard, original: AgentFunctionTool): AgentFunctionTool {
  const name = original.name;
  const inputGuardrail: ToolInputGuardrailDefinition<unknown> = {
    type: "tool_input",
    name: "pab",
    run: ({ context, toolCall }) => {
      knownResults(guard).add(toolCall.callId); // Its result is pab's: recorded by invoke, or pab's own denial.
      const decision = decideSafely(guard, name, parseArguments(toolCall.arguments));
      const approved = context.isToolApproved({ toolName: name, callId: toolCall.callId }) === true;
      if (decision.outcome === "allow" || (decision.outcome === "confirm" && approved)) {
        return Promise.resolve({ behavior: { type: "allow" } });
      }
      return Promise.resolve({ behavior: { type: "rejectContent", message: denial(decision) } });
    },
  };
  return {
    ...original,
    inputGuardrails: [...(original.inputGuardrails ?? []), inputGuardrail],
    needsApproval: async (context: RunContext, input: unknown, callId?: string) => {
      // pab's question is remembered even when the tool asks too: one question, and the yes binds to it.
      const decision = decideSafely(guard, name, asArgs(input));
      const pabAsks = decision.outcome === "confirm";
      if (typeof callId === "string") knownResults(guard).add(callId);
      if (pabAsks && typeof callId === "string") ShownDecisions.of(guard).remember(callId, decision);
      return await original.needsApproval(context, input as never, callId) || pabAsks;
    },
    invoke: async (context, input, details) => {
      const callId = details?.toolCall?.callId;
      if (callId !== undefined) knownResults(guard).add(callId);
      const approved = callId !== undefined && context.isToolApproved({ toolName: name, callId }) === true;
      // The user's yes binds to the decision needsApproval showed them, and is forgotten once used.
      const ruling = approved ? ShownDecisions.of(guard).confirmation(guard, callId) : undefined;
      const outcome = await guard.propose(name, parseArguments(input), {
        accept: true,
        ...(ruling ? { rulings: [ruling] } : {}),
        run: () => original.invoke(context, input, details),
      });
      return outcome.status === "done" ? outcome.value as string : denial(outcome.decision);
    },
  };
}

/** A decision the guard could not make: the call is denied. */
interface GuardFailure {
  readonly outcome: "error";
  readonly message: string;
}

function decideSafely(guard: Guard, tool: string, args: Record<string, unknown>): Decision | GuardFailure {
  try {
    return guard.decide(tool, args);
  } catch (error) {
    return { outcome: "error", message: errorText(error) };
  }
}

function denial(decision: Decision | GuardFailure): string {
  return decision.outcome === "error"
    ? `pab denied this call: the guard failed: ${decision.message}`
    : `pab denied this call: ${explainDecision(decision)}`;
}

/** A tool call's JSON arguments as the guard reads them (anything but an object becomes `{input}`). */
function parseArguments(text: string): Record<string, unknown> {
  try {
    return asArgs(parseJson(text || "{}"));
  } catch {
    return { input: text };
  }
}

function asArgs(input: unknown): Record<string, unknown> {
  return isRecord(input) ? input : { input };
}
