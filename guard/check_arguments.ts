/**
 * Gate 1, part one: which source supplied each argument value.
 *
 * @module
 */
import { trustRank } from "../core/mod.ts";
import { derivedArgument } from "./derived_value.ts";
import { competingQuantities, delegatedChanges, delegatedValue } from "./delegated_value.ts";
import { findEmbeddedValues, isAddressList, parseAddressList, tokenize, weakEvidence } from "../harvest/mod.ts";
import type { Evidence, Gap, Note } from "./gap.ts";
import type { ArgRule, ToolPolicy } from "./policy/mod.ts";
import type { JudgeState } from "./judge_state.ts";
import { type Leaf, readLeaves } from "./read_leaves.ts";
import { escalate } from "./designation.ts";
import { NAMED_SOURCES } from "./first_sources.ts";
import { askBeforeOpening } from "./link_only.ts";
import { askAboutCodeLikeNames } from "./code_like_name.ts";
import { onlyRecorded, recordedClause } from "./recorded_value.ts";
import { appliedRules } from "./outward.ts";
import { quoteValue } from "./quote_value.ts";
import { type Source, uniqueNames } from "./source.ts";
import type { ToolCall } from "./tool_call.ts";

/** Where the checks write their findings. */
export interface Findings {
  /** Gaps found. */
  readonly gaps: Gap[];
  /** Notes found. */
  readonly notes: Note[];
  /** Evidence found. */
  readonly evidence: Evidence[];
}

/** The values of one argument as they are judged: its leaves, with address lists split address by address. */
export function argumentValues(args: Readonly<Record<string, unknown>>, arg: string, notes: Note[]): Leaf[] {
  const value = Object.hasOwn(args, arg) ? args[arg] : undefined;
  const values: Leaf[] = [];
  for (const leaf of readLeaves(value, arg)) {
    if (leaf.deep) {
      notes.push({
        code: "deep-value",
        message: `${leaf.path} is nested beyond the indexing limit: the rest is judged as one text value`,
      });
    }
    if (!isAddressList(leaf.text)) values.push(leaf);
    else for (const address of parseAddressList(leaf.text)) values.push({ ...leaf, text: address });
  }
  return values;
}

/**
 * Check every argument the tool's policy names, and, for a tool that sends
 * data outward, the links and addresses inside its other arguments (the
 * library default, see `appliedRules`). `spec` is `undefined` for a tool the
 * policy does not name.
 */
export function checkArguments(
  state: JudgeState,
  spec: ToolPolicy | undefined,
  call: ToolCall,
  found: Findings,
): void {
  for (const [arg, { rule, byDefault }] of appliedRules(state.policy, spec, call)) {
    const allowed = allowedTexts(rule);
    for (const leaf of argumentValues(call.args, arg, found.notes)) {
      if (isBlank(leaf.text)) {
        checkBlank(rule, leaf, found);
        continue;
      }
      if (allowed.size && allowed.has(tokenize(leaf.text).join(" "))) {
        found.evidence.push({ argument: leaf.path, value: leaf.text, sources: [] });
        continue;
      }
      if (rule.embedded && rule.embedded !== "off") checkEmbedded(state, rule, leaf, byDefault, found.gaps);
      checkValue(state, rule, leaf, found);
    }
  }
  if (state.policy.default.confirmUntrustedFrom === "designated" && found.gaps.length) {
    found.gaps.splice(0, found.gaps.length, ...askBeforeOpening(call, askAboutCodeLikeNames(found.gaps)));
  }
}

/** Allow lists as token texts, made once per list (a compiled policy's lists are frozen). */
const ALLOWED_TEXTS = new WeakMap<readonly string[], ReadonlySet<string>>();
const NOTHING_ALLOWED: ReadonlySet<string> = new Set();

function allowedTexts(rule: ArgRule): ReadonlySet<string> {
  if (!rule.allow.length) return NOTHING_ALLOWED;
  let texts = ALLOWED_TEXTS.get(rule.allow);
  if (!texts) {
    texts = new Set(rule.allow.map((value) => tokenize(value).join(" ")));
    if (Object.isFrozen(rule.allow)) ALLOWED_TEXTS.set(rule.allow, texts);
  }
  return texts;
}

/** Whether a value has no token in it; a letter or digit in ASCII always makes one, so most values are not scanned. */
function isBlank(text: string): boolean {
  return !/[A-Za-z0-9]/.test(text) && tokenize(text).length === 0;
}

/**
 * A value with no token in it (empty, or only whitespace and invisible characters) carries nothing a
 * source can be shown to contain, yet the tool receives it and gives it a meaning of its own (everyone,
 * the root folder, a look-alike name). Fail closed: a rule that asks for a source or an allow list
 * passes it only when the allow list names it exactly; otherwise it is vouched by nothing.
 */
function checkBlank(rule: ArgRule, leaf: Leaf, found: Findings): void {
  if (!rule.require && !rule.allow.length) return;
  if (rule.allow.some((value) => value.trim() === leaf.text.trim())) {
    found.evidence.push({ argument: leaf.path, value: leaf.text, sources: [] });
    return;
  }
  found.gaps.push({
    code: rule.require ? "invented-argument" : "not-allowed",
    severity: rule.onViolation,
    message: `${leaf.path}=${quoteValue(leaf.text)} is blank (only whitespace or invisible characters): no input ` +
      `vouches for it; leave it out, or allow it in the policy`,
    argument: leaf.path,
    value: leaf.text,
  });
}

function checkValue(state: JudgeState, rule: ArgRule, leaf: Leaf, found: Findings): void {
  if (!rule.require && !rule.allow.length) return;
  const shown = () => `${leaf.path}=${quoteValue(leaf.text)}`;
  if (!rule.require) {
    found.gaps.push({
      code: "not-allowed",
      severity: rule.onViolation,
      message: `${shown()} is not in the allow list`,
      argument: leaf.path,
      value: leaf.text,
    });
    return;
  }
  // One look-up: the sources of a vouched value are its vouching sources; those of any other, its first sources.
  const level = trustRank(rule.require);
  const sources = state.evidence(leaf.text, rule.require);
  const vouching = sources.filter((source) => trustRank(source.trust) >= level);
  if (vouching.length) {
    found.evidence.push({ argument: leaf.path, value: leaf.text, sources: uniqueNames(vouching) });
    const weakness = weakEvidence(leaf.text);
    if (weakness) {
      found.notes.push({
        code: "weak-evidence",
        message: `${shown()} matched ${rule.require} input from ${names(vouching)}, but it is weak evidence ` +
          `(${weakness}); protect ${leaf.path} with an allow list or on_tainted`,
      });
    }
    return;
  }
  const pointed = delegatedValue(state, rule, leaf, sources);
  if (pointed) {
    found.evidence.push({ argument: leaf.path, value: leaf.text, sources: uniqueNames(pointed) });
    found.notes.push({
      code: "delegated-value",
      message: `${shown()} appears only in ${names(pointed)}, which the user pointed at, as its only quantity: ` +
        `the user delegated it`,
    });
    return;
  }
  const derived = derivedArgument(state, rule.require, leaf, delegatedChanges(state, rule, leaf));
  if (derived?.vouched) {
    const vouchers = [...new Set([...uniqueNames(derived.sources), ...derived.from])];
    found.evidence.push({ argument: leaf.path, value: leaf.text, sources: vouchers, formula: derived.formula });
    const changed = derived.from.includes("user")
      ? "changed as the user stated in their own words"
      : "changed by the only quantity in " + derived.from.join(", ") + ", which the user pointed at";
    found.notes.push({
      code: "derived-value",
      message: `${shown()} appears in no input, but is ${derived.formula}: ` +
        `${quoteValue(derived.base)} from ${names(derived.sources)}, ${changed}`,
    });
    return;
  }
  if (derived && !sources.length) {
    // Computed from a base that only weaker sources supplied: the value has its base's provenance.
    const basis = `${shown()} is ${derived.formula}, and its base ${quoteValue(derived.base)}`;
    found.gaps.push(provenanceGap(state, rule.onViolation, leaf.path, leaf.text, derived.sources, basis));
    return;
  }
  const gap = provenanceGap(state, rule.onViolation, leaf.path, leaf.text, sources, shown());
  const competing = gap.delegation === "designated" ? competingQuantities(state, rule, leaf) : undefined;
  found.gaps.push(competing ? { ...gap, message: gap.message + competing } : gap);
}

function checkEmbedded(state: JudgeState, rule: ArgRule, leaf: Leaf, byDefault: boolean, gaps: Gap[]): void {
  const level = rule.embedded as "trusted" | "attested";
  for (const value of findEmbeddedValues(leaf.text)) {
    const sources = state.evidence(value);
    if (sources.some((source) => trustRank(source.trust) >= trustRank(level))) continue;
    const gap = provenanceGap(
      state,
      rule.onViolation,
      leaf.path,
      value,
      sources,
      `${leaf.path} embeds ${quoteValue(value)},`,
    );
    gaps.push(
      byDefault
        ? {
          ...gap,
          message: `${gap.message} (library default: links and addresses sent outward need a ${level} source; ` +
            `opt out with embedded: off)`,
          rule: "outward-default",
        }
        : gap,
    );
  }
}

function provenanceGap(
  state: JudgeState,
  severity: "block" | "confirm",
  argument: string,
  value: string,
  sources: readonly Source[],
  shown: string,
): Gap {
  const embedded = shown.endsWith(",");
  if (!sources.length) {
    return {
      code: "invented-argument",
      severity,
      message: `${shown} ${embedded ? "which appears" : "appears"} in no input the model has seen`,
      argument,
      value,
    };
  }
  const message = `${shown} ${embedded ? "which appears" : "appears"} only in untrusted input from ${names(sources)}`;
  if (state.policy.default.confirmUntrustedFrom === "any" || severity === "block") {
    return { code: "untrusted-argument", severity, message, argument, value, sources: uniqueNames(sources) };
  }
  const escalation = escalate(severity, sources);
  if (
    escalation.delegation === "undesignated" && state.policy.default.confirmUntrustedFrom === "designated" &&
    onlyRecorded(sources, NAMED_SOURCES)
  ) {
    return {
      code: "untrusted-argument",
      severity,
      message: message + recordedClause(sources),
      argument,
      value,
      sources: uniqueNames(sources),
      delegation: "recorded",
    };
  }
  return {
    code: "untrusted-argument",
    severity: escalation.severity,
    message: message + escalation.clause,
    argument,
    value,
    sources: uniqueNames(sources),
    delegation: escalation.delegation,
  };
}

function names(sources: readonly Source[]): string {
  return uniqueNames(sources).join(", ");
}
