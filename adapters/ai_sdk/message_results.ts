/**
 * Tool results the model reads that no guarded `execute` produced: a tool
 * with no `execute` is run by the app (in the browser, by a person) and its
 * result comes back in the messages; a chat route gets its whole history
 * from the client; a provider-executed tool's result is in the assistant's
 * message. Each is recorded once per guard, as structured as it came, before
 * the next decision: the result of a tool the app runs under the tool's
 * policy label, any other (a provider's, or one for a call pab never ran,
 * which the messages only claim) as untrusted.
 *
 * @module
 */
import { makeLabel } from "../../core/mod.ts";
import type { ModelMessage } from "npm:ai@7.0.173";
import type { Guard } from "../../guard/mod.ts";

/** The tool call ids whose results each guard knows (ran, or recorded from the messages): kept across requests. */
const KNOWN = new WeakMap<Guard, Set<string>>();

/** The tool results a guard knows, read against one `tools` object. */
export class MessageResults {
  readonly #guard: Guard;
  readonly #appRun: ReadonlySet<string>;
  readonly #known: Set<string>;

  /** `appRun`: the names of the tools the app runs itself (no `execute`). */
  constructor(guard: Guard, appRun: ReadonlySet<string>) {
    this.#guard = guard;
    this.#appRun = appRun;
    let known = KNOWN.get(guard);
    if (!known) KNOWN.set(guard, known = new Set());
    this.#known = known;
  }

  /** A call the guarded `execute` ran: its output is recorded by the guard. */
  ran(toolCallId: string): void {
    this.#known.add(toolCallId);
  }

  /** Record every tool result in `messages` the guard has not seen yet. */
  recordNew(messages: readonly ModelMessage[] | undefined): void {
    for (const message of messages ?? []) {
      if ((message.role !== "tool" && message.role !== "assistant") || typeof message.content === "string") continue;
      for (const part of message.content) {
        if (part.type !== "tool-result" || this.#known.has(part.toolCallId)) continue;
        this.#known.add(part.toolCallId);
        // The SDK's own answer to a denied call holds no tool data.
        if (part.output.type === "execution-denied") continue;
        const output = "value" in part.output ? part.output.value : part.output;
        const claimed = !this.#appRun.has(part.toolName);
        this.#guard.record(part.toolName, output, {
          ...(claimed ? { label: makeLabel(this.#guard.policy.top.readers, "suspicious") } : {}),
        });
      }
    }
  }
}
