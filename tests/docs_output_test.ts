/**
 * Every `$ deno task pab ...` example in README.md and traces/README.md prints
 * exactly what the docs show, run with the pab task's flags.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PAB_TASK_FLAGS = [
  "--unstable-kv",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp/pab",
  "--allow-env=DENO_KV_ACCESS_TOKEN",
];

async function examplesOf(file: string): Promise<{ args: string[]; output: string }[]> {
  const text = await Deno.readTextFile(`${ROOT}${file}`);
  return [...text.matchAll(/```console\n\$ deno task pab (.*)\n([\s\S]*?)```/g)].map((match) => ({
    args: match[1].trim().split(/\s+/),
    output: match[2],
  }));
}

for (const file of ["README.md", "traces/README.md"]) {
  Deno.test(`${file}'s pab examples print what the document shows`, async () => {
    const examples = await examplesOf(file);
    assert.ok(examples.length > 0, `${file} has no "$ deno task pab" example`);
    for (const { args, output } of examples) {
      const result = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", ...PAB_TASK_FLAGS, "cli.ts", ...args],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(new TextDecoder().decode(result.stdout), output, `pab ${args.join(" ")}`);
    }
  });
}

Deno.test("README's `deno task pab` command lines in sh blocks run as written", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const lines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    block[1].split("\n").filter((line) => line.startsWith("deno task pab "))
  );
  assert.ok(lines.length >= 2, "the README has runnable pab lines");
  for (const line of lines) {
    const args = line.slice("deno task pab ".length).trim().split(/\s+/);
    const out = args.includes("--out") ? args[args.indexOf("--out") + 1] : undefined;
    if (out) await Deno.remove(out).catch(() => {});
    try {
      const result = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", ...PAB_TASK_FLAGS, "cli.ts", ...args],
        cwd: ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.notEqual(result.code, 2, `${line}: ${new TextDecoder().decode(result.stderr)}`);
    } finally {
      if (out) await Deno.remove(out).catch(() => {});
    }
  }
});
