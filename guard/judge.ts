/**
 * Gate 1 as a pure function: every gap between one exact call and a yes,
 * judged prospectively against the label the branch would have after the
 * call's own read. The guard, the planner and the tests all call this one
 * function over plain state.
 *
 * @module
 */
import { errorText, knownLabel, meetPartial, type PartialLabel } from "../core/mod.ts";
import { weakEvidence } from "../harvest/mod.ts";
import type { Evidence, Gap, Note } from "./gap.ts";
import { type Policy, type ToolPolicy, toolPolicy } from "./policy/mod.ts";
import type { Judgement, JudgeState } from "./judge_state.ts";
import type { ToolCall } from "./tool_call.ts";
import { checkArguments } from "./check_arguments.ts";
import { checkContract } from "./check_contract.ts";

export type { Judgement, JudgeState } from "./judge_state.ts";

/**
 * The label of what a call reads, from its contract (or "unknown, from tool
 * X"). A catalogue key that cannot be built gives the strictest label.
 */
export function incomingLabel(policy: Policy, tool: string, args: Readonly<Record<string, unknown>>): PartialLabel {
  const spec = toolPolicy(policy, tool)?.output ?? { kind: "unlabelled" as const };
  if (spec.kind === "label") return knownLabel(spec.label);
  if (spec.kind === "catalogue") {
    const catalogue = policy.catalogues[spec.catalogue];
    const key = catalogue.key.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = Object.hasOwn(args, name) ? args[name] : undefined;
      return typeof value === "string" || typeof value === "number" ? String(value) : "";
    });
    if (Object.hasOwn(catalogue.entries, key)) return knownLabel(catalogue.entries[key]);
  }
  return { known: policy.top, unknown: Object.freeze([tool]) };
}

/**
 * Find every gap for one call in a branch state. Pure: same state and call, same answer.
 * A call whose arguments cannot be fingerprinted has one `guard-error` gap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { judge } from "./judge.ts";
 * import { makeToolCall } from "./tool_call.ts";
 * import { compilePolicy } from "./policy/mod.ts";
 * import { knownLabel } from "../core/mod.ts";
 * const policy = compilePolicy({ version: 1, tools: { send_email: { args: { to: { require: "trusted" } } } } });
 * const state = {
 *   policy, casts: {}, prospective: true, label: knownLabel(policy.top), tainters: [], effects: new Set<string>(),
 *   evidence: () => [],
 * };
 * const report = judge(state, makeToolCall("send_email", { to: "eve@attacker.example" }));
 * assert.deepEqual(report.gaps.map((gap) => gap.code), ["invented-argument"]);
 * ```
 */
export function judge(state: JudgeState, call: ToolCall): Judgement {
  try {
    if (call.problem !== undefined) throw new TypeError(call.problem);
    return judgeCall(state, call);
  } catch (error) {
    return {
      future: state.label,
      gaps: [{
        code: "guard-error",
        severity: "block",
        message: `the guard failed while deciding, so the call is blocked: ${errorText(error)}`,
      }],
      notes: [],
      evidence: [],
    };
  }
}

/**
 * For `on_tainted: pinned` and `named`: what provenance does not pin in this
 * call. Every argument given (with a value) must have a rule that checks it
 * (`require`, a non-empty `allow`, or `embedded` other than `off`), and the
 * tool must have a `require` rule (a selector) for some argument: a tool with
 * none, or a policy that does not name the tool, pins nothing. With `named`,
 * each selector's value must also come from the user's own words (or the
 * system prompt), and not be weak evidence (a short number the user's words
 * happen to hold names nothing): a value only a tool's listing vouches for is
 * a choice among legitimate options, which strangers' text may have steered.
 */
export function unpinnedArguments(
  spec: ToolPolicy | undefined,
  call: ToolCall,
  named?: readonly Evidence[],
): string[] {
  const rules = spec?.args ?? {};
  if (!Object.values(rules).some((rule) => rule.require)) return ["its effect (the tool has no require rule)"];
  const given = Object.keys(call.args).filter((arg) => {
    const value = call.args[arg];
    return value !== null && value !== undefined && value !== "";
  });
  const unruled = given.filter((arg) => {
    if (!Object.hasOwn(rules, arg)) return true;
    const rule = rules[arg];
    return !rule.require && !rule.allow.length && (rule.embedded === undefined || rule.embedded === "off");
  }).map((arg) => `argument ${arg}`);
  if (!named) return unruled;
  const chosen = given.filter((arg) =>
    Object.hasOwn(rules, arg) && rules[arg].require &&
    named.some((item) =>
      item.argument.split(/[.[]/)[0] === arg && item.sources.length &&
      (weakEvidence(item.value) !== undefined ||
        !item.sources.some((source) => source === "user" || source === "system"))
    )
  ).map((arg) => `argument ${arg} (the user's own words do not name it)`);
  return [...unruled, ...chosen];
}

function judgeCall(state: JudgeState, call: ToolCall): Judgement {
  const { policy } = state;
  const spec = toolPolicy(policy, call.tool);
  const gaps: Gap[] = [];
  const notes: Note[] = [];
  const evidence: Evidence[] = [];
  if (!spec) {
    notes.push({
      code: "unknown-tool",
      message:
        `${call.tool} is not in policy "${policy.source}": it is judged by the default rules and its output is untrusted`,
    });
  }
  checkArguments(state, spec, call, { gaps, notes, evidence });
  const onTainted = spec?.onTainted ?? policy.default.onTainted;
  const pinning = onTainted === "pinned" || onTainted === "named";
  const unpinned = pinning ? unpinnedArguments(spec, call, onTainted === "named" ? evidence : undefined) : [];
  if (state.tainters.length && onTainted !== "allow" && (!pinning || unpinned.length)) {
    gaps.push({
      code: "tainted-context",
      severity: pinning ? "confirm" : onTainted as "confirm" | "block",
      message: `context contains untrusted input from ${state.tainters.join(", ")}${
        pinning ? `, and nothing pins ${unpinned.join(", ")}` : ""
      }`,
      sources: [...state.tainters],
    });
  }
  const future = meetPartial(state.label, incomingLabel(policy, call.tool, call.args));
  if (spec) checkContract(state, spec, call, future, { gaps, notes, evidence });
  return { future, gaps, notes, evidence };
}
