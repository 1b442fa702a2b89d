/**
 * Read tool definitions in the shapes agents publish them: an MCP server's
 * `tools/list` result, OpenAI tool definitions, or an AgentDojo suite.
 *
 * @module
 */
import { IoError } from "./cli_error.ts";

/**
 * One tool, as `pab generate` needs it.
 *
 * @example
 * ```ts
 * import type { ToolDefinition } from "./tool_definitions.ts";
 * const tool: ToolDefinition = { name: "send_email", parameters: { to: "string", body: "string" } };
 * ```
 */
export interface ToolDefinition {
  /** The tool's name. */
  readonly name: string;
  /** Each parameter's JSON Schema type (`string`, `number`, `array`, ...; `unknown` when not given). */
  readonly parameters: Readonly<Record<string, string>>;
  /** MCP's `readOnlyHint`, when the server gives it. */
  readonly readOnly?: boolean;
  /** MCP's `openWorldHint` (the tool reaches beyond the user's own data), when given. */
  readonly openWorld?: boolean;
}

/**
 * Which shape the definitions came in.
 *
 * @example
 * ```ts
 * import type { ToolFormat } from "./tool_definitions.ts";
 * const format: ToolFormat = "mcp";
 * ```
 */
export type ToolFormat = "mcp" | "openai" | "agentdojo";

/**
 * Read tool definitions from parsed JSON, telling the shape from the content:
 * MCP (`{tools: [{name, inputSchema}]}`, also inside a JSON-RPC `result`),
 * OpenAI (`[{type: "function", function: {name, parameters}}]` or the
 * Responses API's flat `{type: "function", name, parameters}`, alone or in
 * `{tools: [...]}`), or an AgentDojo suite (`{agentdojo, suite, tools}`).
 * Throws `IoError` naming the first entry that is not a tool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readToolDefinitions } from "./tool_definitions.ts";
 * const read = readToolDefinitions({ tools: [{ name: "read_graph", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } }] }, "memory.json");
 * assert.deepEqual(read, { format: "mcp", tools: [{ name: "read_graph", parameters: {}, readOnly: true }] });
 * ```
 */
export function readToolDefinitions(value: unknown, source: string): { format: ToolFormat; tools: ToolDefinition[] } {
  const body = isObject(value) && isObject(value.result) ? value.result : value;
  const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.tools) ? body.tools : undefined;
  if (!list) {
    throw new IoError(
      `Cannot read tool definitions from "${source}": expected an MCP tools/list result ({"tools":[...]}), ` +
        `OpenAI tool definitions ([{"type":"function",...}]) or an AgentDojo suite.json`,
    );
  }
  const format: ToolFormat = isObject(body) && !Array.isArray(body) && "agentdojo" in body
    ? "agentdojo"
    : list.some((entry) => isObject(entry) && "inputSchema" in entry)
    ? "mcp"
    : "openai";
  const tools = list.map((entry, i) => readOne(entry, `${source}: tools[${i}]`));
  return { format, tools };
}

function readOne(entry: unknown, where: string): ToolDefinition {
  const inner = isObject(entry) && isObject(entry.function) ? entry.function : entry;
  if (!isObject(inner) || typeof inner.name !== "string" || !inner.name) {
    throw new IoError(`Cannot read tool definitions from ${where}: a tool needs a non-empty "name"`);
  }
  const schema = inner.inputSchema ?? inner.parameters ?? {};
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const parameters: Record<string, string> = {};
  for (const [name, spec] of Object.entries(properties)) {
    const type = isObject(spec)
      ? spec.type ?? (Array.isArray(spec.anyOf) ? spec.anyOf[0]?.type : undefined)
      : undefined;
    parameters[name] = typeof type === "string" ? type : "unknown";
  }
  const annotations = isObject(inner.annotations) ? inner.annotations : {};
  return {
    name: inner.name,
    parameters,
    ...(typeof annotations.readOnlyHint === "boolean" ? { readOnly: annotations.readOnlyHint } : {}),
    ...(typeof annotations.openWorldHint === "boolean" ? { openWorld: annotations.openWorldHint } : {}),
  };
}

// deno-lint-ignore no-explicit-any
function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null;
}
