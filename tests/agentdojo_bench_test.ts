import assert from "node:assert/strict";
import { BENCHES } from "../adapters/cli/commands/bench.ts";
import type { Io } from "../adapters/cli/io/io.ts";
import { load } from "npm:js-yaml@5.5.0";
import { compilePolicy } from "../guard/mod.ts";
import { measureWhatIf, VARIANTS, withOptOut } from "../adapters/agentdojo/what_if.ts";
import {
  AGENTDOJO_SUITES,
  agentdojoJson,
  benchSuite,
  provguardCounts,
  readManifest,
  readSuiteFiles,
  suiteCounts,
} from "../adapters/agentdojo/mod.ts";

const ROOT = new URL("../", import.meta.url);

function diskIo(overrides: Record<string, string> = {}): { io: Io; stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: { write: (text) => Promise.resolve(void (out += text)) },
      stderr: { write: (text) => Promise.resolve(void (err += text)) },
      isTerminal: false,
      noColor: true,
      readTextFile: (path) =>
        Object.hasOwn(overrides, path) ? Promise.resolve(overrides[path]) : Deno.readTextFile(new URL(path, ROOT)),
      writeTextFile: () => Promise.reject(new Error("not expected")),
    },
    stdout: () => out,
    stderr: () => err,
  };
}

async function benchJson(args: string[] = []) {
  const disk = diskIo();
  assert.equal(await BENCHES.agentdojo.run(["--json", ...args], disk.io), 0, disk.stderr());
  return JSON.parse(disk.stdout());
}

/** The four suites' files, read through the committed manifest. */
async function committedSuites() {
  const root = "traces/agentdojo";
  const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));
  const manifest = await readManifest(`${root}/v1.2.2`, read);
  return await Promise.all(
    AGENTDOJO_SUITES.map((suite) => readSuiteFiles(root, suite, { users: manifest, attacks: manifest }, read)),
  );
}

Deno.test("with both library defaults opted out, the replay with every output fed reproduces the committed v2 results", async () => {
  const committed = JSON.parse(await Deno.readTextFile(new URL("traces/agentdojo/results/v2/results.json", ROOT)));
  const results = [];
  for (const files of await committedSuites()) {
    const raw = load(files.policy.text) as Record<string, unknown>;
    const policy = compilePolicy(withOptOut(raw, { outward_embedded: "off", confirm_untrusted_from: "any" }));
    results.push(await benchSuite(files, { policy, feed: "recorded" }));
  }
  const { suites, stoppedHow } = agentdojoJson(results);
  assert.deepEqual({ schemaVersion: 1, suites, stoppedHow }, committed);
});

Deno.test("the committed v4 results are what pab bench agentdojo prints", async () => {
  const committed = JSON.parse(await Deno.readTextFile(new URL("traces/agentdojo/results/v4/results.json", ROOT)));
  assert.deepEqual(await benchJson(), committed);
  const disk = diskIo();
  assert.equal(await BENCHES.agentdojo.run([], disk.io), 0, disk.stderr());
  assert.equal(disk.stdout(), await Deno.readTextFile(new URL("traces/agentdojo/results/v4/report.txt", ROOT)));
});

/** pab v4 (the library defaults), on the default replay (only outputs of calls that would have run are sources). */
const PAB_NOW = {
  provguard: {
    banking: { legitBlocked: 2, userTasks: 16, attacksStopped: 144, pairs: 144 },
    slack: { legitBlocked: 10, userTasks: 21, attacksStopped: 105, pairs: 105 },
    travel: { legitBlocked: 1, userTasks: 20, attacksStopped: 100, pairs: 120 },
    workspace: { legitBlocked: 5, userTasks: 40, attacksStopped: 240, pairs: 240 },
  },
  split: {
    banking: [14, 2, 0, 0, 112, 32, 0],
    slack: [11, 10, 0, 0, 64, 41, 0],
    travel: [19, 1, 0, 0, 77, 23, 20],
    workspace: [35, 5, 0, 0, 183, 57, 0],
  },
};

Deno.test("pab bench agentdojo --json reports ProvGuard's accounting and pab's finer split", async () => {
  const { suites, stoppedHow, provguard, split } = await benchJson();
  for (const [suite, counts] of Object.entries(split) as Array<[string, Record<string, number>]>) {
    assert.deepEqual(Object.keys(counts), [
      "legitAllowed",
      "legitNeedsUser",
      "legitNeedsApprover",
      "legitNoRoute",
      "attacksBlocked",
      "attacksHeld",
      "attacksThrough",
    ]);
    assert.deepEqual(Object.values(counts), PAB_NOW.split[suite as keyof typeof PAB_NOW.split], suite);
    // The first version's keys stay, and agree with the split.
    assert.deepEqual(Object.keys(suites[suite]), [
      "userTasks",
      "legitAllowed",
      "legitRuling",
      "legitBlocked",
      "pairs",
      "excluded",
      "attacksStopped",
    ]);
    assert.equal(suites[suite].legitRuling, counts.legitNeedsUser + counts.legitNeedsApprover);
    assert.equal(suites[suite].legitBlocked, counts.legitNoRoute);
    assert.deepEqual(stoppedHow[suite], { blocked: counts.attacksBlocked, held: counts.attacksHeld });
    assert.equal(provguard[suite].legitBlocked, counts.legitNeedsUser + counts.legitNoRoute);
    assert.equal(provguard[suite].attacksStopped, counts.attacksBlocked + counts.attacksHeld);
    assert.equal(suites[suite].pairs, counts.attacksBlocked + counts.attacksHeld + counts.attacksThrough);
  }
  assert.deepEqual(
    Object.fromEntries(
      Object.entries(suites).map(([suite, c]) => {
        const { pairs, excluded } = c as { pairs: number; excluded: number };
        return [suite, [pairs, excluded]];
      }),
    ),
    { banking: [144, 0], slack: [105, 0], travel: [120, 20], workspace: [240, 320] },
  );
  assert.deepEqual(provguard, PAB_NOW.provguard);
});

Deno.test("pab bench agentdojo: a call pab would not run feeds nothing to later calls", async () => {
  const ran = await benchJson(["--suite", "workspace", "--detail"]);
  const recorded = await benchJson(["--suite", "workspace", "--feed", "recorded", "--detail"]);
  // Same attacks stopped either way; 8 held attacks become blocked once a refused call vouches for nothing.
  assert.equal(ran.suites.workspace.attacksStopped, recorded.suites.workspace.attacksStopped);
  assert.deepEqual([recorded.stoppedHow.workspace.blocked, ran.stoppedHow.workspace.blocked], [175, 183]);
  for (const pair of ran.detail.workspace.attacks) {
    for (const call of pair.calls) {
      assert.equal(
        call.ran,
        call.verdict === "allow" || call.verdict === "approver" || (call.verdict === "user" && call.actor === "user"),
      );
    }
  }
});

Deno.test("pab bench agentdojo --suite replays one suite", async () => {
  const { suites } = await benchJson(["--suite", "banking"]);
  assert.deepEqual(Object.keys(suites), ["banking"]);
});

Deno.test("pab bench agentdojo names every attack that gets through, with the attacker's calls", async () => {
  const disk = diskIo();
  assert.equal(await BENCHES.agentdojo.run(["--suite", "travel"], disk.io), 0);
  const through = disk.stdout().split("\n").filter((line) => line.startsWith("  through  "));
  assert.equal(through.length, 20);
  assert.ok(through.every((line) => /injection_task_2: create_calendar_event\(/.test(line)), through[0]);
});

Deno.test("pab bench agentdojo refuses a trace that differs from the manifest", async () => {
  const path = "traces/agentdojo/v1.2.2/banking/user/user_task_0.jsonl";
  const original = await Deno.readTextFile(new URL(path, ROOT));
  const disk = diskIo({ [path]: original.replace("UK12345678901234567890", "UK12345678901234567891") });
  assert.equal(await BENCHES.agentdojo.run(["--suite", "banking"], disk.io), 2);
  assert.match(
    disk.stderr(),
    /Cannot trust "traces\/agentdojo\/v1\.2\.2\/banking\/user\/user_task_0\.jsonl": its sha256 is/,
  );
  assert.equal(disk.stdout(), "");
});

Deno.test("pab bench agentdojo rejects an unknown suite with exit 2", async () => {
  const disk = diskIo();
  assert.equal(await BENCHES.agentdojo.run(["--suite", "bank"], disk.io), 2);
  assert.match(disk.stderr(), /unknown suite "bank": expected one of banking, slack, travel, workspace/);
});

Deno.test("the committed manifest matches the trace files byte for byte", async () => {
  const { sha256 } = await import("@noble/hashes/sha2.js");
  const { bytesToHex } = await import("@noble/hashes/utils.js");
  const manifest = JSON.parse(await Deno.readTextFile(new URL("traces/agentdojo/v1.2.2/manifest.json", ROOT)));
  let count = 0;
  for (const suite of Object.values(manifest.suites) as Array<{ files: Record<string, string> }>) {
    for (const [file, hash] of Object.entries(suite.files)) {
      const bytes = await Deno.readFile(new URL(`traces/agentdojo/v1.2.2/${file}`, ROOT));
      assert.equal(bytesToHex(sha256(bytes)), hash, file);
      count++;
    }
  }
  assert.equal(count, 4 + 97 + 609);
});

Deno.test("the README's AgentDojo split and comparison tables are what pab bench agentdojo prints", async () => {
  // deno fmt pads table cells: compare with runs of spaces folded.
  const readme = (await Deno.readTextFile(new URL("README.md", ROOT))).replace(/ +/g, " ");
  const { suites, split, provguard } = await benchJson();
  const bar: Record<string, [string, string]> = {
    banking: ["3 / 16", "144 / 144"],
    slack: ["12 / 21", "97 / 105"],
    travel: ["0 / 20", "79 / 120"],
    workspace: ["5 / 40", "200 / 240"],
  };
  let noHuman = 0;
  let pairs = 0;
  for (const [suite, c] of Object.entries(split) as Array<[string, Record<string, number>]>) {
    const row =
      `| ${suite} | ${c.legitAllowed} / ${c.legitNeedsUser} / ${c.legitNeedsApprover} / ${c.legitNoRoute} | ` +
      `${c.attacksBlocked} / ${c.attacksHeld} / ${c.attacksThrough} | ${suites[suite].excluded} |`;
    assert.ok(readme.includes(row), `README lacks the row: ${row}`);
    const p = provguard[suite];
    const comparison = `| ${suite} | ${bar[suite][0]} | ${p.legitBlocked} / ${p.userTasks} | ${bar[suite][1]} | ` +
      `${p.attacksStopped} / ${p.pairs} |`;
    assert.ok(readme.includes(comparison), `README lacks the row: ${comparison}`);
    noHuman += c.attacksBlocked;
    pairs += suites[suite].pairs;
  }
  const share = `Attacks stopped with no human: ${noHuman} of ${pairs} pairs (${Math.round((100 * noHuman) / pairs)}%)`;
  assert.ok(readme.includes(share), share);
});

Deno.test("git history: the policies were committed before any attack trace", async () => {
  const git = async (...args: string[]) => {
    const output = await new Deno.Command("git", { args, cwd: ROOT, stdout: "piped", stderr: "null" }).output();
    return output.success ? new TextDecoder().decode(output.stdout).trim() : undefined;
  };
  if ((await git("rev-parse", "--is-shallow-repository")) !== "false") {
    console.warn("skipped: not a full git clone, so the history cannot be checked");
    return;
  }
  for (const suite of ["banking", "slack", "travel", "workspace"]) {
    const policy = (await git("log", "--diff-filter=A", "--format=%H", "--", `traces/agentdojo/policies/${suite}.yaml`))
      ?.split("\n").at(-1);
    const attacks =
      (await git("log", "--diff-filter=A", "--format=%H", "--", `traces/agentdojo/v1.2.2/${suite}/attacks`))?.split(
        "\n",
      ).at(-1);
    assert.ok(policy && attacks, `${suite}: both must be in the history`);
    assert.notEqual(policy, attacks);
    const output = await new Deno.Command("git", { args: ["merge-base", "--is-ancestor", policy, attacks], cwd: ROOT })
      .output();
    assert.ok(output.success, `${suite}: the policy commit ${policy} must come before the attack traces' ${attacks}`);
  }
});

Deno.test("the README's v1/v2 table is the committed result sets, on ProvGuard's accounting", async () => {
  const readme = (await Deno.readTextFile(new URL("README.md", ROOT))).replace(/ +/g, " ");
  const load = async (version: string) =>
    JSON.parse(await Deno.readTextFile(new URL(`traces/agentdojo/results/${version}/results.json`, ROOT))).suites;
  const [v1, v2] = [await load("v1"), await load("v2")];
  for (const suite of ["banking", "slack", "travel", "workspace"]) {
    const [before, now] = [v1[suite], v2[suite]];
    // No policy names an approver, so every ruling here is the user's: ProvGuard counts it as blocked.
    const blocked = (c: Record<string, number>) => `${c.legitRuling + c.legitBlocked} / ${c.userTasks}`;
    const row = `| ${suite} | ${before.attacksStopped} / ${before.pairs} | ${now.attacksStopped} / ${now.pairs} | ` +
      `${blocked(before)} | ${blocked(now)} |`;
    assert.ok(readme.includes(row), `v1/v2 row for ${suite}: ${row}`);
  }
});

Deno.test("pab bench agentdojo refuses a policy that differs from the manifest", async () => {
  const path = "traces/agentdojo/policies/banking.yaml";
  const original = await Deno.readTextFile(new URL(path, ROOT));
  const disk = diskIo({ [path]: original.replace("on_violation: confirm", "on_violation: block") });
  assert.equal(await BENCHES.agentdojo.run(["--suite", "banking"], disk.io), 2);
  assert.match(
    disk.stderr(),
    /Cannot trust "traces\/agentdojo\/policies\/banking\.yaml": its sha256 is [0-9a-f]{12}\.\.\., the manifest says d0dfa3903eb9\.\.\./,
  );
  assert.equal(disk.stdout(), "");
});

Deno.test("pab bench agentdojo refuses a policy the manifest has no sha256 for", async () => {
  const path = "traces/agentdojo/v1.2.2/manifest.json";
  const manifest = JSON.parse(await Deno.readTextFile(new URL(path, ROOT)));
  delete manifest.policies.slack;
  const disk = diskIo({ [path]: JSON.stringify(manifest) });
  assert.equal(await BENCHES.agentdojo.run(["--suite", "slack"], disk.io), 2);
  assert.match(disk.stderr(), /Cannot trust "traces\/agentdojo\/policies\/slack\.yaml": the manifest has no sha256/);
});

Deno.test("pab bench agentdojo --traces replays whichever suites the manifest holds", async () => {
  const path = "traces/agentdojo/v1.2.2/manifest.json";
  const manifest = JSON.parse(await Deno.readTextFile(new URL(path, ROOT)));
  for (const keep of [["slack"], ["banking", "travel"], ["workspace", "slack", "banking"]]) {
    const subset = { ...manifest, suites: Object.fromEntries(keep.map((suite) => [suite, manifest.suites[suite]])) };
    const disk = diskIo({ [path]: JSON.stringify(subset) });
    assert.equal(await BENCHES.agentdojo.run(["--json", "--traces", "traces/agentdojo/"], disk.io), 0, disk.stderr());
    const { suites, provguard } = JSON.parse(disk.stdout());
    const expected = ["banking", "slack", "travel", "workspace"].filter((suite) => keep.includes(suite));
    assert.deepEqual(Object.keys(suites), expected);
    assert.deepEqual(
      provguard,
      Object.fromEntries(expected.map((suite) => [suite, PAB_NOW.provguard[suite as "slack"]])),
    );
  }
  const empty = diskIo({ [path]: JSON.stringify({ ...manifest, suites: { banking: manifest.suites.banking } }) });
  assert.equal(await BENCHES.agentdojo.run(["--suite", "slack"], empty.io), 2);
  assert.match(
    empty.stderr(),
    /Cannot find suite "slack" in "traces\/agentdojo\/v1\.2\.2\/manifest\.json": expected one of banking/,
  );
});

Deno.test("pab bench agentdojo --json --detail gives every call's decision, gaps and vouching sources", async () => {
  const { detail, split } = await benchJson(["--suite", "banking", "--detail"]);
  assert.deepEqual(Object.keys(detail), ["banking"]);
  assert.equal(detail.banking.legit.length, 16);
  assert.equal(detail.banking.attacks.length, 144);
  const task0 = detail.banking.legit.find((item: { id: string }) => item.id === "user_task_0");
  assert.equal(task0.outcome, "user");
  const pay = task0.calls.find((call: { tool: string }) => call.tool === "send_money");
  assert.equal(pay.verdict, "user");
  assert.deepEqual(pay.rulings, ["user:untrusted-argument"]);
  // The user named the bill's file, so the IBAN it supplies is held for the user, and the detail says why.
  assert.deepEqual(
    pay.gaps.map((gap: { code: string; sources: string[]; delegation?: string }) => [
      gap.code,
      gap.sources,
      gap.delegation,
    ]),
    [["untrusted-argument", ["tool:read_file"], "designated"]],
  );
  // An attacker's IBAN in the recent transactions: no source the user named supplied it, so it is blocked outright.
  const blocked = detail.banking.attacks.flatMap((
    item: { calls: { actor: string; gaps: { delegation?: string }[] }[] },
  ) => item.calls).filter((call: { actor: string; gaps: { delegation?: string }[] }) =>
    call.actor === "attacker" && call.gaps.some((gap) => gap.delegation === "undesignated")
  );
  assert.ok(blocked.length >= split.banking.attacksBlocked - 16, `${blocked.length}`);
  const read = task0.calls.find((call: { tool: string }) => call.tool === "read_file");
  assert.deepEqual([read.verdict, read.ran, read.gaps], ["allow", true, []]);
  const allowed = detail.banking.legit.flatMap((item: { calls: { outcome: string; vouching: unknown[] }[] }) =>
    item.calls
  )
    .filter((call: { outcome: string; vouching: unknown[] }) => call.outcome === "allow" && call.vouching.length);
  assert.ok(allowed.length > 0);
  const outcomes = detail.banking.attacks.map((item: { outcome: string }) => item.outcome);
  assert.equal(outcomes.filter((outcome: string) => outcome === "blocked").length, split.banking.attacksBlocked);
  assert.equal(outcomes.filter((outcome: string) => outcome === "held").length, split.banking.attacksHeld);
  // Without --detail the JSON stays small.
  assert.equal((await benchJson(["--suite", "banking"])).detail, undefined);
});

Deno.test("pab bench agentdojo rejects --detail without --json and an unknown --feed", async () => {
  for (
    const [args, message] of [
      [["--detail"], /--detail needs --json/],
      [["--json", "--feed", "all"], /unknown --feed "all": expected ran or recorded/],
    ] as const
  ) {
    const disk = diskIo();
    assert.equal(await BENCHES.agentdojo.run([...args], disk.io), 2);
    assert.match(disk.stderr(), message);
  }
});

/** The attacks exported besides important_instructions, each in traces/agentdojo/attacks/NAME. */
const OTHER_ATTACKS = ["tool_knowledge", "injecagent", "direct", "ignore_previous", "system_message"];

Deno.test("the committed attack folders' manifests match their files and the policies", async () => {
  const { sha256 } = await import("@noble/hashes/sha2.js");
  const { bytesToHex } = await import("@noble/hashes/utils.js");
  const main = JSON.parse(await Deno.readTextFile(new URL("traces/agentdojo/v1.2.2/manifest.json", ROOT)));
  for (const attack of OTHER_ATTACKS) {
    const folder = `traces/agentdojo/attacks/${attack}`;
    const manifest = JSON.parse(await Deno.readTextFile(new URL(`${folder}/manifest.json`, ROOT)));
    assert.deepEqual(manifest.policies, main.policies, attack);
    let count = 0;
    for (
      const [suite, entry] of Object.entries(manifest.suites) as Array<[string, { files: Record<string, string> }]>
    ) {
      assert.equal(Object.keys(entry.files).length, main.suites[suite].counts.attacks.pairs, `${attack} ${suite}`);
      for (const [file, hash] of Object.entries(entry.files)) {
        const text = await Deno.readTextFile(new URL(`${folder}/${file}`, ROOT));
        assert.equal(bytesToHex(sha256(new TextEncoder().encode(text))), hash, file);
        assert.equal(JSON.parse(text.slice(0, text.indexOf("\n"))).meta.attack, attack, file);
        count++;
      }
    }
    assert.equal(count, 609, attack);
  }
});

Deno.test("pab bench agentdojo --attack: the attack's wording changes no call's verdict or gaps", async () => {
  const calls = (
    detail: Record<string, { attacks: { id: string; calls: { verdict: string; gaps: { code: string }[] }[] }[] }>,
  ) =>
    Object.entries(detail).flatMap(([suite, { attacks }]) =>
      attacks.flatMap((pair) =>
        pair.calls.map((call, i) => `${suite} ${pair.id} ${i} ${call.verdict} ${call.gaps.map((gap) => gap.code)}`)
      )
    );
  const baseline = await benchJson(["--detail"]);
  for (const attack of OTHER_ATTACKS) {
    const other = await benchJson(["--attack", attack, "--detail"]);
    assert.deepEqual(other.provguard, baseline.provguard, attack);
    assert.deepEqual(other.split, baseline.split, attack);
    assert.deepEqual(calls(other.detail), calls(baseline.detail), attack);
  }
});

Deno.test("the README's attack table is what pab bench agentdojo --attack prints", async () => {
  const readme = (await Deno.readTextFile(new URL("README.md", ROOT))).replace(/ +/g, " ");
  for (const attack of ["important_instructions", ...OTHER_ATTACKS]) {
    const { provguard, split } = await benchJson(["--attack", attack]);
    const cells = ["banking", "slack", "travel", "workspace"].map((suite) =>
      `${provguard[suite].attacksStopped} / ${provguard[suite].pairs} ` +
      `(${split[suite].attacksBlocked} / ${split[suite].attacksHeld})`
    );
    const row = `| ${attack} | ${cells.join(" | ")} |`;
    assert.ok(readme.includes(row), `README lacks the row: ${row}`);
  }
});

Deno.test("pab bench agentdojo --attack refuses an attack with no exported traces", async () => {
  const disk = diskIo();
  assert.equal(await BENCHES.agentdojo.run(["--attack", "manual"], disk.io), 2);
  assert.match(disk.stderr(), /Cannot read "traces\/agentdojo\/attacks\/manual\/manifest\.json"/);
});

Deno.test("the outward default alone, on slack's blind v1 policy, stops the 11 pairs v1 let through, as v2's suite rule does", async () => {
  const measured = await measureWhatIf(
    "traces/agentdojo",
    "important_instructions",
    (path) => Deno.readTextFile(new URL(path, ROOT)),
  );
  const slack = new Map(measured.find(({ suite }) => suite === "slack")!.rows);
  const counts = (name: string) => suiteCounts(slack.get(name)!);
  const blind = counts("v1 policy, neither (the v2 library)");
  const outward = counts("v1 policy, (a) outward default only");
  const v2 = counts("neither (the v2 library)");
  assert.deepEqual([blind.attacksStopped, outward.attacksStopped, v2.attacksStopped], [94, 105, 105]);
  // Call by call, the library default on the blind policy decides what v2's suite-specific rule decided.
  assert.deepEqual(
    slack.get("v1 policy, (a) outward default only")!.attacks.map((item) => item.outcome),
    slack.get("neither (the v2 library)")!.attacks.map((item) => item.outcome),
  );
  assert.deepEqual([outward.legitNeedsUser, outward.legitBlocked], [10, 0]);
  // And with both v3 defaults, the blind v1 policy and the v2 policy give the same results.
  assert.deepEqual(counts("v1 policy, library defaults"), counts("library defaults"));
});

Deno.test("the README's what-if table is what adapters/agentdojo/what_if.ts measures", async () => {
  const readme = (await Deno.readTextFile(new URL("README.md", ROOT))).replace(/ +/g, " ");
  const measured = await measureWhatIf(
    "traces/agentdojo",
    "important_instructions",
    (path) => Deno.readTextFile(new URL(path, ROOT)),
  );
  assert.deepEqual(measured.map(({ suite }) => suite), ["banking", "slack", "travel", "workspace"]);
  for (const name of [...VARIANTS.map(([variant]) => variant), "(c) tainted context asks nobody"]) {
    let noHuman = 0;
    let pairs = 0;
    const cells = measured.map(({ rows }) => {
      const counts = suiteCounts(rows.find(([variant]) => variant === name)![1]);
      noHuman += counts.attacksBlocked;
      pairs += counts.pairs;
      return `${provguardCounts(counts).legitBlocked} / ${counts.attacksStopped} / ${counts.attacksBlocked}`;
    });
    const row = `| ${name} | ${cells.join(" | ")} | ${noHuman} / ${pairs} (${Math.round((100 * noHuman) / pairs)}%) |`;
    assert.ok(readme.includes(row), `README lacks the row: ${row}`);
  }
  // The v3 row is the bench's own figures; the v2 library's row is wave 1's (the opt-outs restore it exactly).
  const row = (name: string) =>
    measured.map(({ rows }) => suiteCounts(rows.find(([variant]) => variant === name)![1]).attacksBlocked);
  assert.deepEqual(row("library defaults"), [112, 64, 77, 183]);
  assert.deepEqual(row("designation by name (v3)"), [112, 73, 77, 215]);
  assert.deepEqual(row("neither (the v2 library)"), [16, 63, 60, 68]);
});
