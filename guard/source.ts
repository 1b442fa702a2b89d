/**
 * Sources: every input the model has seen, with its label.
 *
 * @module
 */
import type { PartialLabel, Trust } from "../core/mod.ts";

/** One input the model has seen. */
export interface Source {
  /** Position in the conversation, from 0. */
  readonly id: number;
  /** `system`, `user`, `tool:NAME` or `branch:SCHEMA`. */
  readonly name: string;
  /** How far this source vouches for values found in it. Unlabelled tools are `suspicious`. */
  readonly trust: Trust;
  /** Its label (readers x trust, possibly with unknown parts). */
  readonly label: PartialLabel;
  /** `fields` when only complete field values count as evidence; `text` otherwise. */
  readonly vouches: "text" | "fields";
  /**
   * Whether the user designated this source: the call that produced it was
   * named in the user's own words (see `isDesignated`). Absent means no.
   */
  readonly designated?: boolean;
  /**
   * Whether strangers wrote it as records: the fields of a structured output
   * that the policy leaves to strangers and that each hold one value (a
   * sender, a name, an address; see `isRecordField`), not text. Absent means no.
   */
  readonly record?: boolean;
}

/**
 * The distinct names of some sources, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { uniqueNames } from "./source.ts";
 * assert.deepEqual(uniqueNames([{ name: "tool:a" }, { name: "user" }, { name: "tool:a" }]), ["tool:a", "user"]);
 * ```
 */
export function uniqueNames(sources: readonly Pick<Source, "name">[]): string[] {
  // A few sources (a value's named sources are at most NAMED_SOURCES): a list is cheaper than a Set and two copies.
  const names: string[] = [];
  for (const { name } of sources) if (!names.includes(name)) names.push(name);
  return names;
}
