// Private: the few schema shapes a policy file is checked against (strings, enums, arrays, strict objects, records,
// unions), each reporting issues with a code and a path, as zod/mini's did: same codes, same paths, same order, same
// parsed value. Hand-written because zod was a fifth of the core bundle; tests/policy_shape_properties_test.ts checks
// the two agree.
import { isRecord } from "../../core/mod.ts";

/** One problem found, with where it is (`path`) and what was there (`input`). */
export interface ShapeIssue {
  readonly code: string;
  path: PropertyKey[];
  readonly message: string;
  readonly input?: unknown;
  readonly expected?: string;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly errors?: readonly ShapeIssue[][];
  readonly [detail: string]: unknown;
}

/** The value being checked and what was found so far; `continue: true` marks an issue that does not stop the checks. */
interface Payload {
  value: unknown;
  issues: Array<ShapeIssue & { continue?: boolean }>;
}

/** A shape: checks a payload's value, adds issues, sets the parsed value. `optional` lets a key be left out. */
export interface Shape<T> {
  readonly run: (payload: Payload) => Payload;
  readonly optional?: true;
  /** Type only: what a valid value parses to. */
  readonly _type?: T;
}

/** A shape whose key may be left out of an object. */
export interface OptionalShape<T> extends Shape<T | undefined> {
  readonly optional: true;
}

/** What a shape's valid value parses to. */
export type Infer<S> = S extends Shape<infer T> ? T : never;

/** What {@linkcode parseShape} returns. */
export type ShapeResult<T> = { success: true; data: T } | { success: false; issues: ShapeIssue[] };

const MESSAGE = "Invalid input";

function issue(payload: Payload, fields: { readonly code: string; readonly [detail: string]: unknown }): Payload {
  payload.issues.push({ ...fields, input: payload.value, path: [], message: MESSAGE });
  return payload;
}

function shape<T>(
  check: (value: unknown) => { readonly code: string; readonly [detail: string]: unknown } | undefined,
): Shape<T> {
  return {
    run: (payload) => {
      const found = check(payload.value);
      return found ? issue(payload, found) : payload;
    },
  };
}

/** A type check, as `typeof` or a predicate. */
function typed<T>(expected: string, is: (value: unknown) => boolean): Shape<T> {
  return shape((value) => is(value) ? undefined : { expected, code: "invalid_type" });
}

export const string: Shape<string> = typed("string", (value) => typeof value === "string");
export const boolean: Shape<boolean> = typed("boolean", (value) => typeof value === "boolean");
export const nullValue: Shape<null> = typed("null", (value) => value === null);
export const unknown: Shape<unknown> = { run: (payload) => payload };

/** One of `values` (compared as a `Set` does). */
export function oneOf<const T extends readonly (string | number | boolean)[]>(values: T): Shape<T[number]> {
  const set = new Set<unknown>(values);
  return shape((value) => set.has(value) ? undefined : { code: "invalid_value", values: [...values] });
}

function aborted(payload: Payload, explicit = false): boolean {
  return payload.issues.some((found) => explicit ? found.continue === false : found.continue !== true);
}

/** `inner`, then at least one character or item (checked whenever the value has a length, as zod's `minLength`). */
export function nonEmpty<T>(inner: Shape<T>): Shape<T> {
  return {
    run: (payload) => {
      inner.run(payload);
      const value = payload.value as { length?: unknown } | null | undefined;
      if (aborted(payload, true) || value === null || value === undefined || value.length === undefined) return payload;
      if ((value.length as number) >= 1) return payload;
      const origin = Array.isArray(value) ? "array" : typeof value === "string" ? "string" : "unknown";
      payload.issues.push({
        origin,
        code: "too_small",
        minimum: 1,
        inclusive: true,
        input: value,
        continue: true,
        path: [],
        message: MESSAGE,
      });
      return payload;
    },
  };
}

/** A safe integer. */
export const int: Shape<number> = {
  run: (payload) => {
    const value = payload.value;
    if (typeof value !== "number" || !Number.isFinite(value)) {
      const received = typeof value !== "number" ? undefined : Number.isNaN(value) ? "NaN" : String(value);
      return issue(payload, { expected: "number", code: "invalid_type", ...(received ? { received } : {}) });
    }
    if (!Number.isInteger(value)) {
      payload.issues.push({
        expected: "int",
        format: "safeint",
        code: "invalid_type",
        continue: false,
        input: value,
        path: [],
        message: MESSAGE,
      });
    } else if (!Number.isSafeInteger(value)) {
      const [code, bound, limit] = value > 0
        ? ["too_big", "maximum", Number.MAX_SAFE_INTEGER] as const
        : ["too_small", "minimum", Number.MIN_SAFE_INTEGER] as const;
      payload.issues.push({
        input: value,
        code,
        [bound]: limit,
        note: "Integers must be within the safe integer range.",
        origin: "int",
        inclusive: true,
        continue: true,
        path: [],
        message: MESSAGE,
      });
    }
    return payload;
  },
};

/** `inner`, or left out. */
export function optional<T>(inner: Shape<T>): OptionalShape<T> {
  return { optional: true, run: (payload) => payload.value === undefined ? payload : inner.run(payload) };
}

function nested(payload: Payload, key: PropertyKey, result: Payload): void {
  for (const found of result.issues) {
    found.path.unshift(key);
    payload.issues.push(found);
  }
}

/** An array of `item`. */
export function array<T>(item: Shape<T>): Shape<T[]> {
  return {
    run: (payload) => {
      const input = payload.value;
      if (!Array.isArray(input)) return issue(payload, { expected: "array", code: "invalid_type" });
      const output: unknown[] = Array(input.length);
      payload.value = output;
      for (let i = 0; i < input.length; i++) {
        const result = item.run({ value: input[i], issues: [] });
        nested(payload, i, result);
        output[i] = result.value;
      }
      return payload;
    },
  };
}

type ObjectOf<S extends Record<string, Shape<unknown>>> =
  & { [K in keyof S as S[K] extends { optional: true } ? never : K]: Infer<S[K]> }
  & { [K in keyof S as S[K] extends { optional: true } ? K : never]?: Infer<S[K]> };

/** An object with exactly these keys: a key not in `fields` is an `unrecognized_keys` issue. */
export function strictObject<S extends Record<string, Shape<unknown>>>(fields: S): Shape<ObjectOf<S>> {
  const known = new Set(Object.keys(fields));
  return {
    run: (payload) => {
      const input = payload.value;
      if (!isRecord(input)) return issue(payload, { expected: "object", code: "invalid_type" });
      const output: Record<string, unknown> = {};
      payload.value = output;
      for (const [key, field] of Object.entries(fields)) {
        const result = field.run({ value: input[key], issues: [] });
        const present = key in input;
        if (!present && field.optional) continue;
        nested(payload, key, result);
        if (!present) {
          if (!result.issues.length) {
            payload.issues.push({
              code: "invalid_type",
              expected: "nonoptional",
              input: undefined,
              path: [key],
              message: MESSAGE,
            });
          }
          continue;
        }
        output[key] = result.value;
      }
      const unrecognized: string[] = [];
      for (const key in input) if (!known.has(key)) unrecognized.push(key);
      if (unrecognized.length) {
        payload.issues.push({
          code: "unrecognized_keys",
          keys: unrecognized,
          input,
          continue: true,
          path: [],
          message: MESSAGE,
        });
      }
      return payload;
    },
  };
}

function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isRecord(value)) return false;
  const maker = value.constructor;
  if (typeof maker !== "function") return true;
  return isRecord(maker.prototype) && Object.hasOwn(maker.prototype, "isPrototypeOf");
}

/** An object whose every string key holds an `entry`. */
export function record<T>(entry: Shape<T>): Shape<Record<string, T>> {
  return {
    run: (payload) => {
      const input = payload.value;
      if (!isPlainObject(input)) return issue(payload, { expected: "record", code: "invalid_type" });
      const output: Record<string, unknown> = {};
      payload.value = output;
      for (const key of Reflect.ownKeys(input)) {
        if (key === "__proto__" || !Object.prototype.propertyIsEnumerable.call(input, key)) continue;
        if (typeof key !== "string") {
          const keyIssue = string.run({ value: key, issues: [] }).issues.map(finalize);
          payload.issues.push({
            code: "invalid_key",
            origin: "record",
            issues: keyIssue,
            input: key,
            path: [key],
            message: MESSAGE,
          });
          continue;
        }
        const result = entry.run({ value: input[key], issues: [] });
        nested(payload, key, result);
        output[key] = result.value;
      }
      return payload;
    },
  };
}

/**
 * The first of `options` that fits; when none does, the one option that failed only on what does not stop the checks
 * (an empty name, an unknown key), or else an `invalid_union` issue holding every option's issues.
 */
export function union<S extends readonly Shape<unknown>[]>(options: S): Shape<Infer<S[number]>> {
  return {
    run: (payload) => {
      const results: Payload[] = [];
      for (const option of options) {
        const result = option.run({ value: payload.value, issues: [] });
        if (!result.issues.length) return result;
        results.push(result);
      }
      const open = results.filter((result) => !aborted(result));
      if (open.length === 1) return open[0];
      payload.issues.push({
        code: "invalid_union",
        input: payload.value,
        errors: results.map((result) => result.issues.map(finalize)),
        path: [],
        message: MESSAGE,
      });
      return payload;
    },
  };
}

function finalize(found: ShapeIssue & { continue?: boolean }): ShapeIssue {
  const { continue: _, ...rest } = found;
  return rest;
}

/** Check `value` against `schema`: its parsed value, or every issue found. */
export function parseShape<T>(schema: Shape<T>, value: unknown): ShapeResult<T> {
  const result = schema.run({ value, issues: [] });
  return result.issues.length
    ? { success: false, issues: result.issues.map(finalize) }
    : { success: true, data: result.value as T };
}
