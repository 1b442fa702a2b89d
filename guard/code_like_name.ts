/**
 * Names that read as code as much as hosts: the way to yes for `user.name`
 * or `message.id` in outward text, when only a source the user did not point
 * at holds it.
 *
 * A bare dotted name is a host when its last label is a top-level domain, and
 * some common property names are (`name`, `id`, `app`, `data`, `map`, `run`).
 * Read as a host in a comment that quotes code, such a name is blocked, with
 * no human, when only an unpointed stranger's text holds it: a dead end for a
 * review comment that says "`user.name` is never set". A name of exactly two
 * labels written as an identifier (`word.word`, no scheme, `www.`, path or
 * port) under a top-level domain that is not a common one is as likely a
 * member access as a host, so the user is asked instead; anything more
 * host-like (`evil.com`, `evil.io`, `www.x.name`, `x.name/login`, three
 * labels) stays blocked.
 *
 * @module
 */
import { COMMON_TLDS } from "../harvest/mod.ts";
import type { Gap } from "./gap.ts";

/** `object.property`, as code writes it: two identifier-like labels, nothing else. */
const MEMBER_ACCESS = /^[A-Za-z_$][\w$]*\.([A-Za-z][A-Za-z0-9]*)$/;

/**
 * Whether a value found in outward text reads as a member access as much as a
 * host: two identifier-like labels, the first not `www`, the last not a
 * common top-level domain.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isCodeLikeName } from "./code_like_name.ts";
 * assert.equal(isCodeLikeName("user.name"), true);
 * assert.equal(isCodeLikeName("message.id"), true);
 * assert.equal(isCodeLikeName("evil.com"), false);
 * assert.equal(isCodeLikeName("evil.io"), false);
 * assert.equal(isCodeLikeName("www.name"), false);
 * assert.equal(isCodeLikeName("a.b.name"), false);
 * assert.equal(isCodeLikeName("x.name/login"), false);
 * assert.equal(isCodeLikeName("bücher.name"), false);
 * ```
 */
export function isCodeLikeName(value: string): boolean {
  const match = MEMBER_ACCESS.exec(value);
  if (!match || value.toLowerCase().startsWith("www.")) return false;
  return !COMMON_TLDS.has(match[1].toLowerCase());
}

/**
 * Turn the blocks that escalation made of code-like names in outward text
 * (`rule: "outward-default"`, `delegation: "undesignated"`,
 * {@linkcode isCodeLikeName}) into questions, with `delegation: "code-name"`;
 * every other gap is returned unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { askAboutCodeLikeNames } from "./code_like_name.ts";
 * const gap = {
 *   code: "untrusted-argument" as const, severity: "block" as const, message: "body embeds user.name", argument: "body",
 *   value: "user.name", delegation: "undesignated" as const, rule: "outward-default" as const,
 * };
 * assert.equal(askAboutCodeLikeNames([gap])[0].severity, "confirm");
 * assert.equal(askAboutCodeLikeNames([{ ...gap, value: "evil.com" }])[0].severity, "block");
 * ```
 */
export function askAboutCodeLikeNames(gaps: readonly Gap[]): Gap[] {
  return gaps.map((gap) =>
    gap.code === "untrusted-argument" && gap.delegation === "undesignated" && gap.rule === "outward-default" &&
      gap.value !== undefined && isCodeLikeName(gap.value)
      ? {
        ...gap,
        severity: "confirm" as const,
        delegation: "code-name" as const,
        message: `${gap.message}; it reads as a name in code (object.property) too, so the user is asked`,
      }
      : gap
  );
}
