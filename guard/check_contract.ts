/**
 * Gate 1, part two: the tool's contract against the label the branch would
 * have after the call's own read (readers, trust), and the ledger.
 *
 * @module
 */
import { formatLabel, formatPartialLabel, type Label, type PartialLabel, settle, trustRank } from "../core/mod.ts";
import { effectKey, groupOf, type Policy, type ToolPolicy } from "./policy/mod.ts";
import { argumentValues, type Findings } from "./check_arguments.ts";
import type { JudgeState } from "./judge_state.ts";
import { quoteValue } from "./quote_value.ts";
import type { ToolCall } from "./tool_call.ts";

/** Check readers, trust, ledger effects and approval for one call. */
export function checkContract(
  state: JudgeState,
  spec: ToolPolicy,
  call: ToolCall,
  future: PartialLabel,
  found: Findings,
): void {
  const judged = state.prospective ? future : state.label;
  if (spec.recipients.length || spec.minTrust) {
    const settled = settle(judged, state.casts);
    if (!settled.ok) {
      for (const failure of settled.failures) {
        found.gaps.push({
          code: "unlabelled",
          severity: "block",
          message: failure.message,
          sources: [`tool:${failure.tool}`],
        });
      }
    } else {
      if (settled.casts.length) {
        found.notes.push({
          code: "cast",
          message: `${formatPartialLabel(judged)} settled as ${formatLabel(settled.label)} by ${
            settled.casts.join(", ")
          }`,
        });
      }
      checkReaders(state.policy, spec, call, settled.label, found);
      if (spec.minTrust && trustRank(settled.label.trust) < trustRank(spec.minTrust)) {
        found.gaps.push({
          code: "trust",
          severity: "block",
          message: `${call.tool} needs a branch at least ${spec.minTrust}; it would be ${formatLabel(settled.label)}`,
          ...(spec.minTrust === "suspicious" ? {} : { trust: spec.minTrust }),
        });
      }
    }
  }
  for (const template of spec.requiresPrior) {
    const effect = effectKey(template, call.args);
    if (!state.effects.has(effect)) {
      found.gaps.push({
        code: "prior",
        severity: "block",
        message: `${call.tool} needs "${effect}" in the ledger first`,
        effect,
      });
    }
  }
  for (const template of spec.requiresNoPrior) {
    const effect = effectKey(template, call.args);
    if (state.effects.has(effect)) {
      found.gaps.push({
        code: "no-prior",
        severity: "block",
        message: `${call.tool} may not run once "${effect}" is in the ledger`,
        effect,
      });
    }
  }
  if (spec.needsApproval) {
    found.gaps.push({
      code: "approval",
      severity: "block",
      message: `every ${call.tool} call needs an approver's ruling`,
    });
  }
}

/** Each recipient, address by address, must be a reader of the label. */
function checkReaders(policy: Policy, spec: ToolPolicy, call: ToolCall, label: Label, found: Findings): void {
  const seen = new Set<string>();
  for (const recipient of spec.recipients) {
    const targets = "group" in recipient
      ? [{ group: recipient.group, who: `group ${recipient.group}`, argument: undefined, value: undefined }]
      : argumentValues(call.args, recipient.arg, []).map((leaf) => {
        const group = groupOf(policy, leaf.text);
        return {
          group,
          who: `${leaf.path}=${quoteValue(leaf.text)} (group ${group})`,
          argument: leaf.path as string | undefined,
          value: leaf.text as string | undefined,
        };
      });
    for (const target of targets) {
      const key = `${target.group}\u0000${target.value}`;
      if (label.readers.includes(target.group) || seen.has(key)) continue;
      seen.add(key);
      found.gaps.push({
        code: "recipient",
        severity: "block",
        message: `${call.tool} would send ${formatLabel(label)} data to ${target.who}, who may not read it`,
        group: target.group,
        ...(target.argument ? { argument: target.argument, value: target.value } : {}),
      });
    }
  }
}
