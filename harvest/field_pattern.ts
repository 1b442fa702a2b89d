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
  // A bare key (`**.from`) matches when some key of the path is that key: read in place, no table to fill (one call
  // per leaf of every structured output).
  const anywhere = [...new Set(compiled.filter(isAnywhere).map((pattern) => pattern[1]))];
  const anchored = compiled.filter((pattern) => !isAnywhere(pattern));
  return (path) => {
    if (anywhere.length && hasKey(path, anywhere)) return true;
    if (!anchored.length) return false;
    const keys = pathKeys(path);
    for (let i = 0; i < anchored.length; i++) if (prefixMatches(anchored[i], keys)) return true;
    return false;
  };
}

function isAnywhere(pattern: readonly string[]): boolean {
  return pattern.length === 2 && pattern[0] === "**" && pattern[1] !== "*" && pattern[1] !== "**";
}

function keysOf(text: string): string[] {
  return text === "" ? [] : text.split(".");
}

/**
 * The keys of a leaf path, array indices dropped: `messages[2].from.address` has `messages`, `from`, `address`.
 * One pass, the same keys as splitting at the dots after turning each `[N]` into a dot and dropping empty keys.
 */
function pathKeys(path: string): string[] {
  const keys: string[] = [];
  forEachKey(path, (start, end) => void keys.push(path.slice(start, end)));
  return keys;
}

/** Whether a key of `path` (see `pathKeys`) is one of `names`, without cutting the keys out. */
function hasKey(path: string, names: readonly string[]): boolean {
  return forEachKey(path, (start, end) => {
    for (let i = 0; i < names.length; i++) {
      if (names[i].length === end - start && path.startsWith(names[i], start)) return true;
    }
    return false;
  });
}

/** Call `visit` with where each key of `path` starts and ends, until it returns true; whether one did. */
function forEachKey(path: string, visit: (start: number, end: number) => boolean | void): boolean {
  let start = 0;
  let at = 0;
  while (at < path.length) {
    const code = path.charCodeAt(at);
    const end = code === DOT ? at + 1 : code === OPEN ? indexEnd(path, at + 1) : -1;
    if (end < 0) {
      at++;
      continue;
    }
    if (at > start && visit(start, at)) return true;
    start = at = end;
  }
  return at > start && visit(start, at) === true;
}

const DOT = 46;
const OPEN = 91;
const CLOSE = 93;

/** Where an array index that opened before `from` (`[` digits `]`) ends, or -1 when none does. */
function indexEnd(path: string, from: number): number {
  let at = from;
  while (at < path.length && path.charCodeAt(at) >= 48 && path.charCodeAt(at) <= 57) at++;
  return at > from && path.charCodeAt(at) === CLOSE ? at + 1 : -1;
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
