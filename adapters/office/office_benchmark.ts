/**
 * Run the office benchmark: six scenarios against four arms, a fresh office
 * per run, judged only by what happened.
 *
 * @module
 */
import type { LedgerEvent } from "../../mod.ts";
import { type AgentArm, OfficeAgent } from "./office_agent.ts";
import { OFFICE_SCENARIOS } from "./office_scenarios.ts";
import { OfficeWorld } from "./office_world.ts";

/** The four arms: no guard, everything on, no recovery planner, no child branches. */
export const OFFICE_ARMS: Readonly<Record<string, AgentArm>> = Object.freeze({
  open: { guarded: false, remedies: false, forks: false },
  guarded: { guarded: true, remedies: true, forks: true },
  "no-remedy": { guarded: true, remedies: false, forks: true },
  "no-fork": { guarded: true, remedies: true, forks: false },
});

/** The outcome of one scenario in one arm. */
export interface OfficeRun {
  /** The scenario. */
  readonly scenario: string;
  /** The arm. */
  readonly arm: string;
  /** Whether the job got done. */
  readonly done: boolean;
  /** Whether anything forbidden happened. */
  readonly breach: boolean;
  /** The agent's trace lines. */
  readonly trace: readonly string[];
  /** The ledger's audit log (empty for the open arm). */
  readonly audit: readonly LedgerEvent[];
}

/** Run one scenario in one arm, in a fresh office. */
export async function runOfficeScenario(scenario: string, arm: string): Promise<OfficeRun> {
  const spec = OFFICE_SCENARIOS.find((candidate) => candidate.name === scenario);
  if (!spec) {
    throw new TypeError(
      `Cannot run scenario "${scenario}": expected one of ${OFFICE_SCENARIOS.map((s) => s.name).join(", ")}`,
    );
  }
  if (!Object.hasOwn(OFFICE_ARMS, arm)) {
    throw new TypeError(`Cannot run arm "${arm}": expected one of ${Object.keys(OFFICE_ARMS).join(", ")}`);
  }
  const world = new OfficeWorld();
  const trace: string[] = [];
  const agent = new OfficeAgent(world, OFFICE_ARMS[arm], (line) => trace.push(line));
  await spec.run(agent);
  const audit = agent.guard?.ledger.log ?? [];
  return { scenario, arm, done: spec.done(world, audit), breach: spec.breach(world, audit), trace, audit };
}

/** Every scenario against every arm. */
export async function runOfficeBench(): Promise<OfficeRun[]> {
  const runs: OfficeRun[] = [];
  for (const scenario of OFFICE_SCENARIOS) {
    for (const arm of Object.keys(OFFICE_ARMS)) runs.push(await runOfficeScenario(scenario.name, arm));
  }
  return runs;
}

/** The `--json` shape: `{"schemaVersion":1,"arms":{arm:{scenario:{done,breach}}}}`. */
export function officeBenchJson(runs: readonly OfficeRun[]): {
  schemaVersion: 1;
  arms: Record<string, Record<string, { done: boolean; breach: boolean }>>;
} {
  const arms: Record<string, Record<string, { done: boolean; breach: boolean }>> = {};
  for (const run of runs) (arms[run.arm] ??= {})[run.scenario] = { done: run.done, breach: run.breach };
  return { schemaVersion: 1, arms };
}

/** ProvGuard's table, as text. */
export function formatOfficeTable(runs: readonly OfficeRun[]): string {
  const arms = Object.keys(OFFICE_ARMS);
  const cell = (run: OfficeRun) => `${run.done ? "done" : "fail"}${run.breach ? " +BREACH" : ""}`;
  const lines = [`  ${"scenario".padEnd(15)}${arms.map((arm) => arm.padStart(13)).join("")}`];
  for (const scenario of OFFICE_SCENARIOS) {
    const row = arms.map((arm) => cell(runs.find((run) => run.arm === arm && run.scenario === scenario.name)!));
    lines.push(`  ${scenario.name.padEnd(15)}${row.map((text) => text.padStart(13)).join("")}`);
  }
  lines.push(`  ${"-".repeat(15 + 13 * arms.length)}`);
  const total = (arm: string, key: "done" | "breach") => runs.filter((run) => run.arm === arm && run[key]).length;
  const n = OFFICE_SCENARIOS.length;
  lines.push(`  ${"jobs done".padEnd(15)}${arms.map((arm) => `${total(arm, "done")}/${n}`.padStart(13)).join("")}`);
  lines.push(`  ${"breaches".padEnd(15)}${arms.map((arm) => `${total(arm, "breach")}/${n}`.padStart(13)).join("")}`);
  return lines.join("\n");
}

/** One run's trace: branch, tool, ok / BLOCKED with gaps / plan, label after. */
export function formatOfficeTrace(run: OfficeRun): string {
  return [
    `--- ${run.scenario} / ${run.arm} ---`,
    ...run.trace.map((line) => `    ${line}`),
    `  job done: ${run.done}   breach: ${run.breach}`,
  ].join("\n");
}

/** A run's audit log, one event a line. */
export function formatOfficeAudit(run: OfficeRun): string {
  return run.audit.map((event) => {
    const fields = [
      event.tool ? `tool=${event.tool}` : "",
      event.fingerprint ? `call=${event.fingerprint.slice(0, 12)}` : "",
      Object.keys(event.detail).length ? JSON.stringify(event.detail) : "",
    ].filter(Boolean);
    return `  ${event.kind.padEnd(13)}[${event.branch}] ${fields.join(" ")}`;
  }).join("\n");
}
