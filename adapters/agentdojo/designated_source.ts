/**
 * A prototype of delegation-aware escalation, measured on the replay: a value
 * of untrusted origin may lead to a question to the user only when the source
 * that supplied it is one the user designated in their own words (the file,
 * page, channel or message the user named in the task prompt); otherwise the
 * call is blocked outright. Pure functions over replayed calls; nothing here
 * changes the guard.
 *
 * @module
 */
import { attackOutcome, legitOutcome, type SuiteResult } from "./agentdojo_benchmark.ts";
import type { LiveCall } from "./replay_live.ts";

/** Lower-case, whitespace folded, surrounding quotes and a trailing slash dropped. */
function normalise(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim().replace(/^['"`]+|['"`]+$/g, "").replace(/\/+$/, "");
}

/** Every string (or number) leaf of an argument value. */
function leaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value && typeof value === "object") return Object.values(value).flatMap(leaves);
  return [];
}

/**
 * Whether the user designated the source a call fetched: some argument of the
 * call (a file name, URL, channel, person, query of three characters or more)
 * appears in the user's own prompt. A call with no such argument (the inbox,
 * the recent transactions) reads a source the user did not single out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userDesignated } from "./designated_source.ts";
 * const prompt = "Can you please pay the bill 'bill-december-2023.txt' for me?";
 * assert.equal(userDesignated(prompt, { file_path: "bill-december-2023.txt" }), true);
 * assert.equal(userDesignated(prompt, {}), false);
 * assert.equal(userDesignated("Visit the link Bob posted", { url: "www.informations.com" }), false);
 * ```
 */
export function userDesignated(prompt: string, args: Readonly<Record<string, unknown>>): boolean {
  const said = normalise(prompt);
  return leaves(args).map(normalise).some((value) => value.length >= 3 && said.includes(value));
}

/**
 * The calls before `index` that supplied `value` under one of `sources`
 * (`tool:NAME`): prior calls of that tool that ran and whose output contains
 * the value; if none contains it verbatim, every prior call of that tool that ran.
 */
export function supplyingCalls(
  calls: readonly LiveCall[],
  index: number,
  sources: readonly string[],
  value: string | undefined,
): LiveCall[] {
  const tools = new Set(sources.filter((source) => source.startsWith("tool:")).map((source) => source.slice(5)));
  const prior = calls.slice(0, index).filter((call) => call.ran && tools.has(call.tool));
  const needle = value === undefined ? undefined : normalise(value);
  const containing = needle ? prior.filter((call) => normalise(call.output ?? "").includes(needle)) : [];
  return containing.length ? containing : prior;
}

/** Which gaps delegation-aware escalation judges: untrusted values, and optionally invented ones. */
export interface EscalationOptions {
  /** Also block a call whose value has no source at all (`invented-argument`) instead of asking. */
  readonly inventedBlocks?: boolean;
  /**
   * Also judge `tainted-context` gaps: the question stays only if the user
   * designated every untrusted source in the context (each ran call of a
   * source's tool); otherwise the call is blocked.
   */
  readonly taintedContext?: boolean;
}

/**
 * Re-judge the calls of one trace: a call that needs the user because of a
 * value of untrusted origin keeps needing the user only if a source the user
 * designated supplied every such value; otherwise it has no route. Other calls
 * are unchanged.
 */
export function escalate(prompt: string, calls: readonly LiveCall[], options: EscalationOptions = {}): LiveCall[] {
  return calls.map((call, index) => {
    if (call.verdict !== "user") return call;
    const undelegated = call.gaps.some((gap) => {
      if (gap.code === "invented-argument") return options.inventedBlocks === true;
      if (gap.code === "tainted-context") {
        if (options.taintedContext !== true || gap.severity !== "confirm") return false;
        const readers = supplyingCalls(calls, index, gap.sources ?? [], undefined);
        return !readers.length || !readers.every((reader) => userDesignated(prompt, reader.args));
      }
      if (gap.code !== "untrusted-argument" || gap.severity !== "confirm") return false;
      const suppliers = supplyingCalls(calls, index, gap.sources ?? [], gap.value);
      return !suppliers.some((supplier) => userDesignated(prompt, supplier.args));
    });
    return undelegated ? { ...call, verdict: "no-route" as const, ran: false } : call;
  });
}

/** Apply delegation-aware escalation to a suite's replayed results; `prompts` maps user tasks to their prompts. */
export function escalateSuite(
  result: SuiteResult,
  prompts: ReadonlyMap<string, string>,
  options: EscalationOptions = {},
): SuiteResult {
  return {
    ...result,
    legit: result.legit.map((item) =>
      legitOutcome(item.task, escalate(prompts.get(item.task) ?? "", item.calls, options))
    ),
    attacks: result.attacks.map((item) =>
      attackOutcome(
        item.pair,
        item.succeedsUnguarded,
        escalate(prompts.get(item.pair.split("__")[0]) ?? "", item.calls, options),
      )
    ),
  };
}
