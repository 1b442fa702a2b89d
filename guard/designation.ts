/**
 * Delegation-aware escalation: a value of untrusted origin may lead to a
 * question to the user only when the user pointed, in their own words, at the
 * source that supplied it ("pay the bill in 'bill-december-2023.txt'"). A
 * value that only sources the user never named supplied is blocked outright:
 * asking the user about a choice they never delegated trains them to say yes.
 *
 * @module
 */
import { trustRank } from "../core/mod.ts";
import { isWeakValue } from "../harvest/mod.ts";
import { readLeaves } from "./read_leaves.ts";
import type { Source } from "./source.ts";

/**
 * The last word of an argument name that selects by a criterion instead of
 * naming one object: a search term, a date, a bound. Anyone can write an item
 * that meets a criterion (an e-mail about "family reunion", an invitation on
 * May 15th), so a criterion the user stated does not designate what comes back.
 */
const SELECTOR_WORDS: ReadonlySet<string> = new Set([
  "query",
  "q",
  "search",
  "keyword",
  "keywords",
  "term",
  "terms",
  "filter",
  "pattern",
  "date",
  "day",
  "time",
  "since",
  "until",
  "before",
  "after",
  "limit",
  "n",
  "count",
]);

/**
 * Whether an argument selects by a criterion (its name's last word is
 * `query`, `q`, `search`, `keyword(s)`, `term(s)`, `filter`, `pattern`,
 * `date`, `day`, `time`, `since`, `until`, `before`, `after`, `limit`, `n` or
 * `count`) rather than naming one object (a file name, a URL, a channel, an id).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSelectorName } from "./designation.ts";
 * assert.equal(isSelectorName("query"), true);
 * assert.equal(isSelectorName("start_date"), true);
 * assert.equal(isSelectorName("file_path"), false);
 * ```
 */
export function isSelectorName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase().split(/[_\-\s]+/).filter(Boolean);
  return words.length > 0 && SELECTOR_WORDS.has(words[words.length - 1]);
}

/**
 * Whether the user designated the source a call reads: at least one argument
 * that names an object (not a criterion, {@linkcode isSelectorName}) is
 * vouched for by the user's own words (a `user` source, by the guard's
 * provenance matching), and no argument is a pointer that only untrusted
 * input (or nothing) supplied. Short values (`isWeakValue`: counts, one or two
 * characters) and criteria neither designate nor disqualify. So a page
 * reached through a link inside a message is not designated, even when the
 * user named the message (designation never flows through untrusted content),
 * and neither is what a search for the user's words returns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDesignated } from "./designation.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const label = knownLabel(makeLabel(["public"], "trusted"));
 * const user = { id: 0, name: "user", trust: "trusted" as const, label, vouches: "text" as const };
 * const inbox = { id: 1, name: "tool:read_inbox", trust: "suspicious" as const, label, vouches: "text" as const };
 * const evidence = (value: string) =>
 *   value === "bill-december-2023.txt" ? [user] : value === "www.evil.example" ? [inbox] : [];
 * assert.equal(isDesignated(evidence, { file_path: "bill-december-2023.txt" }), true);
 * assert.equal(isDesignated(evidence, { url: "www.evil.example" }), false);
 * assert.equal(isDesignated(evidence, { n: 50 }), false);
 * assert.equal(isDesignated(evidence, { query: "bill-december-2023.txt" }), false); // a criterion, not a name
 * ```
 */
export function isDesignated(
  evidence: (value: string) => readonly Source[],
  args: Readonly<Record<string, unknown>>,
): boolean {
  let named = false;
  for (const [arg, value] of Object.entries(args)) {
    const selector = isSelectorName(arg);
    for (const leaf of readLeaves(value, arg)) {
      const text = leaf.text.trim();
      if (!text) continue;
      const sources = evidence(text);
      const weak = selector || isWeakValue(text);
      if (sources.some((source) => source.name === "user")) {
        if (!weak) named = true;
        continue;
      }
      if (weak) continue;
      if (!sources.some((source) => trustRank(source.trust) >= trustRank("trusted"))) return false;
    }
  }
  return named;
}

/** What escalation made of one provenance gap's severity, and why. */
export interface Escalation {
  /** The gap's severity after escalation. */
  readonly severity: "confirm" | "block";
  /** `designated` when a source the user pointed at supplied the value, `undesignated` when none did. */
  readonly delegation: "designated" | "undesignated";
  /** A clause for the gap's message. */
  readonly clause: string;
}

/**
 * Escalate a `confirm` provenance gap whose value only untrusted `sources`
 * supplied: it stays `confirm` when one of them is designated
 * ({@linkcode Source.designated}), and becomes `block` otherwise. A `block`
 * gap stays a block: designation never upgrades trust, it only decides
 * whether the user may be asked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escalate } from "./designation.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const label = knownLabel(makeLabel(["public"], "suspicious"));
 * const file = { id: 3, name: "tool:read_file", trust: "suspicious" as const, label, vouches: "text" as const };
 * assert.equal(escalate("confirm", [{ ...file, designated: true }]).severity, "confirm");
 * assert.equal(escalate("confirm", [file]).severity, "block");
 * assert.equal(escalate("block", [{ ...file, designated: true }]).severity, "block");
 * ```
 */
export function escalate(severity: "confirm" | "block", sources: readonly Source[]): Escalation {
  const pointed = [...new Set(sources.filter((source) => source.designated === true).map((source) => source.name))];
  if (pointed.length) {
    return {
      severity,
      delegation: "designated",
      clause: `; the user pointed at ${pointed.join(", ")} in their own words`,
    };
  }
  const names = [...new Set(sources.map((source) => source.name))].join(", ");
  return {
    severity: "block",
    delegation: "undesignated",
    clause: `; the user did not point at ${names} (no call that read it was named in the user's own words), ` +
      `so the user is not asked`,
  };
}
