/**
 * The airlock's exit door: an answer leaves a child branch only if it fits a
 * schema fixed before the branch read anything.
 *
 * @module
 */
import { SchemaError } from "./guard_errors.ts";
import type { AnswerSchema } from "./policy/mod.ts";

/** A value that fits an answer schema. */
export type AnswerValue = boolean | number | string;

/**
 * Check an answer against a schema: exactly the schema's fields; bools are
 * bools, ints are integers inside the range, enums are one of the values.
 * Throws {@linkcode SchemaError} on the first mismatch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { attestAnswer } from "./answer_schema.ts";
 * import { makeLabel } from "../core/mod.ts";
 * const schema = { fields: { on_file: { type: "bool" as const } }, merge: makeLabel(["staff"], "trusted"), tools: [] };
 * assert.deepEqual(attestAnswer({ on_file: true }, schema), { on_file: true });
 * assert.throws(() => attestAnswer({ on_file: "yes" }, schema), /breaks the bool rule/);
 * ```
 */
export function attestAnswer(answer: unknown, schema: AnswerSchema): Readonly<Record<string, AnswerValue>> {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    throw new SchemaError(`Cannot accept answer: expected an object with fields ${list(Object.keys(schema.fields))}`);
  }
  const given = Object.keys(answer).sort();
  const expected = Object.keys(schema.fields).sort();
  if (given.length !== expected.length || given.some((key, i) => key !== expected[i])) {
    throw new SchemaError(`Cannot accept answer: fields ${list(given)} do not match ${list(expected)}`);
  }
  const result: Record<string, AnswerValue> = {};
  for (const key of expected) {
    const spec = schema.fields[key];
    const value = (answer as Record<string, unknown>)[key];
    const fits = spec.type === "bool"
      ? typeof value === "boolean"
      : spec.type === "int"
      ? typeof value === "number" && Number.isInteger(value) && value >= spec.min && value <= spec.max
      : typeof value === "string" && spec.values.includes(value);
    if (!fits) {
      const rule = spec.type === "int"
        ? `int ${spec.min}..${spec.max}`
        : spec.type === "enum"
        ? `enum ${list(spec.values)}`
        : "bool";
      throw new SchemaError(`Cannot accept answer: ${key}=${JSON.stringify(value)} breaks the ${rule} rule`);
    }
    result[key] = value as AnswerValue;
  }
  return Object.freeze(result);
}

function list(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
}
