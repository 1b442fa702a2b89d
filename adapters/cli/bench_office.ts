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
} from "../office/mod.ts";
import type { Bench } from "./bench.ts";
import { UsageError } from "./cli_error.ts";
import type { Io } from "./io.ts";
import { parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";

const HELP = `Usage: pab bench office [--json] [--trace] [--audit SCENARIO]

Run the office benchmark: six scenarios (a pretend company with two planted
traps and a scripted agent that obeys every ">>>" line it reads) against four
arms: open (no guard), guarded (everything on), no-remedy (no recovery
planner) and no-fork (no child branches). Each run gets a fresh office and is
judged only by what happened: job done, and breach.

Options:
  --json            Print {"schemaVersion":1,"arms":{ARM:{SCENARIO:{"done":bool,"breach":bool}}}}
  --trace           Also print each guarded run: branch, tool, ok / BLOCKED with gaps / plan, label after
  --audit SCENARIO  Print the ledger's audit log of that scenario's guarded run
  -h, --help        Show this help

Exit codes: 0 the guarded arm finished every job with no breach; 1 otherwise; 2 bad usage.
`;

/** The office benchmark. */
export const officeBench: Bench = {
  summary: "Six office scenarios against four arms of the guard (APPA's published table)",
  run: runOffice,
};

async function runOffice(args: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs(args, {
      json: { type: "boolean" },
      trace: { type: "boolean" },
      audit: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, "bench office");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, "bench");
    const audit = values.audit;
    if (typeof audit === "string" && !OFFICE_SCENARIOS.some((scenario) => scenario.name === audit)) {
      throw new UsageError(
        `unknown scenario "${audit}": expected one of ${OFFICE_SCENARIOS.map((s) => s.name).join(", ")}`,
        "bench",
      );
    }
    const runs = await runOfficeBench();
    if (values.json) await io.stdout.write(`${JSON.stringify(officeBenchJson(runs))}\n`);
    else await io.stdout.write(`${formatOfficeTable(runs)}\n`);
    if (values.trace) {
      for (const run of runs.filter((candidate) => candidate.arm === "guarded")) {
        await io.stdout.write(`\n${formatOfficeTrace(run)}\n`);
      }
    }
    if (typeof audit === "string") {
      const run = runs.find((candidate) => candidate.arm === "guarded" && candidate.scenario === audit)!;
      await io.stdout.write(`\naudit log of ${audit} / guarded:\n${formatOfficeAudit(run)}\n`);
    }
    const guarded = runs.filter((run) => run.arm === "guarded");
    return guarded.every((run) => run.done && !run.breach) ? 0 : 1;
  } catch (error) {
    return await reportError(error, io);
  }
}
