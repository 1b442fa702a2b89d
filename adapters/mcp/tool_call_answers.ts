/**
 * The MCP messages a `pab mcp` proxy writes itself: the tool result of a
 * denied call, the elicitation that asks the user for a ruling, and the text
 * of a real tool result that the guard records.
 *
 * @module
 */
import { type Decision, explainDecision } from "../../guard/mod.ts";

/** A `tools/call` result, as far as pab reads or writes it. */
export interface ToolResult {
  /** What the model reads. */
  readonly content: readonly Record<string, unknown>[];
  /** Set when the call failed or was denied. */
  readonly isError?: boolean;
  /** Structured output, when the tool has an output schema. */
  readonly structuredContent?: unknown;
  /** Metadata, such as GitHub's `ifc` label. */
  readonly _meta?: unknown;
}

/**
 * The tool result of a call pab denied: `isError`, and text that starts with
 * `pab denied this call:` followed by the decision and the way to yes, so the
 * model reads why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { deniedResult } from "./tool_call_answers.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  send: {args: {to: {require: trusted}}}\n"));
 * const result = deniedResult(guard.decide("send", { to: "eve@attacker.example" }), false);
 * assert.equal(result.isError, true);
 * assert.match(String(result.content[0].text), /^pab denied this call: send: block/);
 * ```
 */
export function deniedResult(decision: Decision, canAsk: boolean): ToolResult {
  const lines = [`pab denied this call: ${explainDecision(decision)}`];
  if (decision.outcome === "confirm" && !canAsk) {
    lines.push(
      "The user could allow this call, but this MCP client cannot ask them (it declares no elicitation " +
        "capability): use a client that supports elicitation, or add the value to the policy's allow list.",
    );
  }
  return Object.freeze({ content: [{ type: "text", text: lines.join("\n") }], isError: true });
}

/**
 * The `elicitation/create` parameters that ask the user to rule on one call.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { rulingElicitation } from "./tool_call_answers.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  send: {args: {to: {require: trusted, on_violation: confirm}}}\n"));
 * const params = rulingElicitation(guard.decide("send", { to: "bob@corp.example" }));
 * assert.match(params.message, /^pab asks you to allow or refuse one tool call/);
 * assert.deepEqual(params.requestedSchema.required, ["allow"]);
 * ```
 */
export function rulingElicitation(decision: Decision): {
  readonly mode: "form";
  readonly message: string;
  readonly requestedSchema: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, Readonly<Record<string, string>>>>;
    readonly required: readonly string[];
  };
} {
  return Object.freeze({
    mode: "form",
    message: `pab asks you to allow or refuse one tool call.\n${explainDecision(decision)}`,
    requestedSchema: Object.freeze({
      type: "object",
      properties: Object.freeze({
        allow: Object.freeze({
          type: "boolean",
          title: "Allow this call",
          description: `Allow ${decision.tool} with exactly these arguments, once`,
        }),
      }),
      required: Object.freeze(["allow"]),
    }),
  });
}

/**
 * Whether the user's answer to {@linkcode rulingElicitation} allows the call:
 * only an accepted form with `allow: true` does; anything else refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userAllowed } from "./tool_call_answers.ts";
 * assert.equal(userAllowed({ action: "accept", content: { allow: true } }), true);
 * assert.equal(userAllowed({ action: "accept", content: { allow: false } }), false);
 * assert.equal(userAllowed({ action: "decline" }), false);
 * ```
 */
export function userAllowed(result: unknown): boolean {
  if (!isRecord(result) || result.action !== "accept" || !isRecord(result.content)) return false;
  return result.content.allow === true;
}

/**
 * The text of a tool result that the guard records: every text item, the
 * text and address of embedded resources and links, or the structured output
 * when there is no text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resultText } from "./tool_call_answers.ts";
 * assert.equal(resultText({ content: [{ type: "text", text: "a" }, { type: "image", data: "" }, { type: "text", text: "b" }] }), "a\nb");
 * assert.equal(resultText({ content: [], structuredContent: { to: "x" } }), '{"to":"x"}');
 * ```
 */
export function resultText(result: ToolResult): string {
  const texts: string[] = [];
  for (const item of Array.isArray(result.content) ? result.content : []) {
    if (!isRecord(item)) continue;
    if (typeof item.text === "string") texts.push(item.text);
    const resource = isRecord(item.resource) ? item.resource : item.type === "resource_link" ? item : undefined;
    if (resource) {
      for (const key of ["uri", "name", "title", "description", "text"]) {
        if (typeof resource[key] === "string") texts.push(resource[key] as string);
      }
    }
  }
  if (!texts.length && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent));
  return texts.join("\n");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
