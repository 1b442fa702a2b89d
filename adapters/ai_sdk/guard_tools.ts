/**
 * The guard in the Vercel AI SDK (`ai` 7): wrap a `tools` object so every
 * `execute` is decided first and its output recorded, and get the
 * `toolApproval` function that maps pab's decisions onto the SDK's tool
 * approval: `allow` runs, `confirm` asks the user (an approval request whose
 * reason is the decision), `block` is denied with the decision and the way to
 * yes as the reason the model reads.
 *
 * Translation only: every decision is the guard's.
 *
 * @module
 */
import { errorText, isRecord } from "../../core/mod.ts";
import type { ModelMessage } from "npm:ai@7.0.173";
import { explainDecision, type Guard, ShownDecisions, ToolCallDenied } from "../../guard/mod.ts";
import { MessageResults } from "./message_results.ts";
import { inputAsJson } from "./as_json.ts";

/** The tool call `toolApproval` is asked about, as far as pab reads it. */
export interface ApprovalQuestion {
  /** The call (the SDK gives its `toolCallId`; without one, the user's approval cannot be bound to what was shown). */
  readonly toolCall: { readonly toolName: string; readonly input: unknown; readonly toolCallId?: string };
  /** The conversation so far, the SDK's `ModelMessage`s (tool results in it are recorded; passed on to `needsApproval`). */
  readonly messages?: readonly unknown[];
  /** Each tool's context (passed on to a tool's own `needsApproval`). */
  readonly toolsContext?: Readonly<Record<string, unknown>>;
}

/**
 * An AI SDK `tools` object, as far as pab reads it (the SDK's `ToolSet` fits).
 *
 * @example
 * ```ts
 * import type { ToolsObject } from "./guard_tools.ts";
 * const tools: ToolsObject = { search: { execute: () => "found" } };
 * ```
 */
export type ToolsObject = Readonly<Record<string, { readonly execute?: unknown; readonly needsApproval?: unknown }>>;

/**
 * The answers pab gives the SDK's `toolApproval` (a subset of its `ToolApprovalStatus`).
 *
 * @example
 * ```ts
 * import type { ApprovalStatus } from "./guard_tools.ts";
 * const status: ApprovalStatus = { type: "user-approval", reason: "send_email: confirm" };
 * ```
 */
export type ApprovalStatus =
  | "not-applicable"
  | { readonly type: "user-approval"; readonly reason: string }
  | { readonly type: "denied"; readonly reason: string };

/** What {@linkcode guardTools} returns: pass both to `generateText` / `streamText` / `ToolLoopAgent`. */
export interface GuardedTools<TOOLS extends ToolsObject> {
  /** The same tools, each `execute` decided by the guard first and its output recorded. */
  readonly tools: TOOLS;
  /**
   * The SDK's `toolApproval` option, answered from the guard's decisions and
   * each tool's own `needsApproval` (a promise only when that is a function).
   */
  readonly toolApproval: (options: ApprovalQuestion) => ApprovalStatus | Promise<ApprovalStatus>;
}

/**
 * Put the guard in front of an AI SDK `tools` object.
 *
 * A call the user approved (a `tool-approval-response` with `approved: true`,
 * not an automatic one, for the request of this exact tool call id) counts as
 * the user's confirmation of the decision `toolApproval` showed for that call
 * (`Guard.confirmShown`): when the guard decides it again at `execute`, the
 * approval waives exactly the gaps shown, under the label shown; a gap that
 * appeared since (another untrusted read, a changed label) stays open and the
 * call is denied. Keep the guard across requests: an approval for a call this
 * guard never showed is not honoured. A tool whose `execute` streams (an
 * async iterable) is recorded with its final output.
 *
 * Never weaker than the SDK: the SDK reads `toolApproval` instead of each
 * tool's own `needsApproval`, so pab reads it for the SDK. A call the guard
 * allows still asks the user when its tool's `needsApproval` asks (a
 * `needsApproval` that throws denies the call); a call the guard blocks is
 * denied whatever the tool says.
 *
 * When asking the user, skip the SDK's automatic approval requests
 * (`isAutomatic: true`: pab's denials, which no one is asked about), and add
 * the response messages once, with every answer in one `tool` message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { guardTools } from "./guard_tools.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  send_email: {args: {to: {require: trusted}}}\n"));
 * const { toolApproval } = guardTools(guard, {
 *   send_email: { execute: ({ to }: { to: string }) => `sent to ${to}` },
 * });
 * const status = await toolApproval({ toolCall: { toolName: "send_email", input: { to: "eve@attacker.example" } } });
 * assert.equal(typeof status === "object" && status?.type, "denied");
 * ```
 */
export function guardTools<TOOLS extends ToolsObject>(guard: Guard, tools: TOOLS): GuardedTools<TOOLS> {
  const guarded: Record<string, unknown> = {};
  const appRun = new Set(Object.keys(tools).filter((name) => typeof tools[name].execute !== "function"));
  const results = new MessageResults(guard, appRun);
  for (const [name, original] of Object.entries(tools)) {
    const execute = original.execute as ((input: unknown, options: unknown) => unknown) | undefined;
    if (typeof execute !== "function") {
      guarded[name] = original;
      continue;
    }
    guarded[name] = {
      ...original,
      execute: async (input: unknown, options: { toolCallId: string; messages: ModelMessage[] }) => {
        results.recordNew(options.messages);
        results.ran(options.toolCallId);
        // The user's yes binds to the decision toolApproval showed them, and is forgotten once used.
        const ruling = userApproved(options.messages, options.toolCallId)
          ? ShownDecisions.of(guard).confirmation(guard, options.toolCallId)
          : undefined;
        const read = inputAsJson(input);
        const outcome = await guard.propose(name, asArgs(read.value), {
          accept: true,
          ...(ruling ? { rulings: [ruling] } : {}),
          // Run on exactly the arguments the guard decided on (its private copy).
          // (A schema's own values, which are not JSON, reach the tool as the SDK made them.)
          run: async (decided) => await finalValue(execute(read.exact && isRecord(input) ? decided : input, options)),
        });
        if (outcome.status === "done") return outcome.value;
        throw new ToolCallDenied(outcome.decision);
      },
    };
  }
  return Object.freeze({
    tools: guarded as TOOLS,
    toolApproval: (question: ApprovalQuestion): ApprovalStatus | Promise<ApprovalStatus> => {
      const { toolCall } = question;
      let decision;
      try {
        results.recordNew(question.messages as readonly ModelMessage[] | undefined);
        decision = guard.decide(toolCall.toolName, asArgs(inputAsJson(toolCall.input).value));
      } catch (error) {
        return { type: "denied", reason: `pab denied this call: ${errorText(error)}` };
      }
      if (decision.outcome === "allow") return hostApproval(tools[toolCall.toolName], toolCall, question);
      if (decision.outcome === "confirm" && typeof toolCall.toolCallId === "string") {
        ShownDecisions.of(guard).remember(toolCall.toolCallId, decision);
      }
      const reason = explainDecision(decision);
      return decision.outcome === "confirm"
        ? { type: "user-approval", reason }
        : { type: "denied", reason: `pab denied this call: ${reason}` };
    },
  });
}

/**
 * What the tool's own `needsApproval` answers for a call the guard allows:
 * the SDK would have asked it had `toolApproval` not been given.
 */
function hostApproval(
  tool: ToolsObject[string] | undefined,
  toolCall: ApprovalQuestion["toolCall"],
  question: ApprovalQuestion,
): ApprovalStatus | Promise<ApprovalStatus> {
  const needsApproval = Object.hasOwn(tool ?? {}, "needsApproval") ? tool?.needsApproval : undefined;
  const asks: ApprovalStatus = {
    type: "user-approval",
    reason: `${toolCall.toolName}: the tool asks for your approval (pab allows the call)`,
  };
  if (typeof needsApproval !== "function") return needsApproval ? asks : "not-applicable";
  const answer = async (): Promise<ApprovalStatus> => {
    try {
      const context = question.toolsContext && Object.hasOwn(question.toolsContext, toolCall.toolName)
        ? question.toolsContext[toolCall.toolName]
        : undefined;
      const needed = await needsApproval(toolCall.input, {
        toolCallId: toolCall.toolCallId,
        messages: question.messages ?? [],
        context,
      });
      return needed ? asks : "not-applicable";
    } catch (error) {
      return { type: "denied", reason: `pab denied this call: the tool's needsApproval failed: ${errorText(error)}` };
    }
  };
  return answer();
}

/** Whether the messages hold the user's (not an automatic) approval of this tool call. */
function userApproved(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  const requests = new Set<string>();
  for (const message of messages ?? []) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId && part.isAutomatic !== true) {
        requests.add(part.approvalId);
      }
    }
  }
  for (const message of messages ?? []) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-response" && requests.has(part.approvalId) && part.approved === true) {
        return true;
      }
    }
  }
  return false;
}

/** A tool's input as the guard reads it: an object of named arguments (anything else under `input`). */
function asArgs(input: unknown): Record<string, unknown> {
  return isRecord(input) ? input : { input };
}

async function finalValue(value: unknown): Promise<unknown> {
  const resolved = await value;
  if (typeof resolved !== "object" || resolved === null || !(Symbol.asyncIterator in resolved)) return resolved;
  let last: unknown;
  for await (const item of resolved as AsyncIterable<unknown>) last = item;
  return last;
}
