/**
 * Ledger effects with arguments: a policy writes `legal.precleared{client}`,
 * and a call with `{client: 4211}` writes or needs the effect key
 * `legal.precleared{"client":4211}`. An effect without braces is one global key.
 *
 * @module
 */
import { canonicalJson } from "../../core/mod.ts";

/** The syntax of an effect template: a name, then optionally `{arg, ...}`. */
export const EFFECT_TEMPLATE: RegExp = /^[A-Za-z0-9_.:/-]+(?:\{\s*[A-Za-z_][\w-]*(?:\s*,\s*[A-Za-z_][\w-]*)*\s*\})?$/;

/**
 * The ledger key of an effect template for one call's arguments. A missing
 * argument counts as `null`, so it never matches a key written for a value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { effectKey } from "./effect_key.ts";
 * assert.equal(effectKey("legal.precleared{client}", { client: 4211, amount: 5 }), 'legal.precleared{"client":4211}');
 * assert.equal(effectKey("release.sent", { client: 4211 }), "release.sent");
 * ```
 */
export function effectKey(template: string, args: Readonly<Record<string, unknown>>): string {
  const open = template.indexOf("{");
  if (open < 0) return template;
  const names = template.slice(open + 1, -1).split(",").map((name) => name.trim());
  const values: Record<string, unknown> = Object.create(null);
  for (const name of names) values[name] = Object.hasOwn(args, name) ? args[name] ?? null : null;
  return `${template.slice(0, open)}${canonicalJson(values)}`;
}

/** The template's text with the spaces inside its braces removed, for comparing templates. */
export function normalizeEffect(template: string): string {
  return template.replace(/\s+/g, "");
}
