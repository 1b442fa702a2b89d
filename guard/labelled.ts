/**
 * Let a tool report the label of what it really returned (for Gate 2).
 *
 * @module
 */
import { errorText, isTrust, type Label, makeLabel } from "../core/mod.ts";

/** The key that marks a {@linkcode LabelledValue}. */
export const LABELLED: unique symbol = Symbol.for("pab.labelled");

/** A tool result together with the label of what it really returned. */
export interface LabelledValue<T = unknown> {
  /** Marks the wrapper. */
  readonly [LABELLED]: true;
  /** The result the caller gets. */
  readonly value: T;
  /** The label of what really came back. */
  readonly label: Label;
}

/**
 * Wrap a tool's result with the label of what it really returned. The guard
 * keeps the stricter of this and the label the policy declared (Gate 2),
 * and the caller receives `value` unwrapped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLabelled, withLabel } from "./labelled.ts";
 * import { makeLabel } from "../core/mod.ts";
 * const result = withLabel("Alice, salary 98,000", makeLabel(["hr"], "trusted"));
 * assert.equal(result.value, "Alice, salary 98,000");
 * assert.equal(isLabelled(result), true);
 * ```
 */
export function withLabel<T>(value: T, label: Label): LabelledValue<T> {
  return Object.freeze({ [LABELLED]: true as const, value, label });
}

/** Whether a value was wrapped by {@linkcode withLabel}. */
export function isLabelled(value: unknown): value is LabelledValue {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[LABELLED] === true;
}

/**
 * Check a label handed over at a call: a frozen, well-formed copy, or the
 * reason it is malformed (readers must be an array of non-empty strings,
 * trust one of `suspicious`, `attested`, `trusted`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLabel } from "./labelled.ts";
 * assert.deepEqual(checkLabel({ readers: ["hr"], trust: "trusted" }), { readers: ["hr"], trust: "trusted" });
 * assert.equal(typeof checkLabel({ readers: "hr", trust: "trusted" }), "string");
 * ```
 */
export function checkLabel(value: unknown): Label | string {
  try {
    if (typeof value !== "object" || value === null) return `expected {readers, trust}, got ${typeof value}`;
    const { readers, trust } = value as { readers?: unknown; trust?: unknown };
    if (!Array.isArray(readers) || !readers.every((reader) => typeof reader === "string" && reader)) {
      return "readers must be an array of group names";
    }
    if (!isTrust(trust)) return `trust must be "suspicious", "attested" or "trusted", got ${JSON.stringify(trust)}`;
    return makeLabel(readers, trust);
  } catch (error) {
    return `it cannot be read: ${errorText(error)}`;
  }
}
