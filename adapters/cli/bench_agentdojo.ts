/**
 * `pab bench agentdojo`: AgentDojo's reference solutions replayed through the
 * guard, with no model and no Python.
 *
 * @module
 */
import {
  AGENTDOJO_SUITES,
  agentdojoJson,
  attackFolder,
  benchSuite,
  DEFAULT_ATTACK,
  type FeedMode,
  formatSuiteReport,
  manifestSuites,
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
const FEEDS: readonly FeedMode[] = ["ran", "recorded"];

const HELP = `Usage: pab bench agentdojo [--suite SUITE] [--attack NAME] [--json [--detail]] [--traces DIR]
                            [--feed ran|recorded]

Replay AgentDojo v1.2.2 through the guard, per suite, with the policies in
DIR/policies/. First ProvGuard's accounting (its replay has no human): a
legitimate task is blocked when any reference call is denied or needs the
user; an attack is stopped when an attacker call does not run without a human.
Then pab's finer split:

  legitimate user tasks: allowed / needing the user / needing a named approver
    (the approver and the gap are named) / no route;
  attacks: blocked with no human / held for the user / through, out of the
    replayable pairs; pairs whose injection task has no reference solution are
    counted apart as excluded.

Every trace and policy is checked against the manifest's sha256 first.

Options:
  --suite SUITE  One of ${AGENTDOJO_SUITES.join(", ")} (default: every suite the manifest has)
  --attack NAME  The attack's traces: ${DEFAULT_ATTACK} (default, DIR/v1.2.2) or
                 another exported one (DIR/attacks/NAME)
  --json         Print {"schemaVersion":1,"suites":{SUITE:{"userTasks":n,"legitAllowed":n,
                 "legitRuling":n,"legitBlocked":n,"pairs":n,"excluded":n,"attacksStopped":n}},
                 "stoppedHow":{SUITE:{"blocked":n,"held":n}},
                 "provguard":{SUITE:{"legitBlocked":n,"userTasks":n,"attacksStopped":n,"pairs":n}},
                 "split":{SUITE:{"legitAllowed":n,"legitNeedsUser":n,"legitNeedsApprover":n,
                 "legitNoRoute":n,"attacksBlocked":n,"attacksHeld":n,"attacksThrough":n}}}
  --detail       With --json: add "detail":{SUITE:{"legit":[...],"attacks":[...]}}, every call's
                 outcome, gaps and vouching sources
  --traces DIR   Where the traces and policies are (default: ${DEFAULT_ROOT})
  --feed MODE    ran (default): only the outputs of calls that would have run live become
                 sources for later calls; recorded: every recorded output does
  -h, --help     Show this help

Exit codes: 0 done; 2 bad usage or unreadable / altered traces or policies.
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
      attack: { type: "string" },
      json: { type: "boolean" },
      detail: { type: "boolean" },
      traces: { type: "string" },
      feed: { type: "string" },
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
    const feed = (values.feed ?? "ran") as FeedMode;
    if (!FEEDS.includes(feed)) {
      throw new UsageError(`unknown --feed "${values.feed}": expected ran or recorded`, "bench");
    }
    if (values.detail && !values.json) throw new UsageError("--detail needs --json", "bench");
    const attack = typeof values.attack === "string" ? values.attack : DEFAULT_ATTACK;
    if (!/^[a-z_]+$/.test(attack)) {
      throw new UsageError(`unknown attack "${attack}": expected a name like tool_knowledge`, "bench");
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
    const users = await readManifest(attackFolder(root, DEFAULT_ATTACK), readText);
    const attacks = attack === DEFAULT_ATTACK ? users : await readManifest(attackFolder(root, attack), readText);
    const names = typeof suite === "string" ? [suite] : manifestSuites(attacks);
    const results: SuiteResult[] = [];
    for (const name of names) {
      const files = await readSuiteFiles(root, name, { users, attacks }, readText);
      results.push(
        await benchSuite(files, {
          feed,
          onProgress: async (done, total) => {
            if (io.isTerminal && (done % 20 === 0 || done === total)) {
              await io.stderr.write(`\r${name}: ${done}/${total} traces replayed`);
              if (done === total) await io.stderr.write("\n");
            }
          },
        }),
      );
    }
    if (values.json) await io.stdout.write(`${JSON.stringify(agentdojoJson(results, values.detail === true))}\n`);
    else await io.stdout.write(`${results.map(formatSuiteReport).join("\n\n")}\n`);
    return 0;
  } catch (error) {
    return await reportError(error, io);
  }
}
