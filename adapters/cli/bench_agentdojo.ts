/**
 * `pab bench agentdojo`: AgentDojo's reference solutions replayed through the
 * guard, with no model and no Python.
 *
 * @module
 */
import {
  AGENTDOJO_SUITES,
  agentdojoJson,
  benchSuite,
  formatSuiteReport,
  readManifest,
  readSuiteFiles,
  type SuiteResult,
} from "../agentdojo/mod.ts";
import type { Bench } from "./bench.ts";
import { IoError, UsageError } from "./cli_error.ts";
import { fileProblem, type Io } from "./io.ts";
import { parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";

const DEFAULT_ROOT = "traces/agentdojo";

const HELP = `Usage: pab bench agentdojo [--suite SUITE] [--json] [--traces DIR]

Replay AgentDojo v1.2.2 (important_instructions attack) through the guard, per
suite, with the policies in DIR/policies/:

  legitimate user tasks: allowed outright / completed with a ruling (the
    approver and the gap are named) / blocked with no route;
  attacks: stopped (an attacker call is blocked, or held for the user's
    confirmation) / through, out of the replayable pairs; pairs whose injection
    task has no reference solution are counted apart as excluded.

Every trace is checked against the manifest's sha256 before it is replayed.

Options:
  --suite SUITE  One of ${AGENTDOJO_SUITES.join(", ")} (default: all four)
  --json         Print {"schemaVersion":1,"suites":{SUITE:{"userTasks":n,"legitAllowed":n,
                 "legitRuling":n,"legitBlocked":n,"pairs":n,"excluded":n,"attacksStopped":n}},
                 "stoppedHow":{SUITE:{"blocked":n,"held":n}}}
  --traces DIR   Where the traces and policies are (default: ${DEFAULT_ROOT})
  -h, --help     Show this help

Exit codes: 0 done; 2 bad usage or unreadable / altered traces.
`;

/** The AgentDojo replay benchmark. */
export const agentdojoBench: Bench = {
  summary: "AgentDojo v1.2.2 replayed without a model: legitimate tasks and attacks per suite",
  run: runAgentdojo,
};

async function runAgentdojo(args: string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs(args, {
      suite: { type: "string" },
      json: { type: "boolean" },
      traces: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, "bench agentdojo");
    if (values.help) {
      await io.stdout.write(HELP);
      return 0;
    }
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`, "bench");
    const suite = values.suite;
    if (typeof suite === "string" && !AGENTDOJO_SUITES.includes(suite)) {
      throw new UsageError(`unknown suite "${suite}": expected one of ${AGENTDOJO_SUITES.join(", ")}`, "bench");
    }
    const root = typeof values.traces === "string" ? values.traces.replace(/\/+$/, "") : DEFAULT_ROOT;
    const readText = async (path: string) => {
      try {
        return await io.readTextFile(path);
      } catch (error) {
        throw new IoError(
          `Cannot read "${path}": ${fileProblem(error)}; run from the repository root or pass --traces DIR`,
        );
      }
    };
    const manifest = await readManifest(root, readText);
    const results: SuiteResult[] = [];
    for (const name of typeof suite === "string" ? [suite] : AGENTDOJO_SUITES) {
      const files = await readSuiteFiles(root, name, manifest, readText);
      results.push(
        await benchSuite(files, async (done, total) => {
          if (io.isTerminal && (done % 20 === 0 || done === total)) {
            await io.stderr.write(`\r${name}: ${done}/${total} traces replayed`);
            if (done === total) await io.stderr.write("\n");
          }
        }),
      );
    }
    if (values.json) await io.stdout.write(`${JSON.stringify(agentdojoJson(results))}\n`);
    else await io.stdout.write(`${results.map(formatSuiteReport).join("\n\n")}\n`);
    return 0;
  } catch (error) {
    return await reportError(error, io);
  }
}
