/**
 * Glob patterns for quoted arguments such as `'traces/**\/*.jsonl'`, which
 * the shell leaves for pab to expand.
 *
 * @module
 */

/**
 * Whether `text` has a glob character (`*`, `?`, `[` or `{`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isGlob } from "./glob.ts";
 * assert.deepEqual([isGlob("traces/*.jsonl"), isGlob("traces/a.jsonl")], [true, false]);
 * ```
 */
export function isGlob(text: string): boolean {
  return /[*?[{]/.test(text);
}

/**
 * The folder a glob starts from: its path up to the first part with a glob
 * character (`.` when the first part has one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globBase } from "./glob.ts";
 * assert.equal(globBase("traces/agentdojo/**\/*.json"), "traces/agentdojo");
 * assert.equal(globBase("*.yaml"), ".");
 * ```
 */
export function globBase(pattern: string): string {
  const parts = pattern.split("/");
  const fixed = parts.slice(0, parts.findIndex(isGlob));
  if (!fixed.length) return ".";
  return fixed.join("/") || "/";
}

/**
 * A regular expression for a glob: `*` matches within one path part, `**`
 * any number of parts, `?` one character, `[abc]` a set, `{a,b}` either.
 * A leading `../` is ignored on both sides.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { globToRegExp } from "./glob.ts";
 * const glob = globToRegExp("traces/**\/*.{json,jsonl}");
 * assert.ok(glob.test("traces/examples/hijack.pab.jsonl"));
 * assert.ok(glob.test("traces/a.json"));
 * assert.ok(!glob.test("traces/examples/demo.policy.yaml"));
 * ```
 */
export function globToRegExp(pattern: string): RegExp {
  const text = pattern.replace(/^\.\//, "");
  let source = "";
  let braces = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "*" && text[i + 1] === "*") {
      const slash = text[i + 2] === "/";
      source += slash ? "(?:[^/]*/)*" : ".*";
      i += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const end = text.indexOf("]", i + 1);
      if (end < 0) source += "\\[";
      else {
        const body = text.slice(i + 1, end).replace(/^!/, "^").replace(/[\\\]]/g, "\\$&");
        source += `[${body}]`;
        i = end;
      }
    } else if (char === "{") {
      braces++;
      source += "(?:";
    } else if (char === "}" && braces) {
      braces--;
      source += ")";
    } else if (char === "," && braces) source += "|";
    else source += char.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
