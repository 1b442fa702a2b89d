/**
 * Check the fields of a request body: each missing or mistyped field is a 400
 * that names the field and what it should be.
 *
 * @module
 */
import { RequestError } from "./request_error.ts";

/**
 * A request body's fields, checked one at a time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BodyFields } from "./body_fields.ts";
 * const body = new BodyFields({ tool: "send_email", args: { to: "a" } }, "decide", ["tool", "args"]);
 * assert.equal(body.text("tool"), "send_email");
 * assert.deepEqual(body.args(), { to: "a" });
 * assert.throws(() => new BodyFields({ tol: "x" }, "decide", ["tool"]), { code: "ERR_REQUEST_INVALID" });
 * ```
 */
export class BodyFields {
  readonly #body: Record<string, unknown>;
  readonly #where: string;

  /** Check that `body` is an object with no field outside `allowed`. */
  constructor(body: unknown, where: string, allowed: readonly string[]) {
    this.#where = where;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw this.#invalid("the body must be a JSON object");
    }
    this.#body = body as Record<string, unknown>;
    for (const key of Object.keys(this.#body)) {
      if (!allowed.includes(key)) {
        throw this.#invalid(
          `unknown field ${JSON.stringify(key)} (expected ${allowed.map((a) => `"${a}"`).join(", ")})`,
        );
      }
    }
  }

  /** A required non-empty string. */
  text(name: string): string {
    const value = this.#body[name];
    if (typeof value !== "string" || value === "") throw this.#invalid(`"${name}" must be a non-empty string`);
    return value;
  }

  /** A required string (may be empty). */
  string(name: string): string {
    const value = this.#body[name];
    if (typeof value !== "string") throw this.#invalid(`"${name}" must be a string`);
    return value;
  }

  /** An optional string. */
  optionalString(name: string): string | undefined {
    return this.#body[name] === undefined ? undefined : this.string(name);
  }

  /**
   * The call's arguments: an object of named values (`{}` when absent and
   * `optional`), with no number JavaScript cannot hold exactly (an integer
   * past ±2^53, or one too large to hold at all): parsed here it would be
   * another value than the one the tool gets, and pab would decide, bind a
   * ruling to, and match provenance on the wrong one. `exact: false` takes
   * them as read, for a record of what already ran (refusing the record
   * would leave the session knowing less, so laxer).
   */
  args(optional = false, exact = true): Readonly<Record<string, unknown>> {
    const value = this.#body.args;
    if (value === undefined && optional) return {};
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw this.#invalid(`"args" must be an object of named values`);
    }
    const inexact = exact ? inexactNumber(value, "args") : undefined;
    if (inexact !== undefined) {
      throw this.#invalid(
        `${inexact} holds a number JavaScript cannot hold exactly (an integer past ±${Number.MAX_SAFE_INTEGER}, or one too large to hold): pab would decide on another value than the tool gets; send it as a string`,
      );
    }
    return value as Record<string, unknown>;
  }

  /** An optional boolean. */
  flag(name: string): boolean {
    const value = this.#body[name];
    if (value === undefined) return false;
    if (typeof value !== "boolean") throw this.#invalid(`"${name}" must be true or false`);
    return value;
  }

  /** An optional list of strings. */
  strings(name: string): string[] {
    const value = this.#body[name];
    if (value === undefined) return [];
    if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
      throw this.#invalid(`"${name}" must be a list of strings`);
    }
    return value;
  }

  /** Any JSON value, or undefined. */
  value(name: string): unknown {
    return this.#body[name];
  }

  /** Whether the field is present. */
  has(name: string): boolean {
    return this.#body[name] !== undefined;
  }

  #invalid(problem: string): RequestError {
    return new RequestError("ERR_REQUEST_INVALID", `Cannot read the ${this.#where} request: ${problem}`);
  }
}

/** Where in `value` (a parsed JSON value, named `path`) a number is not held exactly, if anywhere. */
function inexactNumber(value: unknown, path: string): string | undefined {
  const at = inexactAt(value);
  return at?.reduceRight(
    (shown: string, step) =>
      typeof step === "number" ? `${shown}[${step}]` : `${shown}.${JSON.stringify(step.slice(0, 60))}`,
    path,
  );
}

/** The steps (innermost first) to a number in `value` that is not held exactly, if any: paths are built only then. */
function inexactAt(value: unknown): (string | number)[] | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)) ? undefined : [];
  }
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inexactAt(value[i]);
      if (found !== undefined) return (found.push(i), found);
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const found = inexactAt((value as Record<string, unknown>)[key]);
    if (found !== undefined) return (found.push(key), found);
  }
  return undefined;
}
