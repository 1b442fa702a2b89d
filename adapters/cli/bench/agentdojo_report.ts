/**
 * The HTML report of `pab bench agentdojo --html FILE`: the bench's results as
 * the views `renderBenchReport` draws.
 *
 * @module
 */
import {
  type AttackOutcome,
  type LegitOutcome,
  type LiveCall,
  suiteCounts,
  type SuiteResult,
} from "../../agentdojo/mod.ts";
import { formatRecovery } from "../../../guard/mod.ts";
import type { BenchReportInput, BenchRunView, CallView, TimelineStep } from "../../html/mod.ts";

/** The counts the report's table shows, in order (the `--json` "suites" keys and the split). */
const COUNTS = [
  "userTasks",
  "legitAllowed",
  "legitNeedsUser",
  "legitNeedsApprover",
  "legitBlocked",
  "pairs",
  "excluded",
  "attacksBlocked",
  "attacksHeld",
  "attacksStopped",
] as const;

/**
 * Describe the bench's results for `renderBenchReport`: per suite its counts
 * and every run (each legitimate task, then each attack pair) with its
 * verdict, what it needed or why it passed, and every call's decision card.
 * Runs carry no label timeline (the bench replays with its own feed rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchReportInput } from "./agentdojo_report.ts";
 * const input = benchReportInput([{
 *   suite: "banking",
 *   excluded: 0,
 *   legit: [{ task: "user_task_0", outcome: "user", rulings: ["send_money <- user:tainted-context"], calls: [] }],
 *   attacks: [{ pair: "user_task_0__injection_task_1", outcome: "held", succeedsUnguarded: true, calls: [] }],
 * }], "ran");
 * assert.equal(input.suites[0].runs[0].outcome, "ruling");
 * assert.equal(input.suites[0].runs[1].name, "user_task_0 x injection_task_1");
 * assert.deepEqual(input.suites[0].counts.find((count) => count.name === "attacksHeld"), { name: "attacksHeld", value: 1 });
 * ```
 */
export function benchReportInput(results: readonly SuiteResult[], feed: string): BenchReportInput {
  return {
    title: `AgentDojo v1.2.2, replayed through pab (feed: ${feed})`,
    suites: results.map((result) => {
      const counts = suiteCounts(result);
      return {
        suite: result.suite,
        counts: COUNTS.map((name) => ({ name, value: counts[name] })),
        runs: [
          ...result.legit.map((item) => legitRun(result.suite, item)),
          ...result.attacks.map((item) => attackRun(result.suite, item)),
        ],
      };
    }),
  };
}

function legitRun(suite: string, item: LegitOutcome): BenchRunView {
  const outcome = item.outcome === "allowed" ? "allowed" : item.outcome === "blocked" ? "blocked" : "ruling";
  const detail = item.outcome === "blocked"
    ? item.blockedBy
    : item.rulings.length
    ? `needs ${item.outcome === "user" ? "the user" : "a named approver"}: ${item.rulings.join("; ")}`
    : undefined;
  return {
    name: item.task,
    kind: "legitimate",
    outcome,
    ...(detail ? { detail } : {}),
    trace: { file: suite, trace: item.task, calls: item.calls.map(liveCallView), timeline: liveTimeline(item.calls) },
  };
}

function attackRun(suite: string, item: AttackOutcome): BenchRunView {
  const name = item.pair.replace("__", " x ");
  const detail = [
    item.reason,
    item.succeedsUnguarded ? "the attack succeeds when nothing guards the agent" : undefined,
  ].filter(Boolean).join("; ");
  return {
    name,
    kind: "attack",
    outcome: item.outcome,
    ...(detail ? { detail } : {}),
    trace: { file: suite, trace: name, calls: item.calls.map(liveCallView), timeline: liveTimeline(item.calls) },
  };
}

/** The label over a replay: at each call's decision, and after each output the guard was fed. */
function liveTimeline(calls: readonly LiveCall[]): TimelineStep[] {
  return calls.flatMap((call) => [
    { event: `call ${call.tool}`, ...call.labelAtCall, outcome: call.outcome },
    ...(call.labelAfter ? [{ event: `${call.tool} returned`, ...call.labelAfter }] : []),
  ]);
}

function liveCallView(call: LiveCall): CallView {
  return {
    id: call.id,
    tool: call.tool,
    args: call.args,
    actor: call.actor,
    outcome: call.outcome,
    reasons: call.gaps.map((gap) => ({ code: gap.code, message: gap.message })),
    vouching: call.evidence.map((item) => ({ argument: item.argument, value: item.value, sources: item.sources })),
    notes: [],
    ...(call.recovery ? { wayToYes: formatRecovery(call.recovery) } : {}),
  };
}
