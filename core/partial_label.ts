/**
 * Gradual labels: a label with some sources nobody has labelled yet.
 *
 * Data from a tool that has no label is carried as "unknown, from tool X".
 * It flows freely until it reaches a check; there a registered cast, bounded
 * by its ceiling, settles it, and a missing cast fails closed.
 *
 * @module
 */
import { atMost, formatLabel, type Label, meet } from "./label.ts";
import { errorText } from "./error_text.ts";

/** A label whose `unknown` part names the unlabelled tools it came from. */
export interface PartialLabel {
  /** What is known for certain. */
  readonly known: Label;
  /** Sorted names of the unlabelled tools whose data is mixed in. */
  readonly unknown: readonly string[];
}

/** Wrap a fully known label. */
export function knownLabel(label: Label): PartialLabel {
  // A frozen label (every label makeLabel gives) is wrapped once: recording the same tool's outputs makes none anew.
  const known = KNOWN.get(label);
  if (known !== undefined) return known;
  const wrapped: PartialLabel = Object.freeze({ known: label, unknown: NOTHING_UNKNOWN });
  if (Object.isFrozen(label) && Object.isFrozen(label.readers)) KNOWN.set(label, wrapped);
  return wrapped;
}

const NOTHING_UNKNOWN: readonly string[] = Object.freeze([]);
const KNOWN = new WeakMap<Label, PartialLabel>();

/**
 * Combine two partial labels: meet the known parts and join the unknown sources.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeLabel } from "./label.ts";
 * import { knownLabel, meetPartial, formatPartialLabel } from "./partial_label.ts";
 * const top = knownLabel(makeLabel(["public", "staff"], "trusted"));
 * const wiki = { known: top.known, unknown: ["wiki_search"] };
 * assert.deepEqual(formatPartialLabel(meetPartial(top, wiki)), "<public,staff | trusted> + unknown from wiki_search");
 * ```
 */
export function meetPartial(a: PartialLabel, b: PartialLabel): PartialLabel {
  const known = meet(a.known, b.known);
  // When one side adds no unknown source, the other's frozen, sorted list is already the join.
  const unknown = !b.unknown.length && isSortedFrozen(a.unknown)
    ? a.unknown
    : !a.unknown.length && isSortedFrozen(b.unknown)
    ? b.unknown
    : Object.freeze([...new Set([...a.unknown, ...b.unknown])].sort());
  if (known === a.known && unknown === a.unknown && Object.isFrozen(a)) return a;
  return Object.freeze({ known, unknown });
}

/** Whether a list of names is frozen, sorted and free of repeats (as `sort()` orders strings). */
function isSortedFrozen(names: readonly string[]): boolean {
  if (!Object.isFrozen(names)) return false;
  for (let i = 1; i < names.length; i++) if (!(names[i - 1] < names[i])) return false;
  return true;
}

/** A registered labeller for one unlabelled tool, with the most generous label it may give. */
export interface Cast {
  /** The cast's name, shown in decisions. */
  readonly name: string;
  /** The most generous label this cast may ever return. */
  readonly ceiling: Label;
  /** Work out the label of data from `tool`. */
  readonly resolve: (tool: string) => Label;
}

/** Why a partial label could not be settled. */
export interface SettleFailure {
  /** The unlabelled tool that could not be settled. */
  readonly tool: string;
  /** `no-cast` when nothing is registered, `above-ceiling` when the cast overreached. */
  readonly reason: "no-cast" | "above-ceiling" | "cast-failed";
  /** A sentence for the decision's explanation. */
  readonly message: string;
}

/** The result of settling a partial label. */
export type SettleResult =
  | { readonly ok: true; readonly label: Label; readonly casts: readonly string[] }
  | { readonly ok: false; readonly failures: readonly SettleFailure[] };

/**
 * Settle the unknown part of a label with registered casts, failing closed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeLabel } from "./label.ts";
 * import { settle } from "./partial_label.ts";
 * const company = makeLabel(["staff"], "trusted");
 * const result = settle({ known: makeLabel(["public", "staff"], "trusted"), unknown: ["wiki"] }, {
 *   wiki: { name: "wiki_acl", ceiling: company, resolve: () => company },
 * });
 * assert.deepEqual(result.ok, true);
 * ```
 */
export function settle(label: PartialLabel, casts: Readonly<Record<string, Cast>>): SettleResult {
  let settled = label.known;
  const failures: SettleFailure[] = [];
  const used: string[] = [];
  for (const tool of label.unknown) {
    const cast = Object.hasOwn(casts, tool) ? casts[tool] : undefined;
    if (!cast) {
      failures.push({
        tool,
        reason: "no-cast",
        message: `${tool}: no cast is registered, so its data cannot reach this check`,
      });
      continue;
    }
    let resolved: Label;
    try {
      resolved = cast.resolve(tool);
    } catch (error) {
      failures.push({ tool, reason: "cast-failed", message: `${tool}: cast ${cast.name} failed: ${errorText(error)}` });
      continue;
    }
    if (!atMost(resolved, cast.ceiling)) {
      failures.push({
        tool,
        reason: "above-ceiling",
        message: `${tool}: cast ${cast.name} tried ${formatLabel(resolved)}, its ceiling is ${
          formatLabel(cast.ceiling)
        }`,
      });
      continue;
    }
    used.push(cast.name);
    settled = meet(settled, resolved);
  }
  return failures.length ? { ok: false, failures } : { ok: true, label: settled, casts: used };
}

/** Print a partial label: `<hr | trusted> + unknown from wiki_search`. */
export function formatPartialLabel(label: PartialLabel): string {
  const known = formatLabel(label.known);
  return label.unknown.length ? `${known} + unknown from ${label.unknown.join(", ")}` : known;
}
