/**
 * What the hook keeps of a tool's response: the value as structured as it
 * came (objects stay objects, arrays stay arrays), within a size and depth
 * budget. Whatever the budget cuts is replaced by a marker, and the result
 * says it was cut, so the caller records it as less trusted, never more.
 *
 * @module
 */

/** The default budget: characters of keys and leaves kept from one response. */
export const MAX_RESULT_CHARS = 200_000;
/** The deepest nesting kept; deeper values are cut. */
export const MAX_RESULT_DEPTH = 64;

/** A response within the budget, and whether anything was cut. */
export interface KeptResponse {
  /** The response, structured, with cut parts replaced by a `[pab: ...]` marker. */
  readonly value: unknown;
  /** Whether any part was cut (too long, too many, or too deep). */
  readonly cut: boolean;
}

/**
 * Keep `response` within `limit` characters and {@linkcode MAX_RESULT_DEPTH}
 * levels. Never throws, for any JSON value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { keepResponse } from "./kept_response.ts";
 * assert.deepEqual(keepResponse({ stdout: "ok", code: 0 }), { value: { stdout: "ok", code: 0 }, cut: false });
 * assert.deepEqual(keepResponse(["x".repeat(30), "y"], 10), {
 *   value: ["xxxxxxxxxx[pab: 20 more characters not kept]", "[pab: 1 more items not kept]"],
 *   cut: true,
 * });
 * ```
 */
export function keepResponse(response: unknown, limit: number = MAX_RESULT_CHARS): KeptResponse {
  const budget = { left: limit, cut: false };
  const value = keep(response, budget, 0);
  return { value, cut: budget.cut };
}

function keep(value: unknown, budget: { left: number; cut: boolean }, depth: number): unknown {
  if (typeof value === "string") {
    if (value.length <= budget.left) {
      budget.left -= value.length;
      return value;
    }
    budget.cut = true;
    const kept = value.slice(0, Math.max(0, budget.left));
    budget.left = 0;
    return `${kept}[pab: ${value.length - kept.length} more characters not kept]`;
  }
  if (value === null || typeof value !== "object") {
    budget.left -= 1;
    return value;
  }
  if (depth >= MAX_RESULT_DEPTH) {
    budget.cut = true;
    return `[pab: a value nested deeper than ${MAX_RESULT_DEPTH} levels not kept]`;
  }
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      if (budget.left <= 0) {
        budget.cut = true;
        items.push(`[pab: ${value.length - i} more items not kept]`);
        break;
      }
      items.push(keep(value[i], budget, depth + 1));
    }
    return items;
  }
  const record: Record<string, unknown> = {};
  const entries = Object.entries(value);
  for (let i = 0; i < entries.length; i++) {
    const [key, item] = entries[i];
    if (budget.left <= 0) {
      budget.cut = true;
      record["pab:cut"] = `[pab: ${entries.length - i} more fields not kept]`;
      break;
    }
    budget.left -= key.length;
    Object.defineProperty(record, key, {
      value: keep(item, budget, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return record;
}
