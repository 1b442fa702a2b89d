/**
 * A prototype of a library default, measured on the replay: links and e-mail
 * addresses inside the free-text arguments of tools that send data outward
 * must come from a trusted source (`embedded: trusted`), in every suite, unless
 * the policy already has a rule for that argument. The policy object is
 * rewritten; nothing here changes the guard.
 *
 * @module
 */

/** Argument names that say where data goes: a recipient, a destination, a place it is posted. */
const DESTINATION = /^(recipients?|cc|bcc|participants|email|user_email|url|channel)$/;

/** A tool's JSON-schema parameters, as `suite.json` holds them. */
export interface ToolSpec {
  /** The tool's name. */
  readonly name: string;
  /** `{properties: {arg: schema}}`. */
  readonly parameters: { readonly properties?: Readonly<Record<string, unknown>> };
}

function acceptsString(schema: unknown): boolean {
  if (!schema || typeof schema !== "object") return false;
  const node = schema as { type?: unknown; anyOf?: unknown[] };
  if (node.type === "string") return true;
  return Array.isArray(node.anyOf) && node.anyOf.some(acceptsString);
}

/**
 * The free-text arguments of each outward tool: tools with an argument that
 * names a destination; their other string arguments are free text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outwardFreeText } from "./outward_default.ts";
 * const tools = [
 *   { name: "send_email", parameters: { properties: { recipients: { type: "array" }, body: { type: "string" } } } },
 *   { name: "create_file", parameters: { properties: { filename: { type: "string" }, content: { type: "string" } } } },
 * ];
 * assert.deepEqual(outwardFreeText(tools), { send_email: ["body"] });
 * ```
 */
export function outwardFreeText(tools: readonly ToolSpec[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const tool of tools) {
    const properties = Object.entries(tool.parameters.properties ?? {});
    if (!properties.some(([name]) => DESTINATION.test(name))) continue;
    const free = properties.filter(([name, schema]) => !DESTINATION.test(name) && acceptsString(schema)).map(([name]) =>
      name
    );
    if (free.length) out[tool.name] = free;
  }
  return out;
}

/**
 * The policy object with `embedded: trusted` (and `on_violation`) added to
 * every free-text argument of an outward tool that has no rule yet.
 */
export function withOutwardDefault(
  raw: Readonly<Record<string, unknown>>,
  tools: readonly ToolSpec[],
  onViolation: "confirm" | "block",
): Record<string, unknown> {
  const policy = structuredClone(raw) as { tools?: Record<string, { args?: Record<string, unknown> }> };
  policy.tools ??= {};
  for (const [tool, free] of Object.entries(outwardFreeText(tools))) {
    const entry = policy.tools[tool] ??= {};
    const args = entry.args ??= {};
    for (const name of free) {
      if (!Object.hasOwn(args, name)) args[name] = { embedded: "trusted", on_violation: onViolation };
    }
  }
  return policy;
}
