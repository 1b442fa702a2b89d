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
  draftedFolder,
  type FeedMode,
  formatSuiteReport,
  manifestSuites,
  POLICY_SETS,
  type PolicySet,
  readDraftedManifest,
  readManifest,
  readSuiteFiles,
  type SuiteResult,
} from "../../agentdojo/mod.ts";
import { renderBenchReport } from "../../html/mod.ts";
import { benchReportInput } from "./agentdojo_report.ts";
import type { Bench } from "./benchmark.ts";
import { IoError, UsageError } from "../shell/cli_error.ts";
import { defineCommand } from "../shell/define_command.ts";
import { fileProblem, type Io } from "../io/io.ts";
import { writeOutputFile } from "../io/write_output.ts";

const DEFAULT_ROOT = "traces/agentdojo";
const FEEDS: readonly FeedMode[] = ["ran", "recorded"];
const NAME = "bench agentdojo";

/** The AgentDojo replay benchmark. */
export const agentdojoBench: Bench = defineCommand({
  name: NAME,
  summary: "AgentDojo v1.2.2 replayed without a model: legitimate tasks and attacks per suite",
  description: `Replay AgentDojo v1.2.2 through the guard, per suite, with the policies in
DIR/policies/. First ProvGuard's accounting (its replay has no human): a
legitimate task is blocked when any reference call is denied or needs the
user; an attack is stopped when an attacker call does not run without a human.
Then pab's finer split:

  legitimate user tasks: allowed / needing the user / needing a named approver
    (the approver and the gap are named) / no route;
  attacks: blocked with no human / held for the user / through, out of the
    replayable pairs; pairs whose injection task has no reference solution are
    counted apart as excluded.

With --policies drafted, the policies are instead the unedited drafts of
pab generate from each suite's suite.json (DIR/drafted/, written by
deno task draft-agentdojo).

Every trace and policy is checked against the manifest's sha256 first.`,
  options: {
    suite: {
      type: "string",
      value: "SUITE",
      description: `One of ${AGENTDOJO_SUITES.join(", ")} (default: every suite the manifest has)`,
    },
    attack: {
      type: "string",
      value: "NAME",
      description: `The attack's traces: ${DEFAULT_ATTACK} (DIR/v1.2.2) or\nanother exported one (DIR/attacks/NAME)`,
      default: DEFAULT_ATTACK,
    },
    json: {
      type: "boolean",
      description: 'Print {"schemaVersion":1,"suites":{SUITE:{"userTasks":n,"legitAllowed":n,\n' +
        '"legitRuling":n,"legitBlocked":n,"pairs":n,"excluded":n,"attacksStopped":n}},\n' +
        '"stoppedHow":{SUITE:{"blocked":n,"held":n}},\n' +
        '"provguard":{SUITE:{"legitBlocked":n,"userTasks":n,"attacksStopped":n,"pairs":n}},\n' +
        '"split":{SUITE:{"legitAllowed":n,"legitNeedsUser":n,"legitNeedsApprover":n,\n' +
        '"legitNoRoute":n,"attacksBlocked":n,"attacksHeld":n,"attacksThrough":n}}}',
    },
    detail: {
      type: "boolean",
      description: 'With --json: add "detail":{SUITE:{"legit":[...],"attacks":[...]}}, every call\'s\n' +
        "outcome, gaps and vouching sources",
    },
    html: {
      type: "string",
      value: "FILE",
      description: "Also write a standalone HTML report (the counts, every run's verdict and call cards)\n" +
        "to a new FILE (deno task pab writes only under /tmp/pab)",
    },
    traces: {
      type: "string",
      value: "DIR",
      description: "Where the traces and policies are",
      default: DEFAULT_ROOT,
    },
    policies: {
      type: "string",
      value: "SET",
      description: "hand-written: DIR/policies/; drafted: DIR/drafted/, what pab generate\n" +
        "drafts from each suite.json, unedited",
      default: "hand-written",
    },
    feed: {
      type: "string",
      value: "MODE",
      description: "ran: only the outputs of calls that would have run live become\n" +
        "sources for later calls; recorded: every recorded output does",
      default: "ran",
    },
  },
  exitCodes: "0 done; 2 bad usage or unreadable / altered traces or policies.",
  async run(input, io) {
    const suite = input.string("suite");
    if (suite !== undefined && !AGENTDOJO_SUITES.includes(suite)) {
      throw new UsageError(`unknown suite "${suite}": expected one of ${AGENTDOJO_SUITES.join(", ")}`, NAME);
    }
    const feed = input.string("feed") as FeedMode;
    if (!FEEDS.includes(feed)) throw new UsageError(`unknown --feed "${feed}": expected ran or recorded`, NAME);
    if (input.flag("detail") && !input.flag("json")) throw new UsageError("--detail needs --json", NAME);
    const policies = input.string("policies") as PolicySet;
    if (!POLICY_SETS.includes(policies)) {
      throw new UsageError(`unknown --policies "${policies}": expected ${POLICY_SETS.join(" or ")}`, NAME);
    }
    const attack = input.string("attack")!;
    if (!/^[a-z_]+$/.test(attack)) {
      throw new UsageError(`unknown attack "${attack}": expected a name like tool_knowledge`, NAME);
    }
    const root = input.string("traces")!.replace(/\/+$/, "");
    const results = await runSuites(root, { suite, attack, feed, policies }, io);
    const html = input.string("html");
    if (html !== undefined) {
      await writeOutputFile(html, renderBenchReport(benchReportInput(results, feed)), io, {
        what: "the HTML report",
        example: "--html /tmp/pab/agentdojo.html",
      });
    }
    if (input.flag("json")) await io.stdout.write(`${JSON.stringify(agentdojoJson(results, input.flag("detail")))}\n`);
    else await io.stdout.write(`${results.map(formatSuiteReport).join("\n\n")}\n`);
    return 0;
  },
});

interface RunChoice {
  readonly suite: string | undefined;
  readonly attack: string;
  readonly feed: FeedMode;
  readonly policies: PolicySet;
}

async function runSuites(root: string, { suite, attack, feed, policies }: RunChoice, io: Io): Promise<SuiteResult[]> {
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
  const drafted = policies === "drafted" ? await readDraftedManifest(draftedFolder(root), readText) : undefined;
  const names = suite === undefined ? manifestSuites(attacks) : [suite];
  const results: SuiteResult[] = [];
  for (const name of names) {
    const files = await readSuiteFiles(root, name, { users, attacks, ...(drafted ? { drafted } : {}) }, readText);
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
  return results;
}
