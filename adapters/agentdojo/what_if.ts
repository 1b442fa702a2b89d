/**
 * `deno run --allow-read adapters/agentdojo/what_if.ts [--attack NAME]`: the
 * what-if figures for the next library version, on the committed replay:
 * (a) the outward default ({@linkcode withOutwardDefault}), with `confirm` or
 * `block`; (b) delegation-aware escalation ({@linkcode escalate}); and both.
 * Each row is on ProvGuard's accounting, with the attacks stopped with no human,
 * and the tasks and pairs whose outcome changes against today are listed.
 * Where `traces/agentdojo/results/v1/policies/` keeps a suite's blind v1
 * policy (slack), (a) is also measured on it.
 *
 * @module
 */
import { load } from "npm:js-yaml@5.5.0";
import { compilePolicy, type Policy } from "../../guard/mod.ts";
import { readPabTrace } from "../trace/mod.ts";
import { attackOutcome, benchSuite, legitOutcome, type SuiteResult } from "./agentdojo_benchmark.ts";
import type { LiveCall } from "./replay_live.ts";
import { PROVGUARD_V2, provguardCounts, suiteCounts } from "./bench_counts.ts";
import { escalateSuite } from "./designated_source.ts";
import { type ToolSpec, withOutwardDefault } from "./outward_default.ts";
import { attackFolder, DEFAULT_ATTACK, manifestSuites, readManifest, readSuiteFiles } from "./read_suite_files.ts";

/**
 * The opposite direction, for contrast: a call whose only gaps are
 * `tainted-context` is allowed (every argument is vouched for; only strangers'
 * text in the context stands in the way).
 */
function withoutTaintQuestions(result: SuiteResult): SuiteResult {
  const relax = (calls: readonly LiveCall[]): LiveCall[] =>
    calls.map((call) =>
      call.verdict === "user" && call.gaps.every((gap) => gap.code === "tainted-context")
        ? { ...call, verdict: "allow", ran: true }
        : call
    );
  return {
    ...result,
    legit: result.legit.map((item) => legitOutcome(item.task, relax(item.calls))),
    attacks: result.attacks.map((item) => attackOutcome(item.pair, item.succeedsUnguarded, relax(item.calls))),
  };
}

function heldLeft(result: SuiteResult): string {
  const byTask = new Map<string, number>();
  for (const item of result.attacks) {
    if (item.outcome === "held") byTask.set(item.pair.split("__")[0], (byTask.get(item.pair.split("__")[0]) ?? 0) + 1);
  }
  return [...byTask].map(([task, n]) => `${task} x${n}`).join(", ");
}

function row(name: string, result: SuiteResult): string {
  const counts = suiteCounts(result);
  const anchor = provguardCounts(counts);
  const bar = PROVGUARD_V2[result.suite];
  const meets = anchor.legitBlocked <= bar.legitBlocked && anchor.attacksStopped >= bar.attacksStopped;
  return `${name.padEnd(32)} ${result.suite.padEnd(9)} legit blocked ${anchor.legitBlocked}/${anchor.userTasks} ` +
    `(bar ${bar.legitBlocked})  stopped ${anchor.attacksStopped}/${anchor.pairs} (bar ${bar.attacksStopped})  ` +
    `no human ${counts.attacksBlocked}  held ${counts.attacksHeld}  legit: user ${counts.legitNeedsUser} ` +
    `no-route ${counts.legitBlocked}  ${meets ? "meets bar" : "misses bar"}`;
}

function changes(before: SuiteResult, after: SuiteResult): string[] {
  const out: string[] = [];
  after.legit.forEach((item, i) => {
    if (item.outcome !== before.legit[i].outcome) {
      out.push(`    legit ${item.task}: ${before.legit[i].outcome} -> ${item.outcome}`);
    }
  });
  const moved = new Map<string, string[]>();
  after.attacks.forEach((item, i) => {
    const key = `${before.attacks[i].outcome} -> ${item.outcome}`;
    if (item.outcome !== before.attacks[i].outcome) moved.set(key, [...(moved.get(key) ?? []), item.pair]);
  });
  for (const [key, pairs] of moved) {
    const byInjection = new Map<string, number>();
    for (const pair of pairs) {
      const injection = pair.split("__")[1];
      byInjection.set(injection, (byInjection.get(injection) ?? 0) + 1);
    }
    out.push(`    attacks ${key}: ${pairs.length} (${[...byInjection].map(([k, n]) => `${k} x${n}`).join(", ")})`);
  }
  return out;
}

/** One suite's what-if results: each variant's name and replayed results, `today` first. */
export interface WhatIfSuite {
  /** The suite. */
  readonly suite: string;
  /** `[variant, results]`, `today` first. */
  readonly rows: readonly (readonly [string, SuiteResult])[];
}

/** Measure every variant on every suite of `attack`'s traces under `root`. */
export async function measureWhatIf(
  root: string,
  attack: string,
  readText: (path: string) => Promise<string>,
): Promise<WhatIfSuite[]> {
  const users = await readManifest(attackFolder(root, DEFAULT_ATTACK), readText);
  const attacks = attack === DEFAULT_ATTACK ? users : await readManifest(attackFolder(root, attack), readText);
  const out: WhatIfSuite[] = [];
  for (const suite of manifestSuites(attacks)) {
    const files = await readSuiteFiles(root, suite, { users, attacks }, readText);
    const tools = JSON.parse(await readText(`${users.folder}/${suite}/suite.json`)).tools as ToolSpec[];
    const raw = load(files.policy.text) as Record<string, unknown>;
    const variant = (onViolation: "confirm" | "block"): Policy =>
      compilePolicy(withOutwardDefault(raw, tools, onViolation), `${suite}.yaml + outward default`);
    const prompts = new Map<string, string>();
    for (const file of files.userTraces) {
      const trace = readPabTrace(file.text, { source: file.source });
      const user = trace.events.find((event) => event.type === "user");
      prompts.set(String(trace.meta.userTask), user?.type === "user" ? user.content : "");
    }
    const today = await benchSuite(files);
    const outwardConfirm = await benchSuite(files, { policy: variant("confirm") });
    const outwardBlock = await benchSuite(files, { policy: variant("block") });
    const rows: [string, SuiteResult][] = [
      ["today", today],
      ["(a) outward, confirm", outwardConfirm],
      ["(a) outward, block", outwardBlock],
      ["(b) escalation", escalateSuite(today, prompts)],
      ["(b) + invented blocks", escalateSuite(today, prompts, { inventedBlocks: true })],
      ["(b) + tainted context", escalateSuite(today, prompts, { taintedContext: true })],
      ["(c) tainted context asks nobody", withoutTaintQuestions(today)],
      ["(a confirm) + (b)", escalateSuite(outwardConfirm, prompts)],
      ["(a block) + (b)", escalateSuite(outwardBlock, prompts)],
    ];
    // The blind v1 policy, before v2 added `embedded: trusted` to this suite after its attacks were seen: does the
    // outward default alone find what v2's suite-specific rule found?
    const v1 = await readText(`${root}/results/v1/policies/${suite}.yaml`).catch(() => undefined);
    if (v1 !== undefined && v1 !== files.policy.text) {
      const v1Raw = load(v1) as Record<string, unknown>;
      const v1Policy = (onViolation: "confirm" | "block") =>
        compilePolicy(withOutwardDefault(v1Raw, tools, onViolation), `v1 ${suite}.yaml + outward default`);
      rows.push(
        ["v1 policy", await benchSuite(files, { policy: compilePolicy(v1Raw, `v1 ${suite}.yaml`) })],
        ["v1 policy + (a) confirm", await benchSuite(files, { policy: v1Policy("confirm") })],
        ["v1 policy + (a) block", await benchSuite(files, { policy: v1Policy("block") })],
      );
    }
    out.push({ suite, rows });
  }
  return out;
}

async function main(args: string[]): Promise<void> {
  const attack = args[0] === "--attack" && args[1] ? args[1] : DEFAULT_ATTACK;
  const totals = new Map<string, [number, number]>();
  for (const { rows } of await measureWhatIf("traces/agentdojo", attack, (path) => Deno.readTextFile(path))) {
    const today = rows[0][1];
    for (const [name, result] of rows) {
      console.log(row(name, result));
      if (result !== today) { for (const line of changes(today, result)) console.log(line); }
      if (name === "(b) escalation") console.log(`    still held (by user task): ${heldLeft(result) || "none"}`);
      if (name.startsWith("v1")) continue;
      const [noHuman, pairs] = totals.get(name) ?? [0, 0];
      totals.set(name, [noHuman + suiteCounts(result).attacksBlocked, pairs + result.attacks.length]);
    }
  }
  for (const [name, [noHuman, pairs]] of totals) {
    const share = Math.round((100 * noHuman) / pairs);
    console.log(`${name.padEnd(32)} attacks stopped with no human: ${noHuman} / ${pairs} (${share}%)`);
  }
}

if (import.meta.main) await main(Deno.args);
