/**
 * Distribution: the release workflow compiles `pab` for five targets with
 * exactly the sandbox of `deno task pab`, with checksums; the repository has
 * its LICENSE; `deno task start` loads no test-only package.
 */
import assert from "node:assert/strict";
import { load } from "js-yaml";

const ROOT = new URL("../", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
const workflow = load(await Deno.readTextFile(new URL(".github/workflows/release.yml", ROOT))) as {
  jobs: Record<
    string,
    { strategy?: { matrix: { include: { target: string; name: string }[] } }; steps: { run?: string }[] }
  >;
};

/** The permission flags of a command line, sorted. */
function permissionFlags(command: string): string[] {
  return command.trim().split(/\s+/).filter((word) => /^(--(allow|deny)-|-A$|--no-prompt$)/.test(word)).sort();
}

/** The `--unstable-*` flags of a command line, sorted. */
function unstableFlags(command: string): string[] {
  return command.trim().split(/\s+/).filter((word) => word.startsWith("--unstable")).sort();
}

function runs(): string[] {
  return Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((step) => step.run ? [step.run] : []));
}

Deno.test("release.yml compiles pab with exactly the pab task's permission flags", () => {
  const compiles = runs().filter((run) => /\bdeno compile\b/.test(run));
  assert.equal(compiles.length, 1);
  assert.deepEqual(permissionFlags(compiles[0]), permissionFlags(config.tasks.pab));
  assert.deepEqual(permissionFlags(compiles[0]), [
    "--allow-env=DENO_KV_ACCESS_TOKEN",
    "--allow-net=localhost",
    "--allow-read",
    "--allow-write=/tmp/pab",
  ]);
  // The binary opens Deno KV stores (pab serve, hook, audit --store, mcp --store) like deno task pab.
  assert.deepEqual(unstableFlags(compiles[0]), unstableFlags(config.tasks.pab));
  assert.deepEqual(unstableFlags(compiles[0]), ["--unstable-kv"]);
  assert.match(compiles[0], / cli\.ts$/);
  assert.match(compiles[0], /--target \$\{\{ matrix\.target \}\}/);
});

Deno.test("release.yml builds Linux x64/arm64, macOS x64/arm64 and Windows x64, and publishes sha256 checksums", () => {
  const targets = workflow.jobs.binaries.strategy!.matrix.include.map((entry) => entry.target).sort();
  assert.deepEqual(targets, [
    "aarch64-apple-darwin",
    "aarch64-unknown-linux-gnu",
    "x86_64-apple-darwin",
    "x86_64-pc-windows-msvc",
    "x86_64-unknown-linux-gnu",
  ]);
  assert.ok(runs().some((run) => /sha256sum pab-\* > SHA256SUMS/.test(run)));
  assert.ok(runs().some((run) => /^deno task test$/.test(run)), "the release runs the tests first");
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
  for (const name of ["@noble/hashes", "js-yaml", "jsonc-parser", "zod"]) assert.ok(packages.includes(name), name);
  // `pab mcp` loads the MCP SDK when it runs (a dynamic import); the packages only tests use never reach the CLI.
  const testOnly = ["fast-check", "playwright-core", "quickjs-emscripten", "ai", "@openai/agents", "openai"];
  assert.deepEqual(
    packages.filter((name) => testOnly.includes(name) || name.startsWith("@modelcontextprotocol/server-")),
    [],
  );
});
