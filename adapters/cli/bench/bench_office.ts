/**
 * `pab bench office`: the office benchmark's table, traces and audit logs.
 *
 * @module
 */
import {
  formatOfficeAudit,
  formatOfficeTable,
  formatOfficeTrace,
  OFFICE_SCENARIOS,
  officeBenchJson,
  runOfficeBench,
} from "../../office/mod.ts";
import type { Bench } from "./benchmark.ts";
import { UsageError } from "../shell/cli_error.ts";
import { closestWord } from "../../../core/mod.ts";
import { defineCommand } from "../shell/define_command.ts";

/** The office benchmark. */
export const officeBench: Bench = defineCommand({
  name: "bench office",
  summary: "Six office scenarios against four arms of the guard (APPA's published table)",
  description: `Run the office benchmark: six scenarios (a pretend company with two planted
traps and a scripted agent that obeys every ">>>" line it reads) against four
arms: open (no guard), guarded (everything on), no-remedy (no recovery
planner) and no-fork (no child branches). Each run gets a fresh office and is
judged only by what happened: job done, and breach.`,
  options: {
    json: {
      type: "boolean",
      description: 'Print {"schemaVersion":1,"arms":{ARM:{SCENARIO:{"done":bool,"breach":bool}}}}',
    },
    trace: {
      type: "boolean",
      description: "Also print each guarded run: branch, tool, ok / BLOCKED with gaps / plan, label after",
    },
    audit: {
      type: "string",
      value: "SCENARIO",
      description: "Print the ledger's audit log of that scenario's guarded run",
    },
  },
  exitCodes: "0 the guarded arm finished every job with no breach; 1 otherwise; 2 bad usage.",
  async run(input, io) {
    const audit = input.string("audit");
    if (audit !== undefined && !OFFICE_SCENARIOS.some((scenario) => scenario.name === audit)) {
      const guess = closestWord(audit, OFFICE_SCENARIOS.map((scenario) => scenario.name));
      throw new UsageError(
        `unknown scenario "${audit}"${guess ? ` (did you mean "${guess}"?)` : ""}: expected one of ${
          OFFICE_SCENARIOS.map((s) => s.name).join(", ")
        }`,
        "bench office",
      );
    }
    const runs = await runOfficeBench();
    if (input.flag("json")) await io.stdout.write(`${JSON.stringify(officeBenchJson(runs))}\n`);
    else await io.stdout.write(`${formatOfficeTable(runs)}\n`);
    if (input.flag("trace")) {
      for (const run of runs.filter((candidate) => candidate.arm === "guarded")) {
        await io.stdout.write(`\n${formatOfficeTrace(run)}\n`);
      }
    }
    if (audit !== undefined) {
      const run = runs.find((candidate) => candidate.arm === "guarded" && candidate.scenario === audit)!;
      await io.stdout.write(`\naudit log of ${audit} / guarded:\n${formatOfficeAudit(run)}\n`);
    }
    const guarded = runs.filter((run) => run.arm === "guarded");
    return guarded.every((run) => run.done && !run.breach) ? 0 : 1;
  },
});
