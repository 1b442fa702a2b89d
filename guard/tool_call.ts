/**
 * A tool call as the guard judges it: made once, then passed down.
 *
 * @module
 */
import { type CanonicalCopy, canonicalCopy, errorText, fingerprintCanonical } from "../core/mod.ts";

/** One exact tool call: the tool, a private frozen copy of its arguments and their fingerprint. */
export interface ToolCall {
  /** The tool's name. */
  readonly tool: string;
  /** A deep, deeply frozen copy of the arguments, taken when the call was made: nobody can change them afterwards. */
  readonly args: Readonly<Record<string, unknown>>;
  /** sha256 of the canonical JSON of `{tool, args}`; empty when the arguments cannot be fingerprinted. */
  readonly fingerprint: string;
  /** Why the arguments cannot be copied, fingerprinted or handed to the tool (such a call is always blocked with a `guard-error`). */
  readonly problem?: string;
}

/**
 * Make the call value once. Throws `TypeError` for a tool name that is not a
 * non-empty string or arguments that are not an object (programmer mistakes);
 * arguments that are not plain data (see `canonicalCopy`: a function, a
 * symbol, a `Date` or class instance, a cycle, a getter that throws, nesting
 * too deep) give a call with a `problem` and no arguments, which Gate 1 blocks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeToolCall } from "./tool_call.ts";
 * const args = { to: "alice@corp.example" };
 * const call = makeToolCall("send_email", args);
 * args.to = "eve@attacker.example";
 * assert.equal(call.args.to, "alice@corp.example");
 * assert.equal(Object.isFrozen(call.args), true);
 * assert.equal(call.fingerprint.length, 64);
 * assert.match(makeToolCall("send_email", { when: new Date(0) }).problem ?? "", /^Cannot serialise a Date object/);
 * ```
 */
export function makeToolCall(tool: unknown, args: unknown): ToolCall {
  if (typeof tool !== "string" || !tool) {
    throw new TypeError("Cannot decide a call: the tool name must be a non-empty string");
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new TypeError(`Cannot decide a call to ${tool}: arguments must be an object of named values`);
  }
  // One walk reads each argument once and gives both the frozen copy the guard judges and the canonical text it
  // fingerprints, so the two cannot disagree. Anything that is not plain data (a function, a getter that throws, a
  // Date, a cycle, nesting too deep) could change after the decision or has no faithful JSON form: blocked.
  let copied: CanonicalCopy;
  try {
    copied = canonicalCopy(args);
  } catch (error) {
    // A cycle or an object that is not plain data has no canonical JSON ("Cannot serialise ..."); anything else stops
    // the copy itself (a function, a symbol, a getter that throws, nesting too deep).
    const text = errorText(error);
    const problem = error instanceof TypeError && text.startsWith("Cannot serialise ")
      ? text
      : `Cannot copy the arguments: ${text}`;
    return Object.freeze({ tool, args: {}, fingerprint: "", problem });
  }
  const copy = copied.value as Readonly<Record<string, unknown>>;
  // The fingerprint is computed now, not on demand: a decision is plain JSON that carries it, every decided call
  // needs it, and with the preallocated sha256 of core/sha256.ts it costs about 1 us for a ~130-byte call.
  try {
    return Object.freeze({ tool, args: copy, fingerprint: fingerprintCanonical(tool, copied.json) });
  } catch (error) {
    return Object.freeze({ tool, args: copy, fingerprint: "", problem: errorText(error) });
  }
}
