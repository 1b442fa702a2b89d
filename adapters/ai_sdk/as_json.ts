/**
 * A tool's input as the guard reads it. The SDK hands `execute` the input
 * its schema parsed, and a schema may transform what the model wrote into
 * values that are not JSON (a `URL`, a `Date`, a class): the guard, which
 * reads plain JSON only, reads their JSON form instead (what `JSON.stringify`
 * writes: a URL's `href`, a date's ISO text), and the tool still gets the
 * SDK's values.
 *
 * @module
 */
import { isRecord } from "../../core/mod.ts";

/** How far {@linkcode inputAsJson} looks for a value that is not JSON before it takes the JSON form anyway. */
const NODES_CHECKED = 100_000;

/**
 * `input` as plain JSON: itself when it is (`exact`: the tool may run on the
 * guard's copy), else its JSON form; itself, unchanged, when it has none (the
 * guard then fails closed on it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputAsJson } from "./as_json.ts";
 * assert.deepEqual(inputAsJson({ url: new URL("https://corp.example/a") }), {
 *   value: { url: "https://corp.example/a" },
 *   exact: false,
 * });
 * assert.deepEqual(inputAsJson({ to: "bob" }), { value: { to: "bob" }, exact: true });
 * ```
 */
export function inputAsJson(input: unknown): { readonly value: unknown; readonly exact: boolean } {
  if (isPlainJson(input)) return { value: input, exact: true };
  try {
    const text = JSON.stringify(input, (_key, item) => typeof item === "bigint" ? item.toString() : item);
    return { value: text === undefined ? input : JSON.parse(text), exact: false };
  } catch {
    return { value: input, exact: false };
  }
}

function isPlainJson(input: unknown): boolean {
  const stack = [input];
  for (let checked = 0; stack.length > 0; checked++) {
    if (checked > NODES_CHECKED) return false;
    const value = stack.pop();
    if (value === null || typeof value === "string" || typeof value === "boolean") continue;
    if (typeof value === "number") {
      if (Number.isFinite(value)) continue;
      return false;
    }
    if (Array.isArray(value)) stack.push(...value);
    else if (isRecord(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
      stack.push(...Object.values(value));
    } else return false;
  }
  return true;
}
