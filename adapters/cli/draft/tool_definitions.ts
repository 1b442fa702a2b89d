/**
 * Read tool definitions in the shapes agents publish them: an MCP server's
 * `tools/list` result, OpenAI tool definitions, or an AgentDojo suite.
 *
 * @module
 */
import { IoError } from "../shell/cli_error.ts";

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
  /** MCP's `destructiveHint` (a change may destroy or overwrite), when given. */
  readonly destructive?: boolean;
  /** What the tool says it does, when given. */
  readonly description?: string;
  /** What each parameter's JSON Schema says beyond its type, when it says something. */
  readonly schemas?: Readonly<Record<string, ValueSchema>>;
  /** Hints the server left out that the MCP specification's defaults filled in. */
  readonly assumed?: readonly ("openWorld" | "destructive")[];
  /** The fields of the tool's structured output (MCP `outputSchema`, or the items' fields of a list), when given. */
  readonly outputFields?: Readonly<Record<string, ValueSchema>>;
}

/**
 * What a JSON Schema says about one value, as far as `pab generate` reads it.
 *
 * @example
 * ```ts
 * import type { ValueSchema } from "./tool_definitions.ts";
 * const mode: ValueSchema = { type: "string", enum: ["read", "write"] };
 * ```
 */
export interface ValueSchema {
  /** The JSON Schema type (`unknown` when not given). */
  readonly type: string;
  /** `enum` (or `const`) values, as text. */
  readonly enum?: readonly string[];
  /** `minimum` / `exclusiveMinimum`. */
  readonly minimum?: number;
  /** `maximum` / `exclusiveMaximum`. */
  readonly maximum?: number;
  /** `format` (`date-time`, `email`, `uri`, ...). */
  readonly format?: string;
  /** `description` (or `title`). */
  readonly description?: string;
  /** `maxLength`. */
  readonly maxLength?: number;
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
 * MCP tools get the specification's defaults for the hints they leave out
 * (`openWorldHint: true`, and `destructiveHint: true` unless read-only).
 * Throws `IoError` naming the first entry that is not a tool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readToolDefinitions } from "./tool_definitions.ts";
 * const read = readToolDefinitions({ tools: [{ name: "read_graph", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } }] }, "memory.json");
 * assert.deepEqual(read, { format: "mcp", tools: [{ name: "read_graph", parameters: {}, readOnly: true, openWorld: true, assumed: ["openWorld"] }] });
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
  return { format, tools: format === "mcp" ? tools.map(withMcpDefaults) : tools };
}

/**
 * MCP's defaults for the hints a server leaves out (the specification's
 * `ToolAnnotations`): `openWorldHint` is true, and a tool that is not read-only
 * has `destructiveHint` true. `readOnlyHint` (default false) is left to the
 * tool's name when absent, as for tools of other formats.
 */
function withMcpDefaults(tool: ToolDefinition): ToolDefinition {
  const assumed: ("openWorld" | "destructive")[] = [];
  if (tool.openWorld === undefined) assumed.push("openWorld");
  if (tool.readOnly !== true && tool.destructive === undefined) assumed.push("destructive");
  if (!assumed.length) return tool;
  return {
    ...tool,
    openWorld: tool.openWorld ?? true,
    ...(tool.readOnly === true ? {} : { destructive: tool.destructive ?? true }),
    assumed,
  };
}

function readOne(entry: unknown, where: string): ToolDefinition {
  const inner = isObject(entry) && isObject(entry.function) ? entry.function : entry;
  if (!isObject(inner) || typeof inner.name !== "string" || !inner.name) {
    throw new IoError(`Cannot read tool definitions from ${where}: a tool needs a non-empty "name"`);
  }
  const schema = inner.inputSchema ?? inner.parameters ?? {};
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const parameters: Record<string, string> = {};
  const schemas: Record<string, ValueSchema> = {};
  for (const [name, spec] of Object.entries(properties)) {
    const read = readValueSchema(spec);
    parameters[name] = read.type;
    if (Object.keys(read).length > 1) schemas[name] = read;
  }
  const annotations = isObject(inner.annotations) ? inner.annotations : {};
  const outputFields = readOutputFields(inner.outputSchema);
  return {
    name: inner.name,
    parameters,
    ...(typeof annotations.readOnlyHint === "boolean" ? { readOnly: annotations.readOnlyHint } : {}),
    ...(typeof annotations.openWorldHint === "boolean" ? { openWorld: annotations.openWorldHint } : {}),
    ...(typeof annotations.destructiveHint === "boolean" ? { destructive: annotations.destructiveHint } : {}),
    ...(typeof inner.description === "string" && inner.description ? { description: inner.description } : {}),
    ...(Object.keys(schemas).length ? { schemas } : {}),
    ...(outputFields ? { outputFields } : {}),
  };
}

function readValueSchema(spec: unknown): ValueSchema {
  if (!isObject(spec)) return { type: "unknown" };
  const options = [
    spec,
    ...(Array.isArray(spec.anyOf) ? spec.anyOf : []),
    ...(Array.isArray(spec.oneOf) ? spec.oneOf : []),
  ]
    .filter((option) => isObject(option) && option.type !== "null");
  const typed = options.find((option) => typeof option.type === "string");
  const pick = (key: string) => options.map((option) => option[key]).find((value) => value !== undefined);
  const values = pick("enum") ?? (pick("const") === undefined ? undefined : [pick("const")]);
  const minimum = pick("minimum") ?? pick("exclusiveMinimum");
  const maximum = pick("maximum") ?? pick("exclusiveMaximum");
  const text = pick("description") ?? pick("title");
  return {
    type: typeof typed?.type === "string" ? typed.type : "unknown",
    ...(Array.isArray(values) && values.length && values.every(isScalar) ? { enum: values.map(String) } : {}),
    ...(typeof minimum === "number" ? { minimum } : {}),
    ...(typeof maximum === "number" ? { maximum } : {}),
    ...(typeof pick("format") === "string" ? { format: pick("format") } : {}),
    ...(typeof text === "string" && text ? { description: text } : {}),
    ...(typeof pick("maxLength") === "number" ? { maxLength: pick("maxLength") } : {}),
  };
}

/** The fields of an output schema: an object's properties, or those of the items of a list it holds or is. */
function readOutputFields(schema: unknown): Record<string, ValueSchema> | undefined {
  if (!isObject(schema)) return undefined;
  const fields: Record<string, ValueSchema> = {};
  const visit = (node: unknown, depth: number) => {
    if (!isObject(node) || depth > 4) return;
    if (isObject(node.items)) visit(node.items, depth + 1);
    if (!isObject(node.properties)) return;
    for (const [name, spec] of Object.entries(node.properties)) {
      fields[name] = readValueSchema(spec);
      if (isObject(spec) && (isObject(spec.items) || isObject(spec.properties))) visit(spec, depth + 1);
    }
  };
  visit(schema, 0);
  return Object.keys(fields).length ? fields : undefined;
}

function isScalar(value: unknown): boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

// deno-lint-ignore no-explicit-any
function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null;
}
