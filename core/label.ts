/**
 * Labels: who may read a piece of data (readers) and how far it is trusted.
 *
 * A label is a point of the product lattice `readers x trust`. Combining two
 * labels with {@linkcode meet} keeps only the shared readers and the lower
 * trust, so a running label can only get stricter.
 *
 * @module
 */
import { lowerTrust, type Trust, trustRank } from "./trust.ts";

/** A label: the groups that may read the data, and how far it is trusted. */
export interface Label {
  /** Sorted, de-duplicated group names that may read the data. */
  readonly readers: readonly string[];
  /** How far the data is trusted. */
  readonly trust: Trust;
}

/**
 * Make a label from any collection of readers (sorted and de-duplicated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeLabel, formatLabel } from "./label.ts";
 * assert.deepEqual(formatLabel(makeLabel(["hr", "staff", "hr"], "trusted")), "<hr,staff | trusted>");
 * ```
 */
export function makeLabel(readers: Iterable<string>, trust: Trust): Label {
  trustRank(trust);
  return Object.freeze({ readers: Object.freeze([...new Set(readers)].sort()), trust });
}

/**
 * Combine two labels: keep the readers both allow and the lower trust.
 *
 * `meet` is commutative, associative and idempotent, and its result is
 * {@linkcode atMost} both inputs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeLabel, meet, formatLabel } from "./label.ts";
 * const web = makeLabel(["public", "staff", "hr"], "suspicious");
 * const hr = makeLabel(["hr"], "trusted");
 * assert.deepEqual(formatLabel(meet(web, hr)), "<hr | suspicious>");
 * ```
 */
export function meet(a: Label, b: Label): Label {
  // A running label meets the same few labels on every call: frozen labels cannot change, so their meet is kept.
  const frozen = Object.isFrozen(a) && Object.isFrozen(b) && Object.isFrozen(a.readers) && Object.isFrozen(b.readers);
  const known = frozen ? MEETS.get(a)?.get(b) : undefined;
  if (known) return known;
  const other = new Set(b.readers);
  const label = makeLabel(a.readers.filter((reader) => other.has(reader)), lowerTrust(a.trust, b.trust));
  if (frozen) {
    let row = MEETS.get(a);
    if (!row) MEETS.set(a, row = new WeakMap());
    row.set(b, label);
  }
  return label;
}

/** Meets of frozen labels already made, by their two labels (held weakly: a label no longer used is forgotten). */
const MEETS = new WeakMap<Label, WeakMap<Label, Label>>();

/**
 * Whether `a` is at least as strict as `b`: no reader `b` lacks, and no more trust.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeLabel, atMost } from "./label.ts";
 * assert.deepEqual(atMost(makeLabel(["hr"], "trusted"), makeLabel(["hr", "staff"], "trusted")), true);
 * ```
 */
export function atMost(a: Label, b: Label): boolean {
  const allowed = new Set(b.readers);
  return a.readers.every((reader) => allowed.has(reader)) && trustRank(a.trust) <= trustRank(b.trust);
}

/** Whether two labels are the same point of the lattice. */
export function labelsEqual(a: Label, b: Label): boolean {
  return a.trust === b.trust && a.readers.length === b.readers.length &&
    a.readers.every((reader, i) => reader === b.readers[i]);
}

/**
 * Print a label the way pab's explanations do: `<finance,hr | trusted>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeLabel, formatLabel } from "./label.ts";
 * assert.deepEqual(formatLabel(makeLabel([], "suspicious")), "<nobody | suspicious>");
 * ```
 */
export function formatLabel(label: Label): string {
  return `<${label.readers.length ? label.readers.join(",") : "nobody"} | ${label.trust}>`;
}
