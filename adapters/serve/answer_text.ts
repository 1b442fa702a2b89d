/**
 * The JSON text of an answer, as `JSON.stringify` writes it, with the text of
 * each deeply frozen value that holds a frozen array kept: `JSON.stringify`
 * writes a frozen array on its slow path, and a session's label (frozen, with
 * frozen lists of readers) is the same object from one decision to the next.
 *
 * @module
 */

/** The text of each deeply frozen value holding a frozen array, met as a member of an answer. */
const TEXTS = new WeakMap<object, string>();

/** Levels of plain objects written member by member, so that their members' texts can be kept. */
const LEVELS = 2;

/**
 * `JSON.stringify(value)`, the same text for any value, with the text of a
 * deeply frozen member that holds a frozen array (within the answer's first
 * levels) written once per object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerText } from "./answer_text.ts";
 * const label = Object.freeze({ readers: Object.freeze(["public"]), trust: "trusted" });
 * const answer = { decision: { outcome: "allow", labelBefore: label, note: undefined } };
 * assert.equal(answerText(answer), JSON.stringify(answer));
 * assert.equal(answerText(answer), '{"decision":{"outcome":"allow","labelBefore":{"readers":["public"],"trust":"trusted"}}}');
 * ```
 */
export function answerText(value: unknown): string {
  return memberText(value, LEVELS) as string;
}

function memberText(value: unknown, levels: number): string | undefined {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const kept = TEXTS.get(value);
  if (kept !== undefined) return kept;
  if (levels > 0 && plainObject(value)) {
    let text = "{";
    for (const key of Object.keys(value)) {
      const member = memberText((value as Record<string, unknown>)[key], levels - 1);
      if (member === undefined) continue;
      text += `${text.length > 1 ? "," : ""}${JSON.stringify(key)}:${member}`;
    }
    return `${text}}`;
  }
  const text = JSON.stringify(value);
  if (Object.isFrozen(value) && frozenArrayIn(value, 0) && isFrozenData(value)) TEXTS.set(value, text);
  return text;
}

/** An object JSON.stringify writes as its own enumerable properties: a plain or null prototype, no `toJSON`. */
function plainObject(value: object): boolean {
  if (Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

/** Whether a frozen array sits in `value` (within a few levels): what makes JSON.stringify slow. */
function frozenArrayIn(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null || depth > 4) return false;
  if (Array.isArray(value) && Object.isFrozen(value)) return true;
  for (const key of Object.keys(value)) {
    if (frozenArrayIn((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}

/**
 * Whether a value can never change, nor write differently: primitives, and
 * frozen arrays or plain objects (no `toJSON`) of data properties holding such values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFrozenData } from "./answer_text.ts";
 * assert.equal(isFrozenData(Object.freeze({ a: Object.freeze([1]) })), true);
 * assert.equal(isFrozenData(Object.freeze({ a: [1] })), false);
 * ```
 */
export function isFrozenData(value: unknown, depth = 0): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function";
  if (depth > 32 || !Object.isFrozen(value) || !(Array.isArray(value) || plainObject(value))) return false;
  for (const key of Object.keys(value)) {
    const property = Object.getOwnPropertyDescriptor(value, key);
    if (!property || !("value" in property) || !isFrozenData(property.value, depth + 1)) return false;
  }
  return true;
}
