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
import { canonicalEntity, isWeakValue } from "../harvest/mod.ts";
import { nameWords } from "./name_words.ts";
import { readLeaves } from "./read_leaves.ts";
import { type Source, uniqueNames } from "./source.ts";

/** The last word of an argument name that states a text criterion: a search term. */
const TEXT_CRITERION_WORDS: readonly string[] = [
  "query",
  "q",
  "search",
  "keyword",
  "keywords",
  "term",
  "terms",
  "filter",
  "pattern",
];

/**
 * The last word of an argument name that selects by a criterion instead of
 * naming one object: a search term, a date, a bound. Anyone can write an item
 * that meets a criterion (an e-mail about "family reunion", an invitation on
 * May 15th), so a criterion the user stated does not designate what comes back.
 */
const SELECTOR_WORDS: ReadonlySet<string> = new Set([
  ...TEXT_CRITERION_WORDS,
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
  return SELECTOR_WORDS.has(nameWords(name).at(-1) ?? "");
}

/**
 * Whether the user designated the source a call reads. Three ways:
 *
 * - _Named._ An argument that names an object (not a criterion,
 *   {@linkcode isSelectorName}) is vouched for by the user's own words (a
 *   `user` source, by the guard's provenance matching).
 * - _Reached through a designated source._ An object-naming argument came
 *   from a source the user designated (a link in the message the user pointed
 *   at, a channel on the to-do page the user gave): the user delegated
 *   following it. Designation flows along such pointers, never from a source
 *   the user did not designate.
 * - _A kind the user named._ The call selects only by criteria the user
 *   stated ("the emails about the hiking trip": `search_emails` with query
 *   `hiking trip`), and the user's words name the kind of object the tool
 *   reads: the last word of its name, singular or plural (`emails`).
 *
 * In every case, no object-naming argument may be a pointer that only
 * undesignated untrusted input (or nothing) supplied. Short values
 * (`isWeakValue`: counts, one or two characters) neither designate nor
 * disqualify. `options.tool` (the call's tool) enables the third way;
 * `options.follow: false` keeps only the first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isDesignated } from "./designation.ts";
 * import type { Source } from "./source.ts";
 * import { knownLabel, makeLabel } from "../core/mod.ts";
 * const label = knownLabel(makeLabel(["public"], "trusted"));
 * const user: Source = { id: 0, name: "user", trust: "trusted", label, vouches: "text" };
 * const inbox: Source = { id: 1, name: "tool:read_inbox", trust: "suspicious", label, vouches: "text" };
 * const named: Source = { ...inbox, id: 2, designated: true };
 * const seen: Record<string, Source[]> = {
 *   "bill-december-2023.txt": [user], "www.evil.example": [inbox], "www.bob.example": [named],
 *   "hiking trip": [user], "the emails": [user],
 * };
 * const evidence = (value: string) => seen[value] ?? [];
 * assert.equal(isDesignated(evidence, { file_path: "bill-december-2023.txt" }), true);
 * assert.equal(isDesignated(evidence, { url: "www.evil.example" }), false);
 * assert.equal(isDesignated(evidence, { url: "www.bob.example" }), true); // a link in a designated source
 * assert.equal(isDesignated(evidence, { n: 50 }), false);
 * assert.equal(isDesignated((v) => ["42", "ticket 42"].includes(v) ? [user] : [], { id: 42 }, { tool: "read_ticket" }), true);
 * assert.equal(isDesignated((v) => v === "42" ? [user] : [], { id: 42 }, { tool: "read_ticket" }), false); // a bare 42
 * assert.equal(isDesignated(evidence, { query: "bill-december-2023.txt" }), false); // a criterion, not a name
 * assert.equal(isDesignated(evidence, { query: "hiking trip" }, { tool: "search_emails" }), true); // "the emails ..."
 * assert.equal(isDesignated(evidence, { query: "hiking trip" }, { tool: "search_files" }), false);
 * assert.equal(isDesignated(evidence, { url: "www.bob.example" }, { follow: false }), false);
 * ```
 */
export function isDesignated(
  evidence: (value: string) => readonly Source[],
  args: Readonly<Record<string, unknown>>,
  options: DesignationOptions = {},
): boolean {
  const follow = options.follow ?? true;
  let named = false;
  let statedCriterion = false;
  for (const [arg, value] of Object.entries(args)) {
    const selector = isSelectorName(arg);
    for (const leaf of readLeaves(value, arg)) {
      const text = leaf.text.trim();
      if (!text) continue;
      const sources = evidence(text);
      const weak = selector || isWeakValue(text);
      if (sources.some((source) => source.name === "user")) {
        if (!weak) named = true;
        else if (selector && !isWeakValue(text) && isTextCriterion(arg)) statedCriterion = true;
        else if (!selector && namesByKind(evidence, text, arg, options.tool)) named = true;
        continue;
      }
      if (weak) continue;
      if (sources.some((source) => trustRank(source.trust) >= trustRank("trusted"))) continue;
      // A link in a source the user designated: the user delegated following it.
      if (follow && isLink(text) && sources.some((source) => source.designated === true)) {
        named = true;
        continue;
      }
      return false;
    }
  }
  if (named) return true;
  return follow && statedCriterion && options.tool !== undefined && pointsAtKind(evidence, options.tool);
}

/**
 * Whether the user's words name a short value by its kind: "ticket 42" for
 * `read_ticket({id: 42})` or `get({ticket_id: 42})`. A bare `42` is too weak to
 * name anything; the kind written before it (a word of the argument's name or
 * the last word of the tool's, three letters or more, singular or plural)
 * makes it a name.
 */
function namesByKind(
  evidence: (value: string) => readonly Source[],
  value: string,
  arg: string,
  tool: string | undefined,
): boolean {
  const kinds = new Set<string>();
  for (const word of [...nameWords(arg), ...(tool ? nameWords(tool).slice(1).slice(-1) : [])]) {
    if (word.length < 3 || GENERIC_WORDS.has(word)) continue;
    const singular = word.endsWith("s") ? word.slice(0, -1) : word;
    kinds.add(singular).add(`${singular}s`);
  }
  return [...kinds].some((kind) => evidence(`${kind} ${value}`).some((source) => source.name === "user"));
}

const GENERIC_WORDS: ReadonlySet<string> = new Set(["ids", "number", "num", "key", "index", "value", "item", "items"]);

/** How {@linkcode isDesignated} reads a call. */
export interface DesignationOptions {
  /** The call's tool: a call that selects by the user's criteria is designated when the user points at its kind. */
  readonly tool?: string;
  /**
   * Whether designation follows links in designated sources and the kinds the user points at (default `true`);
   * `false` designates only by the user naming the object (`confirm_untrusted_from: named`).
   */
  readonly follow?: boolean;
}

/** Whether an argument states a text criterion (a search term), not a date, a time or a bound. */
function isTextCriterion(name: string): boolean {
  return TEXT_CRITERION_WORDS.includes(nameWords(name).at(-1) ?? "");
}

/** Whether a value is a link: a URL or a host, as the matcher reads them. */
export function isLink(text: string): boolean {
  const type = canonicalEntity(text)?.type;
  return type === "url" || type === "host";
}

/**
 * Whether the user's words point at the kind of object a tool reads: the last
 * word of its name (at least three letters, in a name of two words or more),
 * singular or plural, after `the`, `this`, `that`, `these` or `those`
 * ("the emails about the trip" for `search_emails`).
 */
function pointsAtKind(evidence: (value: string) => readonly Source[], tool: string): boolean {
  const words = nameWords(tool);
  const noun = words.at(-1);
  if (!noun || noun.length < 3 || words.length < 2) return false;
  const singular = noun.endsWith("s") ? noun.slice(0, -1) : noun;
  return POINTING_WORDS.some((word) =>
    [singular, `${singular}s`].some((form) => evidence(`${word} ${form}`).some((source) => source.name === "user"))
  );
}

const POINTING_WORDS: readonly string[] = ["the", "this", "that", "these", "those"];

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
  const pointed = uniqueNames(sources.filter((source) => source.designated === true));
  if (pointed.length) {
    return {
      severity,
      delegation: "designated",
      clause: `; the user pointed at ${pointed.join(", ")} in their own words`,
    };
  }
  const names = uniqueNames(sources).join(", ");
  return {
    severity: "block",
    delegation: "undesignated",
    clause: `; the user did not point at ${names} (no call that read it was named in the user's own words), ` +
      `so the user is not asked`,
  };
}
