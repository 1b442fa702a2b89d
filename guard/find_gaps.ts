/**
 * Gate 1: every gap between one exact call and a yes, judged prospectively
 * against the label the branch would have after the call's own read.
 *
 * @module
 */
import { formatLabel, type Label } from "../core/label.ts";
import {
  type Cast,
  formatPartialLabel,
  knownLabel,
  meetPartial,
  type PartialLabel,
  settle,
} from "../core/partial_label.ts";
import { trustRank } from "../core/trust.ts";
import { isWeakValue, tokenize } from "../harvest/normalize.ts";
import { leafValues } from "../harvest/leaf_values.ts";
import { findEmbeddedValues } from "../harvest/embedded_values.ts";
import type { Evidence, Gap, Note } from "./gap.ts";
import { groupOf, type Policy, type ToolPolicy, toolPolicy } from "./policy.ts";
import type { Source } from "./source.ts";
import { quoteValue } from "./quote_value.ts";

/** What Gate 1 needs to know about a branch. */
export interface BranchState {
  /** The branch's running label. */
  readonly label: PartialLabel;
  /** Effects committed to the ledger. */
  readonly effects: ReadonlySet<string>;
}

/** What Gate 1 needs besides the branch state. */
export interface GapContext {
  /** The policy. */
  readonly policy: Policy;
  /** Casts for unlabelled tools, by tool name. */
  readonly casts: Readonly<Record<string, Cast>>;
  /** Judge against the label after the call's read (true) or before it (reactive, for comparison only). */
  readonly prospective: boolean;
  /** The sources that contain a value. */
  readonly evidence: (value: string) => readonly Source[];
  /** Names of the untrusted sources this branch has read. */
  readonly tainters: readonly string[];
}

/** Gate 1's findings for one call. */
export interface GapReport {
  /** The label the branch would have after the call's read. */
  readonly future: PartialLabel;
  /** Every gap, in a stable order. */
  readonly gaps: readonly Gap[];
  /** Remarks that do not block. */
  readonly notes: readonly Note[];
  /** Why each checked argument value that passed did so. */
  readonly evidence: readonly Evidence[];
}

/** The label of what a call reads, from its contract (or "unknown, from tool X"). */
export function incomingLabel(policy: Policy, tool: string, args: Readonly<Record<string, unknown>>): PartialLabel {
  const spec = toolPolicy(policy, tool)?.output ?? { kind: "unlabelled" as const };
  if (spec.kind === "label") return knownLabel(spec.label);
  if (spec.kind === "catalogue") {
    const catalogue = policy.catalogues[spec.catalogue];
    const key = catalogue.key.replace(/\{([^}]+)\}/g, (_, name: string) => String(args[name] ?? ""));
    if (Object.hasOwn(catalogue.entries, key)) return knownLabel(catalogue.entries[key]);
  }
  return { known: policy.top, unknown: [tool] };
}

/**
 * Find every gap for `tool(args)` in a branch state.
 *
 * @example
 * ```ts
 * import { findGaps } from "./find_gaps.ts";
 * import { compilePolicy } from "./compile_policy.ts";
 * import { knownLabel } from "../core/partial_label.ts";
 * const policy = compilePolicy({ version: 1, tools: { send_email: { args: { to: { require: "trusted" } } } } });
 * const report = findGaps(
 *   { policy, casts: {}, prospective: true, evidence: () => [], tainters: [] },
 *   { label: knownLabel(policy.top), effects: new Set() },
 *   "send_email",
 *   { to: "eve@attacker.example" },
 * );
 * console.log(report.gaps.map((gap) => gap.code)); // ["invented-argument"]
 * ```
 */
export function findGaps(
  context: GapContext,
  state: BranchState,
  tool: string,
  args: Readonly<Record<string, unknown>>,
): GapReport {
  const { policy } = context;
  const spec = toolPolicy(policy, tool);
  const gaps: Gap[] = [];
  const notes: Note[] = [];
  const evidence: Evidence[] = [];
  if (!spec) {
    notes.push({
      code: "unknown-tool",
      message:
        `${tool} is not in policy "${policy.source}": it is judged by the default rules and its output is untrusted`,
    });
  }
  if (spec) checkArguments(context, spec, args, gaps, notes, evidence);
  const onTainted = spec?.onTainted ?? policy.default.onTainted;
  if (context.tainters.length && onTainted !== "allow") {
    gaps.push({
      code: "tainted-context",
      severity: onTainted,
      message: `context contains untrusted input from ${context.tainters.join(", ")}`,
      sources: [...context.tainters],
    });
  }
  const future = meetPartial(state.label, incomingLabel(policy, tool, args));
  if (spec) checkContract(context, state, spec, tool, args, future, gaps, notes);
  return { future, gaps, notes, evidence };
}

function checkArguments(
  context: GapContext,
  spec: ToolPolicy,
  args: Readonly<Record<string, unknown>>,
  gaps: Gap[],
  notes: Note[],
  evidence: Evidence[],
): void {
  for (const [arg, rule] of Object.entries(spec.args)) {
    const allowed = new Set(rule.allow.map((value) => tokenize(value).join(" ")));
    for (const leaf of leafValues(args[arg], arg)) {
      if (!leaf.text.trim()) continue;
      const shown = `${leaf.path}=${quoteValue(leaf.text)}`;
      if (allowed.has(tokenize(leaf.text).join(" "))) {
        evidence.push({ argument: leaf.path, value: leaf.text, sources: [] });
        continue;
      }
      if (rule.embedded) checkEmbedded(context, rule.embedded, rule.onViolation, leaf.path, leaf.text, gaps);
      if (!rule.require && !rule.allow.length) continue;
      if (!rule.require) {
        gaps.push({
          code: "not-allowed",
          severity: rule.onViolation,
          message: `${shown} is not in the allow list`,
          argument: leaf.path,
          value: leaf.text,
        });
        continue;
      }
      const sources = context.evidence(leaf.text);
      const needed = trustRank(rule.require);
      const vouching = sources.filter((source) => trustRank(source.trust) >= needed);
      if (vouching.length) {
        evidence.push({ argument: leaf.path, value: leaf.text, sources: uniqueNames(vouching) });
        if (isWeakValue(leaf.text)) {
          notes.push({
            code: "weak-evidence",
            message:
              `${shown} matched ${rule.require} input from ${
                names(vouching)
              }, but a value this short is weak evidence; ` +
              `protect ${leaf.path} with an allow list or on_tainted`,
          });
        }
        continue;
      }
      gaps.push(
        sources.length
          ? {
            code: "untrusted-argument",
            severity: rule.onViolation,
            message: `${shown} appears only in untrusted input from ${names(sources)}`,
            argument: leaf.path,
            value: leaf.text,
            sources: uniqueNames(sources),
          }
          : {
            code: "invented-argument",
            severity: rule.onViolation,
            message: `${shown} appears in no input the model has seen`,
            argument: leaf.path,
            value: leaf.text,
          },
      );
    }
  }
}

function checkEmbedded(
  context: GapContext,
  require: "trusted" | "attested",
  severity: "block" | "confirm",
  path: string,
  text: string,
  gaps: Gap[],
): void {
  for (const value of findEmbeddedValues(text)) {
    const sources = context.evidence(value);
    if (sources.some((source) => trustRank(source.trust) >= trustRank(require))) continue;
    gaps.push(
      sources.length
        ? {
          code: "untrusted-argument",
          severity,
          message: `${path} embeds ${quoteValue(value)}, which appears only in untrusted input from ${names(sources)}`,
          argument: path,
          value,
          sources: uniqueNames(sources),
        }
        : {
          code: "invented-argument",
          severity,
          message: `${path} embeds ${quoteValue(value)}, which appears in no input the model has seen`,
          argument: path,
          value,
        },
    );
  }
}

function checkContract(
  context: GapContext,
  state: BranchState,
  spec: ToolPolicy,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  future: PartialLabel,
  gaps: Gap[],
  notes: Note[],
): void {
  const judged = context.prospective ? future : state.label;
  if (spec.recipients.length || spec.minTrust) {
    const settled = settle(judged, context.casts);
    if (!settled.ok) {
      for (const failure of settled.failures) {
        gaps.push({
          code: "unlabelled",
          severity: "block",
          message: failure.message,
          sources: [`tool:${failure.tool}`],
        });
      }
    } else {
      if (settled.casts.length) {
        notes.push({
          code: "cast",
          message: `${formatPartialLabel(judged)} settled as ${formatLabel(settled.label)} by ${
            settled.casts.join(", ")
          }`,
        });
      }
      checkReaders(context.policy, spec, tool, args, settled.label, gaps);
      if (spec.minTrust && trustRank(settled.label.trust) < trustRank(spec.minTrust)) {
        gaps.push({
          code: "trust",
          severity: "block",
          message: `${tool} needs a branch at least ${spec.minTrust}; it would be ${formatLabel(settled.label)}`,
          ...(spec.minTrust === "suspicious" ? {} : { trust: spec.minTrust }),
        });
      }
    }
  }
  for (const effect of spec.requiresPrior) {
    if (!state.effects.has(effect)) {
      gaps.push({ code: "prior", severity: "block", message: `${tool} needs "${effect}" in the ledger first`, effect });
    }
  }
  for (const effect of spec.requiresNoPrior) {
    if (state.effects.has(effect)) {
      gaps.push({
        code: "no-prior",
        severity: "block",
        message: `${tool} may not run once "${effect}" is in the ledger`,
        effect,
      });
    }
  }
  if (spec.needsApproval) {
    gaps.push({ code: "approval", severity: "block", message: `every ${tool} call needs an approver's ruling` });
  }
}

function checkReaders(
  policy: Policy,
  spec: ToolPolicy,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  label: Label,
  gaps: Gap[],
): void {
  const seen = new Set<string>();
  for (const recipient of spec.recipients) {
    const targets = "group" in recipient
      ? [{
        group: recipient.group,
        who: `group ${recipient.group}`,
        argument: undefined as string | undefined,
        value: undefined as string | undefined,
      }]
      : leafValues(args[recipient.arg], recipient.arg).map((leaf) => {
        const group = groupOf(policy, leaf.text);
        return {
          group,
          who: `${leaf.path}=${quoteValue(leaf.text)} (group ${group})`,
          argument: leaf.path,
          value: leaf.text,
        };
      });
    for (const target of targets) {
      if (label.readers.includes(target.group) || seen.has(`${target.group}\u0000${target.value}`)) continue;
      seen.add(`${target.group}\u0000${target.value}`);
      gaps.push({
        code: "recipient",
        severity: "block",
        message: `${tool} would send ${formatLabel(label)} data to ${target.who}, who may not read it`,
        group: target.group,
        ...(target.argument ? { argument: target.argument, value: target.value } : {}),
      });
    }
  }
}

function uniqueNames(sources: readonly Source[]): string[] {
  return [...new Set(sources.map((source) => source.name))];
}

function names(sources: readonly Source[]): string {
  return uniqueNames(sources).join(", ");
}
