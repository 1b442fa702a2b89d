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
import {
  type ApprovalQuestion,
  type ApprovalStatus,
  hostApproval,
  type HostToolApproval,
  isDenied,
  whenKnown,
} from "./host_approval.ts";

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

/** Options for {@linkcode guardTools}. */
export interface GuardToolsOptions {
  /**
   * The `toolApproval` the app gave the SDK before pab (a function, or an
   * answer or function per tool name): still asked for every call pab does
   * not block, so pab is never weaker than it. A call it denies is denied; a
   * call it asks about is asked about.
   */
  readonly toolApproval?: HostToolApproval;
}

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
 * tool's own `needsApproval` (and instead of the app's own `toolApproval`,
 * which `options.toolApproval` takes), so pab reads them for the SDK. A call
 * the guard allows still asks the user when they ask, and is denied when
 * they deny; a call the guard asks about is denied when they deny; a setting
 * that throws denies the call; a call the guard blocks is denied whatever
 * they say.
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
export function guardTools<TOOLS extends ToolsObject>(
  guard: Guard,
  tools: TOOLS,
  options: GuardToolsOptions = {},
): GuardedTools<TOOLS> {
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
      const reason = explainDecision(decision);
      if (decision.outcome === "block") return { type: "denied", reason: `pab denied this call: ${reason}` };
      const tool = Object.hasOwn(tools, toolCall.toolName) ? tools[toolCall.toolName] : undefined;
      const host = hostApproval(tool, question, options.toolApproval);
      if (decision.outcome === "allow") return host;
      if (typeof toolCall.toolCallId === "string") ShownDecisions.of(guard).remember(toolCall.toolCallId, decision);
      // pab asks, unless the host denies the call outright.
      return whenKnown(host, (status) => isDenied(status) ? status : { type: "user-approval", reason });
    },
  });
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
