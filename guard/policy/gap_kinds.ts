/**
 * The kinds of gap a decision can report: the vocabulary approver mandates
 * are written in. One table says, for each kind, whether a ruling may waive
 * it and what the planner says when no route clears it.
 *
 * @module
 */

/** The kinds of gap a decision can report. Approver mandates name these. */
export type GapCode =
  | "untrusted-argument"
  | "invented-argument"
  | "not-allowed"
  | "tainted-context"
  | "recipient"
  | "trust"
  | "prior"
  | "no-prior"
  | "approval"
  | "unlabelled"
  | "guard-error";

/** What pab knows about one gap kind. */
export interface GapKind {
  /** Whether an approver's mandate may name it. */
  readonly waivable: boolean;
  /** Why no route clears it, beyond the approvers' refusals (empty when nothing more is known). */
  readonly noRoute: string;
}

const PROVENANCE =
  "only a value a trusted source supplied (the user, or a tool the policy trusts) or the allow list passes";
const STRICTER = "reading more can only make the label stricter";

/** Every gap kind, in the order explanations list them. */
export const GAP_KINDS: Readonly<Record<GapCode, GapKind>> = Object.freeze({
  "untrusted-argument": { waivable: true, noRoute: PROVENANCE },
  "invented-argument": { waivable: true, noRoute: PROVENANCE },
  "not-allowed": { waivable: true, noRoute: PROVENANCE },
  "tainted-context": {
    waivable: true,
    noRoute: "do untrusted reads in a child branch so they stay out of this context",
  },
  recipient: { waivable: true, noRoute: STRICTER },
  trust: { waivable: true, noRoute: STRICTER },
  prior: { waivable: true, noRoute: "" },
  "no-prior": { waivable: true, noRoute: "the ledger is append-only, so this cannot be undone" },
  approval: { waivable: true, noRoute: "" },
  unlabelled: { waivable: true, noRoute: "label the tool in the policy, or register a cast for it" },
  "guard-error": { waivable: false, noRoute: "the guard failed while deciding; no ruling can waive that" },
});

/** Every gap code, in the order explanations list them. */
export const GAP_CODES: readonly GapCode[] = Object.freeze(Object.keys(GAP_KINDS) as GapCode[]);

/** Gap codes an approver's mandate may name (`guard-error` can never be waived). */
export const WAIVABLE_GAP_CODES: readonly GapCode[] = Object.freeze(
  GAP_CODES.filter((code) => GAP_KINDS[code].waivable),
);

/**
 * Whether a value names a gap code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isGapCode } from "./gap_kinds.ts";
 * assert.equal(isGapCode("recipient"), true);
 * assert.equal(isGapCode("toString"), false);
 * ```
 */
export function isGapCode(value: unknown): value is GapCode {
  return typeof value === "string" && Object.hasOwn(GAP_KINDS, value);
}
