/**
 * Path patterns for fields written by strangers (`untrusted_fields`), matched
 * against leaf paths such as `messages[3].from.address`. A pattern covers the
 * whole subtree under what it names:
 *
 * - a bare key (`from`) names that key at any depth: `from`, `from.address`,
 *   `[2].from.name`, `thread.reply.from` all match;
 * - a dotted pattern is anchored at the root: `messages.from` matches
 *   `messages[0].from.address` (array indices never matter) but not `from`;
 * - `*` stands for one key and `**` for any number of keys
 *   (`**.headers.*.value`).
 *
 * Matching is linear in the path times the pattern.
 *
 * @module
 */

/**
 * Whether the leaf at `path` lies inside a field that `pattern` names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchesFieldPattern } from "./field_pattern.ts";
 * assert.equal(matchesFieldPattern("[0].from.address", "from"), true);
 * assert.equal(matchesFieldPattern("messages[1].from.name", "messages.from"), true);
 * assert.equal(matchesFieldPattern("from", "messages.from"), false);
 * assert.equal(matchesFieldPattern("fromage", "from"), false);
 * ```
 */
export function matchesFieldPattern(path: string, pattern: string): boolean {
  return compileFieldPatterns([pattern])(path);
}

/**
 * A matcher for several patterns at once (compile once per policy, call per leaf).
 * Throws a `TypeError` for an empty pattern or an empty key in one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compileFieldPatterns } from "./field_pattern.ts";
 * const stranger = compileFieldPatterns(["from", "**.headers.*.value"]);
 * assert.deepEqual(["from.address", "mail.headers.reply.value", "subject"].map(stranger), [true, true, false]);
 * ```
 */
export function compileFieldPatterns(patterns: readonly string[]): (path: string) => boolean {
  const compiled = patterns.map((pattern) => {
    const keys = keysOf(pattern.replace(/\[(\d*|\*)\]/g, ""));
    if (!pattern.trim() || keys.some((key) => key === "")) {
      throw new TypeError(`Cannot read field pattern "${pattern}": every key between dots must be non-empty`);
    }
    return keys.length === 1 && keys[0] !== "*" && keys[0] !== "**" ? ["**", keys[0]] : keys;
  });
  return (path) => {
    const keys = keysOf(path.replace(/\[\d+\]/g, ".").replace(/^\.+|\.+$/g, "").replace(/\.{2,}/g, "."));
    return compiled.some((pattern) => prefixMatches(pattern, keys));
  };
}

function keysOf(text: string): string[] {
  return text === "" ? [] : text.split(".");
}

/** Whether `pattern` matches some prefix of `keys` (so the whole subtree under it). */
function prefixMatches(pattern: readonly string[], keys: readonly string[]): boolean {
  // reachable[j]: the pattern so far can end having consumed keys[0, j).
  let reachable = new Array<boolean>(keys.length + 1).fill(false);
  reachable[0] = true;
  for (const part of pattern) {
    const next = new Array<boolean>(keys.length + 1).fill(false);
    for (let j = 0; j <= keys.length; j++) {
      if (!reachable[j]) continue;
      if (part === "**") {
        for (let k = j; k <= keys.length; k++) next[k] = true;
        break;
      }
      if (j < keys.length && (part === "*" || part === keys[j])) next[j + 1] = true;
    }
    reachable = next;
  }
  return reachable.some(Boolean);
}
