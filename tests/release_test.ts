/**
 * Distribution: the release workflow tests as .ci/run does, then runs
 * adapters/build/release.ts, which compiles `pab` for five targets with
 * exactly the sandbox of `deno task pab`, packs the npm package and writes
 * checksums; the workflow attests and uploads what the script made. The
 * script runs here too (without binaries: `deno compile` cannot download its
 * runtime on these machines, and the script says so). The repository has its
 * LICENSE; `deno task start` loads no test-only package.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { load } from "js-yaml";
import { COMPILE_TARGETS, compileArgs, makeRelease } from "../adapters/build/release.ts";
import { packageConfig } from "../adapters/build/npm_package.ts";

const ROOT = new URL("../", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
}
interface Job {
  readonly needs?: string;
  readonly container?: { readonly image: string; readonly options?: string };
  readonly env?: Record<string, string>;
  readonly permissions?: Record<string, string>;
  readonly steps: readonly Step[];
}
const workflow = load(await Deno.readTextFile(new URL(".github/workflows/release.yml", ROOT))) as {
  readonly on: Record<string, unknown>;
  readonly permissions: Record<string, string>;
  readonly jobs: Record<string, Job>;
};

/** The permission flags of a command line, sorted. */
function permissionFlags(command: string | readonly string[]): string[] {
  const words = typeof command === "string" ? command.trim().split(/\s+/) : command;
  return words.filter((word) => /^(--(allow|deny)-|-A$|--no-prompt$)/.test(word)).sort();
}

/** The `--unstable-*` flags of a command line, sorted. */
function unstableFlags(command: string | readonly string[]): string[] {
  const words = typeof command === "string" ? command.trim().split(/\s+/) : command;
  return words.filter((word) => word.startsWith("--unstable")).sort();
}

Deno.test("the release compiles pab for five targets with exactly the pab task's flags", () => {
  assert.deepEqual(COMPILE_TARGETS.map((target) => target.target).sort(), [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  assert.equal(new Set(COMPILE_TARGETS.map((target) => target.file)).size, 5);
  for (const target of COMPILE_TARGETS) {
    const args = compileArgs(config.tasks.compile, target, "/out");
    assert.deepEqual(permissionFlags(args), permissionFlags(config.tasks.pab));
    assert.deepEqual(permissionFlags(args), [
      "--allow-env=DENO_KV_ACCESS_TOKEN",
      "--allow-net=localhost",
      "--allow-read",
      "--allow-write=/tmp/pab",
    ]);
    // The binary opens Deno KV stores (pab serve, hook, audit --store, mcp --store) like deno task pab.
    assert.deepEqual(unstableFlags(args), unstableFlags(config.tasks.pab));
    assert.deepEqual(unstableFlags(args), ["--unstable-kv"]);
    assert.deepEqual(args.slice(-5), ["--target", target.target, "--output", `/out/${target.file}`, "cli.ts"]);
  }
  assert.throws(() => compileArgs("deno run cli.ts", COMPILE_TARGETS[0], "/out"), /Cannot read the compile task/);
});

Deno.test("release.yml tests as .ci/run does under CI=true, then makes, checks, attests and uploads the release files", () => {
  assert.deepEqual(Object.keys(workflow.on).sort(), ["push", "workflow_dispatch"]);
  assert.deepEqual(workflow.permissions, { contents: "read" });
  const { test, release } = workflow.jobs;
  // The tests run where .ci/run installs Chromium, the Python venv and denokv: Debian 12 as root.
  assert.equal(test.container?.image, "debian:12");
  assert.match(
    test.container?.options ?? "",
    /--shm-size=\dg/,
    "Chromium needs more than a container's 64 MB /dev/shm",
  );
  assert.equal(test.env?.CI, "true");
  assert.ok(test.steps.some((step) => step.run?.trim() === ".ci/run"), "the test job runs .ci/run");
  assert.ok(test.steps.some((step) => step.uses?.startsWith("actions/setup-node@")), "npm and node for the npm test");
  assert.equal(release.needs, "test");
  assert.deepEqual(release.permissions, { contents: "write", "id-token": "write", "attestations": "write" });
  const make = release.steps.findIndex((step) =>
    /\badapters\/build\/release\.ts --require-binaries\b/.test(step.run ?? "")
  );
  const check = release.steps.findIndex((step) => /sha256sum -c SHA256SUMS/.test(step.run ?? ""));
  const attest = release.steps.findIndex((step) => step.uses?.startsWith("actions/attest-build-provenance@"));
  const upload = release.steps.findIndex((step) => /gh release create .*dist\/release\/\*/s.test(step.run ?? ""));
  assert.ok(0 <= make && make < check && check < attest && attest < upload, `${[make, check, attest, upload]}`);
  assert.equal(release.steps[attest].with?.["subject-path"], "dist/release/*");
  assert.match(release.steps[upload].run!, /--notes-file dist\/release-notes\.md/);
  assert.equal(release.steps[upload].if, "github.ref_type == 'tag'");
  // The script runs with the deno release task's permissions.
  assert.deepEqual(permissionFlags(release.steps[make].run!), permissionFlags(config.tasks.release));
  assert.match(release.steps[make].run!, /--tag "\$GITHUB_REF_NAME"/);
});

Deno.test("the release script makes the npm tarball and SHA256SUMS here, and says why there are no binaries", async () => {
  const dir = await Deno.makeTempDir({ dir: "/tmp", prefix: "pab-release-test-" });
  try {
    const { version } = await packageConfig();
    const out = join(dir, "release");
    await assert.rejects(() => makeRelease(out, { tag: "v0.0.0-not-this" }), /does not match deno.json's version/);
    const lines: string[] = [];
    const report = await makeRelease(out, { tag: `v${version}`, log: (line) => lines.push(line) });
    const binaries = COMPILE_TARGETS.map((target) => target.file);
    if (report.binaries) {
      for (const file of binaries) assert.ok(report.files.includes(file), file);
    } else {
      assert.match(report.skipped!, /^deno compile cannot run here: it downloads its runtime \(denort\)/);
      assert.ok(lines.includes(report.skipped!), "the script says why");
      assert.ok(report.files.every((file) => !binaries.includes(file)), "no half set of binaries");
      // A release that must have binaries fails here, saying why.
      await assert.rejects(
        () => makeRelease(join(dir, "strict"), { requireBinaries: true }),
        /deno compile cannot run/,
      );
    }
    assert.ok(report.files.includes(`pab-pab-${version}.tgz`), report.files.join());
    assert.ok(report.files.includes("SHA256SUMS"));
    const sums = await new Deno.Command("sha256sum", { args: ["-c", "SHA256SUMS"], cwd: out, stdout: "piped" })
      .output();
    assert.equal(sums.code, 0);
    const checked = new TextDecoder().decode(sums.stdout).trim().split("\n");
    assert.deepEqual(checked, report.files.filter((file) => file !== "SHA256SUMS").map((file) => `${file}: OK`));
    assert.match(await Deno.readTextFile(report.notes), /^- /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LICENSE is the MIT licence deno.json names", async () => {
  assert.equal(config.license, "MIT");
  const license = await Deno.readTextFile(new URL("LICENSE", ROOT));
  assert.match(license, /^MIT License\n\nCopyright \(c\) \d{4} /);
  assert.match(license, /THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

Deno.test("cli.ts's module graph names only runtime packages: no test-only package", async () => {
  // Without deno.json, so the answer is the graph's own, not the lock file's (which lists every package).
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", "--no-lock", "cli.ts"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const info = JSON.parse(new TextDecoder().decode(output.stdout));
  const packages = Object.keys(info.npmPackages ?? {}).map((id) => id.replace(/@[^@]+$/, "")).sort();
  for (const name of ["@noble/hashes", "js-yaml", "jsonc-parser"]) assert.ok(packages.includes(name), name);
  // `pab mcp` loads the MCP SDK when it runs (a dynamic import); the packages only tests use never reach the CLI.
  const testOnly = ["fast-check", "playwright-core", "quickjs-emscripten", "ai", "@openai/agents", "openai"];
  assert.deepEqual(
    packages.filter((name) => testOnly.includes(name) || name.startsWith("@modelcontextprotocol/server-")),
    [],
  );
});
