/**
 * What the JSON log readers (OpenAI chat, OpenAI Responses, Anthropic
 * Messages) share: parsing with positions, the error shape, and the small
 * checks every reader makes.
 *
 * @module
 */
import { errorText, isRecord } from "../../core/mod.ts";
import { type Node, type ParseError, parseTree, printParseErrorCode } from "npm:jsonc-parser@3.3.1";
import { checkJsonShape } from "./json_shape.ts";
import { positionOf, traceFailure } from "./trace_error.ts";
import { parseJson } from "../json/mod.ts";

export { positionOf, traceFailure };

/**
 * Parse a JSON log strictly (no comments, no trailing commas), or throw
 * {@linkcode TraceError} naming the line and column of the first problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonLog } from "./read_json_log.ts";
 * const { root } = parseJsonLog('[{"role":"user"}]', "log.json", "a JSON array");
 * assert.equal(root.type, "array");
 * assert.throws(() => parseJsonLog("[", "log.json", "a JSON array"), /log\.json:1:2: invalid JSON/);
 * ```
 */
export function parseJsonLog(text: string, source: string, expected: string): { body: string; root: Node } {
  const body = text.replace(/^\uFEFF/, "");
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length || !root) {
    const error = errors[0];
    const { line, column } = positionOf(body, error?.offset ?? 0);
    throw traceFailure(
      `${source}:${line}:${column}`,
      error ? `invalid JSON: ${printParseErrorCode(error.error)}` : "the file is empty",
      expected,
    );
  }
  return { body, root };
}

/**
 * The node of an object's property, if the object has it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonLog, propertyNode } from "./read_json_log.ts";
 * const { root } = parseJsonLog('{"messages":[]}', "log.json", "an object");
 * assert.equal(propertyNode(root, "messages")?.type, "array");
 * assert.equal(propertyNode(root, "input"), undefined);
 * ```
 */
export function propertyNode(node: Node, key: string): Node | undefined {
  if (node.type !== "object") return undefined;
  return node.children?.find((child) => child.children?.[0]?.value === key)?.children?.[1];
}

/**
 * Parse a tool call's JSON-encoded arguments: they must encode one object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseArgumentsText } from "./read_json_log.ts";
 * assert.deepEqual(parseArgumentsText('{"to":"a@b.example"}', "log.json:1", '"arguments"'), { to: "a@b.example" });
 * assert.throws(() => parseArgumentsText("[1]", "log.json:1", '"arguments"'), /must encode an object/);
 * ```
 */
export function parseArgumentsText(raw: unknown, where: string, field: string): Readonly<Record<string, unknown>> {
  if (raw === undefined || raw === "" || raw === null) return Object.freeze({});
  if (typeof raw !== "string") {
    throw traceFailure(where, `${field} must be a JSON string`, `write ${field}:"{\\"to\\":\\"...\\"}"`);
  }
  checkJsonShape(raw, `${where} ${field}`);
  let value: unknown;
  try {
    value = parseJson(raw);
  } catch (error) {
    throw traceFailure(
      where,
      `${field} is not valid JSON (${errorText(error)})`,
      "the model's arguments must be one JSON object",
    );
  }
  if (!isRecord(value)) {
    throw traceFailure(
      where,
      `${field} must encode an object, got ${Array.isArray(value) ? "an array" : typeof value}`,
      "write an object of names",
    );
  }
  return Object.freeze(value);
}

/**
 * How a JSON node reads in an error message: "an object", "an array", "a string", ...
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kindOfNode, parseJsonLog } from "./read_json_log.ts";
 * assert.equal(kindOfNode(parseJsonLog("1", "x", "y").root), "a number");
 * ```
 */
export function kindOfNode(node: Node): string {
  return node.type === "object" ? "an object" : node.type === "array" ? "an array" : `a ${node.type}`;
}
