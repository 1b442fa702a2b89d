/**
 * A scripted model for the AI SDK tests: the SDK's own `MockLanguageModelV4`,
 * each step the tool calls it makes (with their ids and inputs) or its final
 * text.
 */
import { MockLanguageModelV4 } from "npm:ai@7.0.173/test";

/** The usage every scripted step reports. */
export const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that answers its steps in turn: each step's tool calls, or its final text. */
export function scriptedModel(
  steps: ReadonlyArray<ReadonlyArray<{ id: string; tool: string; input: unknown }> | string>,
): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: steps.map((step) => ({
      content: typeof step === "string" ? [{ type: "text" as const, text: step }] : step.map((call) => ({
        type: "tool-call" as const,
        toolCallId: call.id,
        toolName: call.tool,
        input: JSON.stringify(call.input),
      })),
      finishReason: { unified: typeof step === "string" ? "stop" as const : "tool-calls" as const, raw: undefined },
      usage: USAGE,
      warnings: [],
    })),
  });
}
