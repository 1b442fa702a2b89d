/**
 * `pab bench agentdojo`: AgentDojo's reference solutions replayed through the
 * guard, per suite: each legitimate task allowed / needing a named approver /
 * needing the user / with no route, and each attack blocked with no human /
 * held for the user / through.
 *
 * Pure: the caller reads the files and passes their text.
 *
 * @module
 */
import type { Policy } from "../../guard/mod.ts";
import { parsePolicy } from "../../guard/policy/text/mod.ts";
import { readPabTrace } from "../trace/mod.ts";
import { type FeedMode, type LiveCall, replayLive } from "./replay_live.ts";

/** The files of one suite, as text. */
export interface SuiteFiles {
  /** The suite's name. */
  readonly suite: string;
  /** The policy's YAML and its file name. */
  readonly policy: { readonly source: string; readonly text: string };
  /** User-task traces: file name and text. */
  readonly userTraces: readonly { readonly source: string; readonly text: string }[];
  /** Attack traces: file name and text. */
  readonly attackTraces: readonly { readonly source: string; readonly text: string }[];
  /** Pairs AgentDojo cannot replay (no reference solution), from the manifest. */
  readonly excluded: number;
}

/**
 * One legitimate task's outcome, by its worst call: `allowed` outright;
 * `approver` (only named approvers' rulings needed); `user` (a call needs the
 * user's own ruling); `blocked` (a call has no route).
 */
export type LegitVerdict = "allowed" | "approver" | "user" | "blocked";

/** One legitimate task's outcome. */
export interface LegitOutcome {
  /** The user task. */
  readonly task: string;
  /** The task's outcome, by its worst call. */
  readonly outcome: LegitVerdict;
  /** For `approver` and `user`: `tool <- approver:gaps`, per call that needed a ruling. */
  readonly rulings: readonly string[];
  /** For `blocked`: the first call with no route and why. */
  readonly blockedBy?: string;
  /** Every call, as replayed. */
  readonly calls: readonly LiveCall[];
}

/** One attack pair's outcome. */
export interface AttackOutcome {
  /** `user_task_N__injection_task_M`. */
  readonly pair: string;
  /**
   * `blocked`: an attacker call has no route in the policy, so no human is
   * needed to stop it; `held`: an attacker call needs the user's own ruling,
   * which a user who did not ask for it refuses; `through`: every attacker call
   * runs without a human.
   */
  readonly outcome: "blocked" | "held" | "through";
  /** Whether AgentDojo's own check says the attack succeeds when nothing guards it. */
  readonly succeedsUnguarded: boolean;
  /** For `through`: the attacker's calls and why each passed. */
  readonly reason?: string;
  /** Every call, as replayed. */
  readonly calls: readonly LiveCall[];
}

/** A suite's results. */
export interface SuiteResult {
  /** The suite. */
  readonly suite: string;
  /** Legitimate task outcomes. */
  readonly legit: readonly LegitOutcome[];
  /** Attack outcomes. */
  readonly attacks: readonly AttackOutcome[];
  /** Pairs not replayable. */
  readonly excluded: number;
}

/** Options for {@linkcode benchSuite}. */
export interface BenchOptions {
  /** Which recorded outputs become sources (default `ran`: only those of calls that would have run live). */
  readonly feed?: FeedMode;
  /** Told after each trace. */
  readonly onProgress?: (done: number, total: number) => void | Promise<void>;
  /** Use this policy instead of parsing the suite's (for what-if analyses). */
  readonly policy?: Policy;
}

/** Replay one suite. */
export async function benchSuite(files: SuiteFiles, options: BenchOptions = {}): Promise<SuiteResult> {
  const policy = options.policy ?? parsePolicy(files.policy.text, { source: files.policy.source });
  const feed = options.feed ?? "ran";
  const total = files.userTraces.length + files.attackTraces.length;
  let done = 0;
  const legit: LegitOutcome[] = [];
  for (const file of files.userTraces) {
    const trace = readPabTrace(file.text, { source: file.source });
    legit.push(legitOutcome(String(trace.meta.userTask ?? trace.id), await replayLive(trace, policy, feed)));
    await options.onProgress?.(++done, total);
  }
  const attacks: AttackOutcome[] = [];
  for (const file of files.attackTraces) {
    const trace = readPabTrace(file.text, { source: file.source });
    const pair = `${trace.meta.userTask}__${trace.meta.injectionTask}`;
    const succeeds = trace.meta.attackSucceedsUnguarded === true;
    attacks.push(attackOutcome(pair, succeeds, await replayLive(trace, policy, feed)));
    await options.onProgress?.(++done, total);
  }
  return { suite: files.suite, legit, attacks, excluded: files.excluded };
}

/** A legitimate task's outcome from its replayed calls. */
export function legitOutcome(task: string, calls: readonly LiveCall[]): LegitOutcome {
  const blocked = calls.find((call) => call.verdict === "no-route");
  if (blocked) {
    const why = blocked.gaps.map((gap) => `[${gap.code}] ${gap.message}`).join("; ");
    return { task, outcome: "blocked", rulings: [], blockedBy: `${blocked.tool}: ${why}`, calls };
  }
  const ruled = calls.filter((call) => call.verdict === "user" || call.verdict === "approver");
  const rulings = ruled.map((call) => `${call.tool} <- ${call.rulings.join(", ")}`);
  const outcome = ruled.some((call) => call.verdict === "user") ? "user" : ruled.length ? "approver" : "allowed";
  return { task, outcome, rulings, calls };
}

/** An attack pair's outcome from its replayed calls. */
export function attackOutcome(pair: string, succeedsUnguarded: boolean, calls: readonly LiveCall[]): AttackOutcome {
  const attacker = calls.filter((call) => call.actor === "attacker");
  if (attacker.some((call) => call.verdict === "no-route")) {
    return { pair, outcome: "blocked", succeedsUnguarded, calls };
  }
  // A named approver's ruling is code that would sign: the call goes through. Only the user's own ruling holds it.
  if (attacker.some((call) => call.verdict === "user")) return { pair, outcome: "held", succeedsUnguarded, calls };
  const reason = attacker.map(whyAllowed).join("; ") || "the attack needs no tool call";
  return { pair, outcome: "through", succeedsUnguarded, reason, calls };
}

/** One attacker call that was allowed, and why: which sources vouched, and what no rule constrains. */
function whyAllowed(call: LiveCall): string {
  const vouched = call.evidence.map((item) =>
    `${item.argument} from ${item.sources.length ? item.sources.join(", ") : "the allow list"}`
  );
  const checked = new Set(call.evidence.map((item) => item.argument.split(/[.[]/)[0]));
  const free = Object.keys(call.args).filter((name) => !checked.has(name));
  const parts = [
    ...(vouched.length ? [`vouched: ${vouched.join(", ")}`] : []),
    ...(free.length ? [`unconstrained: ${free.join(", ")}`] : []),
  ];
  return `${call.tool}(${describeArgs(call.args)}) allowed (${parts.join("; ") || "no rule applies"})`;
}

function describeArgs(args: Readonly<Record<string, unknown>>): string {
  return Object.entries(args).map(([key, value]) => {
    const text = JSON.stringify(value);
    return `${key}=${text.length > 50 ? `${text.slice(0, 47)}...` : text}`;
  }).join(", ");
}
