/**
 * Traces: a recorded conversation between a user, an agent and its tools, as
 * plain data.
 *
 * A trace is the same whether it was read from a pab trace (JSONL) or from an
 * OpenAI chat-completions message log: a header (`id`, `meta`) and a list of
 * events in the order they happened.
 *
 * @module
 */

/**
 * Who wanted a call, when the trace knows: the user's task, or an attacker's injected instruction.
 *
 * @example
 * ```ts
 * import type { Actor } from "./trace.ts";
 * const actor: Actor = "attacker";
 * ```
 */
export type Actor = "user" | "attacker";

/**
 * A system (or developer) message: trusted.
 *
 * @example
 * ```ts
 * import type { SystemEvent } from "./trace.ts";
 * const event: SystemEvent = { type: "system", content: "You are an e-mail assistant." };
 * ```
 */
export interface SystemEvent {
  /** The event kind. */
  readonly type: "system";
  /** The message text. */
  readonly content: string;
}

/**
 * A user message: trusted.
 *
 * @example
 * ```ts
 * import type { UserEvent } from "./trace.ts";
 * const event: UserEvent = { type: "user", content: "Send a summary to alice@corp.example" };
 * ```
 */
export interface UserEvent {
  /** The event kind. */
  readonly type: "user";
  /** The message text. */
  readonly content: string;
}

/**
 * Text the model wrote. Not a source: the guard ignores it.
 *
 * @example
 * ```ts
 * import type { AssistantEvent } from "./trace.ts";
 * const event: AssistantEvent = { type: "assistant", content: "Reading your inbox now." };
 * ```
 */
export interface AssistantEvent {
  /** The event kind. */
  readonly type: "assistant";
  /** The model's text. */
  readonly content: string;
}

/**
 * A tool call the model made.
 *
 * @example
 * ```ts
 * import type { CallEvent } from "./trace.ts";
 * const event: CallEvent = { type: "call", id: "call_1", tool: "send_email", args: { to: "alice@corp.example" }, actor: "user" };
 * ```
 */
export interface CallEvent {
  /** The event kind. */
  readonly type: "call";
  /** The call's id, unique in the trace; its result names it. */
  readonly id: string;
  /** The tool's name, as the policy names it. */
  readonly tool: string;
  /** The exact arguments. */
  readonly args: Readonly<Record<string, unknown>>;
  /** Who wanted the call, when the trace knows (ground truth for benchmarks). */
  readonly actor?: Actor;
}

/**
 * What a tool call returned: the exact output the model saw.
 *
 * @example
 * ```ts
 * import type { ResultEvent } from "./trace.ts";
 * const event: ResultEvent = { type: "result", id: "call_1", content: "sent" };
 * ```
 */
export interface ResultEvent {
  /** The event kind. */
  readonly type: "result";
  /** The id of the call this answers. */
  readonly id: string;
  /** The exact text the model saw (the error text, when the call failed). */
  readonly content: string;
  /** The structured form of the output, when there is one. */
  readonly data?: unknown;
  /** Set when the call failed; `content` then holds what the model was shown. */
  readonly error?: string;
}

/**
 * One event of a trace.
 *
 * @example
 * ```ts
 * import type { TraceEvent } from "./trace.ts";
 * const events: TraceEvent[] = [{ type: "user", content: "Read my inbox" }, { type: "call", id: "c1", tool: "read_inbox", args: {} }];
 * ```
 */
export type TraceEvent = SystemEvent | UserEvent | AssistantEvent | CallEvent | ResultEvent;

/**
 * A recorded conversation.
 *
 * @example
 * ```ts
 * import type { Trace } from "./trace.ts";
 * const trace: Trace = { id: "hijack", meta: {}, events: [{ type: "user", content: "Read my inbox" }] };
 * ```
 */
export interface Trace {
  /** The trace's id: its header's `id`, or the name it was read under. */
  readonly id: string;
  /** Free-form facts about the trace (its origin, the benchmark task, ...). */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The events, in the order they happened. */
  readonly events: readonly TraceEvent[];
}

/**
 * The pab trace format version this code reads and writes.
 *
 * @example
 * ```ts
 * import { TRACE_SCHEMA_VERSION } from "./trace.ts";
 * console.log(TRACE_SCHEMA_VERSION); // 1
 * ```
 */
export const TRACE_SCHEMA_VERSION = 1;

/**
 * Options for reading a trace.
 *
 * @example
 * ```ts
 * import type { ReadTraceOptions } from "./trace.ts";
 * const options: ReadTraceOptions = { source: "traces/examples/hijack.pab.jsonl" };
 * ```
 */
export interface ReadTraceOptions {
  /** The name to quote in errors (usually the file's path); also the id of a trace whose format has none. */
  readonly source?: string;
}
