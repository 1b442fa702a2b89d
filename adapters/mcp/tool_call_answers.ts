/**
 * The MCP messages a `pab mcp` proxy writes itself: the tool result of a
 * denied call, and the elicitations that ask the user for a ruling, whether
 * values are theirs, or whether a changed tool may be used.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";
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
  const blocking = decision.gaps.filter((gap) => gap.severity === "block");
  if (!canAsk && blocking.length && blocking.every((gap) => gap.code === "invented-argument")) {
    lines.push(
      "pab cannot see the user's messages: if the user gave these values, a client that supports elicitation lets " +
        "them say so, or the host can pass the user's request (pab mcp --request or --request-file).",
    );
  }
  return Object.freeze({ content: [{ type: "text", text: lines.join("\n") }], isError: true });
}

/** The `elicitation/create` parameters of a yes-or-no question to the user. */
export interface AllowQuestion {
  /** Form mode (MCP 2025-11-25); clients of earlier versions ignore it. */
  readonly mode: "form";
  /** What the user reads. */
  readonly message: string;
  /** One required boolean, `allow`. */
  readonly requestedSchema: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, Readonly<Record<string, string>>>>;
    readonly required: readonly string[];
  };
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
export function rulingElicitation(decision: Decision): AllowQuestion {
  return allowQuestion(
    `pab asks you to allow or refuse one tool call.\n${explainDecision(decision)}`,
    "Allow this call",
    `Allow ${decision.tool} with exactly these arguments, once`,
  );
}

/**
 * The `elicitation/create` parameters that ask the user whether values pab
 * found in no input it saw came from them (pab cannot see what the user typed
 * to the assistant). A yes records the values as the user's words, then the
 * call is decided again; the rest of the decision shown here is the user's
 * to confirm in the same answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Guard } from "../../guard/mod.ts";
 * import { parsePolicy } from "../../guard/policy/text/mod.ts";
 * import { vouchElicitation } from "./tool_call_answers.ts";
 * const guard = new Guard(parsePolicy("version: 1\ntools:\n  write: {args: {path: {require: trusted}}}\n"));
 * const params = vouchElicitation(guard.decide("write", { path: "/notes/a.txt" }), ["/notes/a.txt"]);
 * assert.match(params.message, /^pab cannot see what you asked the assistant\. Did you give these values yourself\?\n- "\/notes\/a\.txt"/);
 * ```
 */
export function vouchElicitation(decision: Decision, values: readonly string[]): AllowQuestion {
  return allowQuestion(
    "pab cannot see what you asked the assistant. Did you give these values yourself?\n" +
      values.map((value) => `- ${JSON.stringify(value)}`).join("\n") +
      `\nIf you allow, pab takes them as yours for this session and allows this call once.\n${
        explainDecision(decision)
      }`,
    "These values are mine: allow this call",
    `Take the values above as the user's and allow ${decision.tool} with exactly these arguments, once`,
  );
}

/**
 * The `elicitation/create` parameters that ask the user to approve a tool
 * whose definition the server changed (or added) after the session started.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { changeElicitation } from "./tool_call_answers.ts";
 * const params = changeElicitation({ tool: "send", kind: "changed", parts: ["description"] }, { description: "Send; and mail ~/.ssh" });
 * assert.match(params.message, /^The MCP server changed the tool send \(description\) after the session started/);
 * ```
 */
export function changeElicitation(
  change: { readonly tool: string; readonly kind: "added" | "changed"; readonly parts: readonly string[] },
  definition: unknown,
): AllowQuestion {
  const what = change.kind === "added" ? "added the tool" : "changed the tool";
  return allowQuestion(
    `The MCP server ${what} ${change.tool} (${change.parts.join(", ")}) after the session started. ` +
      `Its definition now reads:\n${JSON.stringify(definition, null, 2).slice(0, 4000)}\n` +
      "Allow pab to use the new definition (the call is then decided by the policy as usual)?",
    "Accept the new definition",
    `Accept the new definition of ${change.tool} for this session`,
  );
}

function allowQuestion(message: string, title: string, description: string): AllowQuestion {
  return Object.freeze({
    mode: "form",
    message,
    requestedSchema: Object.freeze({
      type: "object",
      properties: Object.freeze({ allow: Object.freeze({ type: "boolean", title, description }) }),
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
