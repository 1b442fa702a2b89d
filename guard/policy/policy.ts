/**
 * The compiled policy: plain, frozen data that the guard decides from.
 *
 * Load one with {@linkcode parsePolicy} (YAML or JSONC text) or
 * {@linkcode compilePolicy} (an already parsed object).
 *
 * @module
 */
import type { Label, Trust } from "../../core/mod.ts";
import type { GapCode } from "./gap_kinds.ts";

/** What a tool's call reads and returns, as the policy declares it. */
export type OutputSpec =
  /** A fixed label. */
  | { readonly kind: "label"; readonly label: Label }
  /** A label looked up in a trusted catalogue by the call's arguments. */
  | { readonly kind: "catalogue"; readonly catalogue: string }
  /** Nobody labelled this tool: its data is "unknown, from this tool" until a cast settles it. */
  | { readonly kind: "unlabelled" };

/** What a tool's argument must satisfy. */
export interface ArgRule {
  /** The least trust a source must have to vouch for the value, if any. */
  readonly require?: "trusted" | "attested";
  /**
   * The least trust a source must have to vouch for each link or e-mail address
   * found inside the value, however free the text around them is; `off` opts
   * this argument out of the library default for outward tools
   * ({@linkcode PolicyDefaults.outwardEmbedded}).
   */
  readonly embedded?: "trusted" | "attested" | "off";
  /** Values that always pass (compared after normalisation). */
  readonly allow: readonly string[];
  /** What a violation costs: `block`, or `confirm` (the user may waive it). */
  readonly onViolation: "block" | "confirm";
}

/** Who receives what a call sends: a fixed group, or the directory group of an argument's value. */
export type Recipient = { readonly group: string } | { readonly arg: string };

/** A tool's contract and provenance rules. */
export interface ToolPolicy {
  /** The label of what the call reads and returns. */
  readonly output: OutputSpec;
  /**
   * Whether the call sends data outward, as the policy says it (`outward:`);
   * `undefined` lets {@linkcode isOutward} derive it from the contract and the
   * argument names.
   */
  readonly outward?: boolean;
  /**
   * Field names whose values in the tool's structured output are written by
   * strangers (an e-mail body, a transaction subject): they are recorded as a
   * separate untrusted source, while the other fields keep the output's label.
   */
  readonly untrustedFields: readonly string[];
  /**
   * Field names whose values in the tool's structured output the platform
   * itself writes (ids, timestamps, amounts): when given, only these keep the
   * output's label; every other field, and output that is not structured, is
   * recorded as untrusted. The fail-safe twin of `untrustedFields`.
   */
  readonly trustedFields: readonly string[];
  /**
   * What a tainted context costs a call (`undefined` falls back to the
   * default): `allow` nothing; `confirm` the user's word; `block` no route;
   * `pinned` the user's word only when some argument of the call has no rule
   * (a `require` rule, an `allow` list, or an `embedded` rule on free text), or
   * the tool has no `require` rule at all: where provenance pins every
   * effect-bearing argument, strangers' text in the context alone does not ask;
   * `named` as `pinned`, and each `require` argument's value must also come
   * from the user's own words (a value a listing alone vouches for is a choice
   * strangers' text may have steered).
   */
  readonly onTainted?: "allow" | "confirm" | "block" | "pinned" | "named";
  /** Rules for named arguments. */
  readonly args: Readonly<Record<string, ArgRule>>;
  /** Who receives what the call sends. */
  readonly recipients: readonly Recipient[];
  /** The least trust the branch must have (after the call's own read). */
  readonly minTrust?: Trust;
  /** Ledger effects written when the call really finishes: templates such as `legal.precleared{client}` (see `effectKey`). */
  readonly effects: readonly string[];
  /** Effects that must already be in the ledger. */
  readonly requiresPrior: readonly string[];
  /** Effects that must not be in the ledger yet. */
  readonly requiresNoPrior: readonly string[];
  /** Whether every call needs an approver's ruling. */
  readonly needsApproval: boolean;
  /** How the tool may run as a prerequisite: its arguments, with `{{arg}}` taken from the blocked call. */
  readonly prerequisite?: { readonly args: Readonly<Record<string, unknown>> };
}

/** A trusted catalogue of labels, looked up by a key built from arguments. */
export interface Catalogue {
  /** A template such as `{system}/{name}`. */
  readonly key: string;
  /** Labels by key. */
  readonly entries: Readonly<Record<string, Label>>;
}

/** An approver named in the policy; its business rule is registered in code. */
export interface ApproverPolicy {
  /** The gap codes it may waive. */
  readonly mandate: readonly GapCode[];
}

/** One field of an answer schema. */
export type FieldSpec =
  | { readonly type: "bool" }
  | { readonly type: "int"; readonly min: number; readonly max: number }
  | { readonly type: "enum"; readonly values: readonly string[] };

/** A fixed shape for the answer a child branch may return, and the label it re-enters with. */
export interface AnswerSchema {
  /** The exact field set. */
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** The label the answer carries into the parent, chosen by the deployer. */
  readonly merge: Label;
  /** Tools whose reads may be done in a child branch with this schema. */
  readonly tools: readonly string[];
}

/** A cast the policy allows for an unlabelled tool; the labeller itself is registered in code. */
export interface CastPolicy {
  /** The name of the registered labeller. */
  readonly cast: string;
  /** The most generous label the cast may give. */
  readonly ceiling: Label;
}

/** The policy's `default:` section, with the library's defaults filled in. */
export interface PolicyDefaults {
  /** What a tool the policy does not name needs once untrusted input was read (`on_tainted`). */
  readonly onTainted: "confirm" | "block" | "pinned" | "named";
  /**
   * The least trust a source must have to vouch for a link or e-mail address
   * inside any argument of a tool that sends data outward, when the policy has
   * no rule that already vouches for the whole value (`outward_embedded`;
   * default `trusted`; `off` opts the whole policy out).
   */
  readonly outwardEmbedded: "trusted" | "attested" | "off";
  /**
   * Which sources of untrusted origin may lead to a question to the user
   * (`confirm_untrusted_from`): `designated` (default) only a source the user
   * pointed at (named in their own words, reached through a link in such a
   * source, or of a kind their words point at), so a value only other
   * untrusted sources supplied is blocked outright; `named` only a source the
   * user named in their own words (pab v3); `any` every source (pab v2).
   */
  readonly confirmUntrustedFrom: "designated" | "named" | "any";
}

/** A compiled, validated policy. */
export interface Policy {
  /** Where the policy came from (a file name), for messages. */
  readonly source: string;
  /** The policy format version (1). */
  readonly version: 1;
  /** Every reader group, sorted. */
  readonly groups: readonly string[];
  /** The group of an address nobody listed. */
  readonly unknownGroup: string;
  /** Address (or `*suffix` pattern) to group. */
  readonly directory: Readonly<Record<string, string>>;
  /** The label of a clean session: every group, trusted. */
  readonly top: Label;
  /** Named labels. */
  readonly labels: Readonly<Record<string, Label>>;
  /** Trusted catalogues. */
  readonly catalogues: Readonly<Record<string, Catalogue>>;
  /** Approvers and their mandates. */
  readonly approvers: Readonly<Record<string, ApproverPolicy>>;
  /** Answer schemas for child branches. */
  readonly schemas: Readonly<Record<string, AnswerSchema>>;
  /** Casts allowed for unlabelled tools, by tool name. */
  readonly casts: Readonly<Record<string, CastPolicy>>;
  /** Rules for tools the policy does not name, and the library defaults every tool gets. */
  readonly default: PolicyDefaults;
  /** Per-tool rules. */
  readonly tools: Readonly<Record<string, ToolPolicy>>;
}

/** The policy entry for a tool, or `undefined` when the policy does not name it. */
export function toolPolicy(policy: Policy, tool: string): ToolPolicy | undefined {
  return Object.hasOwn(policy.tools, tool) ? policy.tools[tool] : undefined;
}

/**
 * The directory group of an address: an exact entry, else the longest
 * matching `*suffix` pattern, else the policy's unknown group. A value that
 * is not one bare address (it has spaces, commas, semicolons or angle
 * brackets) is in the unknown group: split address lists first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compilePolicy, groupOf } from "./mod.ts";
 * const policy = compilePolicy({
 *   version: 1,
 *   readers: { groups: ["public", "staff"], directory: { "*@corp.example": "staff" }, unknown: "public" },
 * });
 * assert.equal(groupOf(policy, "alice@corp.example"), "staff");
 * assert.equal(groupOf(policy, "eve@attacker.example all@corp.example"), "public");
 * ```
 */
export function groupOf(policy: Policy, address: string): string {
  const key = address.trim().toLowerCase();
  if (/[\s,;<>]/.test(key)) return policy.unknownGroup;
  if (Object.hasOwn(policy.directory, key)) return policy.directory[key];
  let best: [string, string] | undefined;
  for (const [pattern, group] of Object.entries(policy.directory)) {
    if (pattern.startsWith("*") && key.endsWith(pattern.slice(1)) && (!best || pattern.length > best[0].length)) {
      best = [pattern, group];
    }
  }
  return best ? best[1] : policy.unknownGroup;
}
