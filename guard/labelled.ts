/**
 * Let a tool report the label of what it really returned (for Gate 2).
 *
 * @module
 */
import type { Label } from "../core/label.ts";

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
 * import { withLabel } from "./labelled.ts";
 * import { makeLabel } from "../core/label.ts";
 * const result = withLabel("Alice, salary 98,000", makeLabel(["hr"], "trusted"));
 * console.log(result.value); // "Alice, salary 98,000"
 * ```
 */
export function withLabel<T>(value: T, label: Label): LabelledValue<T> {
  return Object.freeze({ [LABELLED]: true as const, value, label });
}

/** Whether a value was wrapped by {@linkcode withLabel}. */
export function isLabelled(value: unknown): value is LabelledValue {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[LABELLED] === true;
}
