/**
 * Gaps: everything that stands between one exact call and a yes, as plain data.
 *
 * @module
 */
import { canonicalJson } from "../core/mod.ts";
import type { GapCode } from "./policy/mod.ts";

export type { GapCode } from "./policy/mod.ts";

/**
 * How a gap may be cleared: `confirm` gaps can be waived by the user's
 * confirmation (a ruling from the user); `block` gaps only by an approver
 * whose mandate names the gap's code, or by changing the situation.
 */
export type Severity = "confirm" | "block";

/** One reason a call is not allowed outright. */
export interface Gap {
  /** What kind of gap this is. */
  readonly code: GapCode;
  /** Whether the user's confirmation is enough to waive it. */
  readonly severity: Severity;
  /** A sentence naming the rule, the argument, the value and the source. */
  readonly message: string;
  /** The argument concerned, if any (a dotted path for nested values). */
  readonly argument?: string;
  /** The offending value, if any. */
  readonly value?: string;
  /** The sources involved, such as `tool:read_inbox`. */
  readonly sources?: readonly string[];
  /** For `recipient` gaps: the group that may not read the data. */
  readonly group?: string;
  /** For `trust` gaps: the least trust the call needs. */
  readonly trust?: "attested" | "trusted";
  /** For `prior` / `no-prior` gaps: the ledger effect key. */
  readonly effect?: string;
  /**
   * For provenance gaps judged by delegation-aware escalation: `designated`
   * when a source the user pointed at supplied the value (the user may be
   * asked), `undesignated` when none did (blocked outright), `recorded` when
   * none did but strangers wrote the value only as a field of its own, never
   * inside their text (the user is asked; see `recorded_value.ts`), `link`
   * when none did but the call carries nothing but that link (the user is
   * asked whether to open it; see `link_only.ts`), `code-name` when none did
   * but the value reads as a member access as much as a host (`user.name`:
   * the user is asked; see `code_like_name.ts`).
   */
  readonly delegation?: "designated" | "undesignated" | "recorded" | "link" | "code-name";
  /** `outward-default` when the library default for outward tools, not a policy rule, found the gap. */
  readonly rule?: "outward-default";
}

/** Why a checked argument value passed: the sources that vouched for it, or its allow list. */
export interface Evidence {
  /** The argument (a dotted path for nested values). */
  readonly argument: string;
  /** The value. */
  readonly value: string;
  /** The vouching sources, such as `user` or `tool:get_contacts`; empty when the allow list passed it. */
  readonly sources: readonly string[];
  /**
   * For a value computed from a change the user stated (or delegated): how it follows from its base, such as
   * `1100 + 100`; `sources` then vouch for the base, and `user` (or the designated source) for the change.
   */
  readonly formula?: string;
}

/** The kinds of remark a decision or the audit log can carry. */
export type NoteCode =
  | "weak-evidence"
  | "unknown-tool"
  | "cast"
  | "ruling-ignored"
  | "user-declined"
  | "deep-value"
  | "structure-lost"
  | "label-invalid"
  | "effect-in-flight"
  | "derived-value"
  | "delegated-value";

/** A remark that does not block, such as weak evidence. */
export interface Note {
  /**
   * `weak-evidence`, `unknown-tool`, `cast` (a cast settled an unlabelled
   * source), `ruling-ignored` (a ruling for another call, label or set of
   * gaps, already spent, or not minted by this branch), `user-declined` (the
   * confirm callback said no or threw), `deep-value` (a value nested beyond
   * the indexing limit was matched as text), `structure-lost` (an output that
   * looks like JSON did not parse, so it vouches for nothing), `label-invalid`
   * (a malformed label was replaced by the strictest one), `effect-in-flight`
   * `derived-value` (a value computed from a change the user stated, or
   * delegated, passed: its base is vouched for, the change is in the user's
   * words or the only quantity of a source the user pointed at) or
   * `delegated-value` (a quantity passed as the only one the sources the user
   * pointed at hold).
   */
  readonly code: NoteCode;
  /** What to know and what to do about it. */
  readonly message: string;
}

/**
 * The identity of a gap as it was shown: everything but its severity. A
 * ruling waives only gaps whose identity it was shown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gapKey } from "./gap.ts";
 * const gap = { code: "approval" as const, severity: "block" as const, message: "every refund call needs a ruling" };
 * assert.equal(gapKey(gap), gapKey({ ...gap, severity: "confirm" }));
 * assert.notEqual(gapKey(gap), gapKey({ ...gap, message: "another" }));
 * ```
 */
export function gapKey(gap: Gap): string {
  const { severity: _, ...identity } = gap;
  return canonicalJson(identity);
}
