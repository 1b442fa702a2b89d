/**
 * `deno run --allow-read adapters/agentdojo/what_if.ts [--attack NAME]`: what
 * each library default contributes on the committed replay. The library (v3)
 * checks links and addresses in outward tools' free text and escalates values
 * no designated source supplied; each can be opted out in a policy's
 * `default:` section, so each row here is the committed policy with opt-outs
 * added in memory (the files stay as they are). One row goes the other way,
 * for contrast: (c) drops the question when only strangers' text in the
 * context stands in the way. Where `traces/agentdojo/results/v1/policies/`
 * keeps a suite's blind v1 policy (slack), it is measured with and without
 * the outward default.
 *
 * @module
 */
import { load } from "npm:js-yaml@5.5.0";
import { compilePolicy } from "../../guard/mod.ts";
import { attackOutcome, benchSuite, legitOutcome, type SuiteResult } from "./agentdojo_benchmark.ts";
import type { LiveCall } from "./replay_live.ts";
import { PROVGUARD_V2, provguardCounts, suiteCounts } from "./bench_counts.ts";
import { attackFolder, DEFAULT_ATTACK, manifestSuites, readManifest, readSuiteFiles } from "./read_suite_files.ts";

/** A policy's `default:` opt-outs, as a policy file writes them. */
export interface DefaultsOptOut {
  /** `off` drops the outward default. */
  readonly outward_embedded?: "off";
  /** `any` lets every untrusted source lead to a question (no escalation); `named` designates by name only (v3). */
  readonly confirm_untrusted_from?: "any" | "named";
}

/**
 * A parsed policy with `default:` opt-outs merged in; the input is not changed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withOptOut } from "./what_if.ts";
 * const raw = { version: 1, default: { on_tainted: "confirm" } };
 * assert.deepEqual(withOptOut(raw, { outward_embedded: "off" }), {
 *   version: 1,
 *   default: { on_tainted: "confirm", outward_embedded: "off" },
 * });
 * assert.deepEqual(raw.default, { on_tainted: "confirm" });
 * ```
 */
export function withOptOut(raw: Readonly<Record<string, unknown>>, optOut: DefaultsOptOut): Record<string, unknown> {
  const defaults = (raw.default ?? {}) as Record<string, unknown>;
  return { ...raw, default: { ...defaults, ...optOut } };
}

/** The variants, each as opt-outs of the library defaults. */
export const VARIANTS: readonly (readonly [string, DefaultsOptOut])[] = [
  ["library defaults", {}],
  ["designation by name (v3)", { confirm_untrusted_from: "named" }],
  ["(a) outward default only", { confirm_untrusted_from: "any" }],
  ["(b) escalation only", { outward_embedded: "off" }],
  ["neither (the v2 library)", { outward_embedded: "off", confirm_untrusted_from: "any" }],
];

/** (c), for contrast: a call whose only gaps are `tainted-context` is allowed. */
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

/** One suite's what-if results: each variant's name and replayed results, the v3 library first. */
export interface WhatIfSuite {
  /** The suite. */
  readonly suite: string;
  /** `[variant, results]`, the v3 library first. */
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
    const raw = load(files.policy.text) as Record<string, unknown>;
    const rows: [string, SuiteResult][] = [];
    for (const [name, optOut] of VARIANTS) {
      rows.push([name, await benchSuite(files, { policy: compilePolicy(withOptOut(raw, optOut), `${suite}.yaml`) })]);
    }
    rows.push(["(c) tainted context asks nobody", withoutTaintQuestions(rows[0][1])]);
    // The blind v1 policy, before v2 added `embedded: trusted` to this suite after its attacks were seen: does the
    // outward default alone find what v2's suite-specific rule found?
    const v1 = await readText(`${root}/results/v1/policies/${suite}.yaml`).catch(() => undefined);
    if (v1 !== undefined && v1 !== files.policy.text) {
      const v1Raw = load(v1) as Record<string, unknown>;
      for (const [name, optOut] of VARIANTS) {
        const policy = compilePolicy(withOptOut(v1Raw, optOut), `v1 ${suite}.yaml`);
        rows.push([`v1 policy, ${name}`, await benchSuite(files, { policy })]);
      }
    }
    out.push({ suite, rows });
  }
  return out;
}

function row(name: string, result: SuiteResult): string {
  const counts = suiteCounts(result);
  const anchor = provguardCounts(counts);
  const bar = PROVGUARD_V2[result.suite];
  return `${name.padEnd(36)} ${result.suite.padEnd(9)} legit blocked ${anchor.legitBlocked}/${anchor.userTasks} ` +
    `(bar ${bar.legitBlocked})  stopped ${anchor.attacksStopped}/${anchor.pairs} (bar ${bar.attacksStopped})  ` +
    `no human ${counts.attacksBlocked}  held ${counts.attacksHeld}  legit: user ${counts.legitNeedsUser} ` +
    `no-route ${counts.legitBlocked}`;
}

async function main(args: string[]): Promise<void> {
  const attack = args[0] === "--attack" && args[1] ? args[1] : DEFAULT_ATTACK;
  const totals = new Map<string, [number, number]>();
  for (const { rows } of await measureWhatIf("traces/agentdojo", attack, (path) => Deno.readTextFile(path))) {
    for (const [name, result] of rows) {
      console.log(row(name, result));
      if (name.startsWith("v1")) continue;
      const [noHuman, pairs] = totals.get(name) ?? [0, 0];
      totals.set(name, [noHuman + suiteCounts(result).attacksBlocked, pairs + result.attacks.length]);
    }
  }
  for (const [name, [noHuman, pairs]] of totals) {
    const share = Math.round((100 * noHuman) / pairs);
    console.log(`${name.padEnd(36)} attacks stopped with no human: ${noHuman} / ${pairs} (${share}%)`);
  }
}

if (import.meta.main) await main(Deno.args);
