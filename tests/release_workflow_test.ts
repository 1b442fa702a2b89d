/**
 * The release workflow (issue 19, item 2), checked statically: it cannot run
 * on GitHub from these machines, so what can be known here is checked here.
 * Every action is pinned to a commit; every task, file and step id it names
 * exists; the tests that must not skip under GitHub's `CI=true` have what
 * they need installed by `.ci/run` or the workflow; and the folders it
 * attests and uploads are the ones the release script writes.
 * (tests/release_test.ts checks its steps' order and runs the script.)
 */
import assert from "node:assert/strict";
import { load } from "js-yaml";
import { RELEASE_DIR } from "../adapters/build/release.ts";

const ROOT = new URL("../", import.meta.url);
const WORKFLOW = ".github/workflows/release.yml";
const text = await Deno.readTextFile(new URL(WORKFLOW, ROOT));
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
const ciRun = await Deno.readTextFile(new URL(".ci/run", ROOT));

interface Step {
  readonly id?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, string | number | boolean>;
}
interface Job {
  readonly "runs-on": string;
  readonly if?: string;
  readonly steps: readonly Step[];
}
const workflow = load(text) as { readonly jobs: Record<string, Job> };
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

Deno.test("release.yml pins every action to a full commit, with the tag it is in a comment", () => {
  const lines = text.split("\n").filter((line) => /^\s*(-\s+)?uses:/.test(line));
  assert.equal(lines.length, steps.filter((step) => step.uses).length, "one uses: line per step that uses an action");
  assert.ok(lines.length >= 6, `${lines.length}`);
  for (const line of lines) {
    assert.match(
      line,
      /uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/,
      `${line.trim()}: pin to a commit and name its tag (a tag or a branch can be moved under the workflow)`,
    );
  }
  // The same action at one commit everywhere in the file.
  const pins = new Map<string, Set<string>>();
  for (const step of steps.filter((step) => step.uses)) {
    const [action, commit] = step.uses!.split("@");
    const repository = action.split("/").slice(0, 2).join("/");
    pins.set(repository, (pins.get(repository) ?? new Set()).add(commit));
  }
  for (const [repository, commits] of pins) assert.equal(commits.size, 1, `${repository} is pinned at ${[...commits]}`);
});

Deno.test("release.yml's steps name only tasks, files and step ids that exist", async () => {
  for (const step of steps) {
    for (const [, task] of (step.run ?? "").matchAll(/\bdeno task ([\w-]+)/g)) {
      assert.ok(Object.hasOwn(config.tasks, task), `deno task ${task} is not in deno.json`);
    }
    // Repository files the scripts run or read (outputs under dist/ are made by the steps).
    for (const [, path] of (step.run ?? "").matchAll(/(?:^|\s)(\.ci\/[\w.-]+|(?:adapters|tests)\/[\w./-]+\.ts)\b/g)) {
      const info = await Deno.stat(new URL(path, ROOT));
      assert.ok(info.isFile, path);
      if (path.startsWith(".ci/")) assert.ok((info.mode ?? 0o755) & 0o100, `${path} must be executable`);
    }
  }
  for (const [name, job] of Object.entries(workflow.jobs)) {
    const ids = new Set(job.steps.flatMap((step) => step.id ? [step.id] : []));
    for (const step of job.steps) {
      for (const [, id] of (step.if ?? "").matchAll(/\bsteps\.([\w-]+)\./g)) {
        assert.ok(ids.has(id), `${name}: "if: ${step.if}" names no step of the job`);
      }
    }
  }
});

Deno.test("release.yml attests and uploads the folder the release script writes, with its notes", () => {
  const attest = steps.find((step) => step.uses?.startsWith("actions/attest-build-provenance@"));
  assert.equal(attest?.with?.["subject-path"], `${RELEASE_DIR}/*`);
  const keep = steps.find((step) => step.uses?.startsWith("actions/upload-artifact@"));
  assert.equal(keep?.with?.path, `${RELEASE_DIR}/`);
  const release = steps.find((step) => /gh release create/.test(step.run ?? ""));
  assert.ok(release?.run?.includes(`${RELEASE_DIR}/*`) && release.run.includes(`--notes-file ${RELEASE_DIR}-notes.md`));
  const check = steps.find((step) => /sha256sum -c SHA256SUMS/.test(step.run ?? ""));
  assert.match(check?.run ?? "", new RegExp(`cd ${RELEASE_DIR} &&`));
});

Deno.test("release.yml runs the Deno and Node that .ci/run and the tasks use", () => {
  const [, ciDeno] = ciRun.match(/npx -y deno@(\d+\.\d+\.\d+) task test/) ?? [];
  assert.ok(ciDeno, ".ci/run runs the tests with a pinned Deno");
  for (const step of steps.filter((step) => step.uses?.startsWith("denoland/setup-deno@"))) {
    assert.equal(String(step.with?.["deno-version"]), ciDeno);
  }
  const nodes = new Set(
    steps.filter((step) => step.uses?.startsWith("actions/setup-node@")).map((step) => step.with?.["node-version"]),
  );
  assert.equal(nodes.size, 1, "one Node version in every job");
  // No job runs on a moving image it does not name: Ubuntu for the release, Debian 12 inside it for the tests.
  for (const job of Object.values(workflow.jobs)) assert.equal(job["runs-on"], "ubuntu-latest");
});

Deno.test("every test that must not skip under CI=true has what it needs from .ci/run or the workflow", async () => {
  const needs: Record<string, (script: string) => boolean> = {
    // Chromium at /usr/bin/chromium, from apt.
    "browser_test.ts": (script) => /apt-get install -y chromium/.test(script),
    "playground_browser_test.ts": (script) => /apt-get install -y chromium/.test(script),
    // denokv on PATH: built (or restored) by the workflow, or by .ci/run.
    "denokv_test.ts": (script) => /cargo install denokv --version 0\.14\.0/.test(script) && /\.cargo\/bin/.test(script),
    // The venv with AgentDojo, pytest and the bridge, at PAB_VENV.
    "python_bridge_test.ts": (script) => /PAB_VENV/.test(script) && /pip"? install .*agentdojo==/.test(script),
  };
  const gated: string[] = [];
  for await (const entry of Deno.readDir(new URL("tests/", ROOT))) {
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const source = await Deno.readTextFile(new URL(`tests/${entry.name}`, ROOT));
    if (/Deno\.env\.get\("CI"\)/.test(source)) gated.push(entry.name);
  }
  assert.deepEqual(gated.sort(), Object.keys(needs).sort(), "a test that fails under CI=true needs its line here");
  for (const [test, has] of Object.entries(needs)) {
    assert.ok(has(`${ciRun}\n${text}`), `${test}: nothing installs what it needs`);
  }
  // GitHub sets CI=true; the test job says so too, and runs .ci/run in the Debian 12 image .ci/run is written for.
  assert.match(text, /\n {6}CI: "true"\n/);
  assert.match(text, /\n {6}image: debian:12\n/);
});
