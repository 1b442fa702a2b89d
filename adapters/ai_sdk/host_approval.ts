/**
 * The approval the app asks for without pab, which the SDK no longer reads
 * once pab's `toolApproval` is given: the app's own `toolApproval` (a
 * function, or an answer or function per tool name), else the tool's
 * `needsApproval`, read in the SDK's order. A setting that throws denies the
 * call.
 *
 * @module
 */
import { errorText, isRecord } from "../../core/mod.ts";

/** The tool call `toolApproval` is asked about, as far as pab reads it. */
export interface ApprovalQuestion {
  /** The call (the SDK gives its `toolCallId`; without one, the user's approval cannot be bound to what was shown). */
  readonly toolCall: { readonly toolName: string; readonly input: unknown; readonly toolCallId?: string };
  /** The conversation so far, the SDK's `ModelMessage`s (tool results in it are recorded; passed on to `needsApproval`). */
  readonly messages?: readonly unknown[];
  /** Each tool's context (passed on to a tool's own `needsApproval`). */
  readonly toolsContext?: Readonly<Record<string, unknown>>;
  /** The run's context (passed on to the app's own `toolApproval`). */
  readonly runtimeContext?: unknown;
}

/**
 * The answers pab gives the SDK's `toolApproval` (a subset of its `ToolApprovalStatus`).
 *
 * @example
 * ```ts
 * import type { ApprovalStatus } from "./host_approval.ts";
 * const status: ApprovalStatus = { type: "user-approval", reason: "send_email: confirm" };
 * ```
 */
export type ApprovalStatus =
  | "not-applicable"
  | { readonly type: "user-approval"; readonly reason: string }
  | { readonly type: "denied"; readonly reason: string };

/**
 * The app's own `toolApproval` setting, as the SDK takes it: a function of
 * the question, or per tool name an answer (`"user-approval"`, `"denied"`,
 * ...) or a function of the input.
 *
 * @example
 * ```ts
 * import type { HostToolApproval } from "./host_approval.ts";
 * const approval: HostToolApproval = { delete_file: "user-approval" };
 * ```
 */
export type HostToolApproval =
  | ((question: ApprovalQuestion & { readonly tools?: unknown }) => unknown)
  | Readonly<Record<string, unknown>>;

/**
 * What the app's approval answers for a call: the SDK's answer, as pab gives
 * it back (`"not-applicable"` when it would run the call without asking).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostApproval } from "./host_approval.ts";
 * const question = { toolCall: { toolName: "delete_file", input: { path: "a" } } };
 * assert.deepEqual(hostApproval({ needsApproval: true }, question), {
 *   type: "user-approval",
 *   reason: "delete_file: the app asks for your approval (pab allows the call)",
 * });
 * assert.equal(hostApproval({}, question, { delete_file: "approved" }), "not-applicable");
 * ```
 */
export function hostApproval(
  tool: { readonly needsApproval?: unknown } | undefined,
  question: ApprovalQuestion,
  setting?: HostToolApproval,
): ApprovalStatus | Promise<ApprovalStatus> {
  const { toolCall } = question;
  const asked = (): unknown => {
    if (typeof setting === "function") return setting(question);
    const own = setting !== undefined && Object.hasOwn(setting, toolCall.toolName)
      ? setting[toolCall.toolName]
      : undefined;
    const context = question.toolsContext && Object.hasOwn(question.toolsContext, toolCall.toolName)
      ? question.toolsContext[toolCall.toolName]
      : undefined;
    const options = { toolCallId: toolCall.toolCallId, messages: question.messages ?? [] };
    if (typeof own === "function") {
      return own(toolCall.input, { ...options, toolContext: context, runtimeContext: question.runtimeContext });
    }
    if (own !== undefined && own !== null) return own;
    const needsApproval = Object.hasOwn(tool ?? {}, "needsApproval") ? tool?.needsApproval : undefined;
    const needed = typeof needsApproval === "function"
      ? needsApproval(toolCall.input, { ...options, context })
      : needsApproval;
    return whenKnown(needed, (value) => value ? "user-approval" : "not-applicable");
  };
  try {
    return whenKnown(asked(), (answer) => statusOf(toolCall.toolName, answer));
  } catch (error) {
    return failed(error);
  }
}

/**
 * `then` for a value that may or may not be a promise: synchronous when it is
 * not, and a promise that cannot reject when it is (a rejection denies).
 */
export function whenKnown<T, R>(value: T | Promise<T>, next: (value: T) => R): R | Promise<R | ApprovalStatus> {
  if (!(value instanceof Promise)) return next(value);
  return value.then(next, failed);
}

/** Whether an answer denies the call. */
export function isDenied(status: ApprovalStatus): boolean {
  return typeof status === "object" && status.type === "denied";
}

function failed(error: unknown): ApprovalStatus {
  return { type: "denied", reason: `pab denied this call: the app's approval setting failed: ${errorText(error)}` };
}

/** The SDK's answer (a string or `{type, reason}`), as pab gives it back. */
function statusOf(tool: string, answer: unknown): ApprovalStatus {
  const type = typeof answer === "string" ? answer : isRecord(answer) ? answer.type : answer;
  const given = isRecord(answer) && typeof answer.reason === "string" ? answer.reason : undefined;
  if (type === "denied") return { type: "denied", reason: given ?? `${tool}: the app denies this call` };
  if (type === "user-approval") {
    return { type: "user-approval", reason: given ?? `${tool}: the app asks for your approval (pab allows the call)` };
  }
  if (type === undefined || type === "not-applicable" || type === "approved") return "not-applicable";
  return { type: "denied", reason: `pab denied this call: the app's approval answered ${JSON.stringify(type)}` };
}
