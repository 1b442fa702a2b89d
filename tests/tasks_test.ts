/**
 * The tasks in deno.json that ship pab: the compiled `pab` binary must get
 * exactly the sandbox that `deno task pab` runs with, since that is what the
 * tests exercise (`deno compile` cannot run on the build machines).
 */
import assert from "node:assert/strict";

const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));

function task(name: string): string {
  const entry = config.tasks?.[name];
  const command = typeof entry === "string" ? entry : entry?.command;
  assert.equal(typeof command, "string", `deno.json has no task "${name}"`);
  return command;
}

/** The words of a task line (the tasks here use no quoting). */
function words(command: string): string[] {
  return command.trim().split(/\s+/);
}

/** The permission flags in a task line, sorted: `--allow-*`, `--deny-*`, `-A`, `--no-prompt`. */
function permissionFlags(command: string): string[] {
  return words(command).filter((word) => /^(--(allow|deny)-|-A$|--no-prompt$)/.test(word)).sort();
}

/** Flags that would make the sandbox pointless. */
const BROAD =
  /^(-A|--allow-all|--allow-run|--allow-ffi|--allow-sys|--allow-env|--allow-net|--allow-write|--allow-import)$/;

Deno.test("permissionFlags() finds every permission flag and nothing else", () => {
  assert.deepEqual(
    permissionFlags("deno compile --allow-read -A --output dist/pab --deny-env=HOME --allow-net=localhost cli.ts"),
    ["--allow-net=localhost", "--allow-read", "--deny-env=HOME", "-A"],
  );
  assert.notDeepEqual(
    permissionFlags("deno run --allow-read --allow-write=/tmp cli.ts"),
    permissionFlags("deno compile --allow-read --allow-write cli.ts"),
  );
});

Deno.test("compile task grants the pab binary exactly the pab task's permissions", () => {
  const compile = task("compile");
  const pab = task("pab");
  assert.deepEqual(words(compile).slice(0, 2), ["deno", "compile"]);
  assert.deepEqual(words(pab).slice(0, 2), ["deno", "run"]);
  assert.deepEqual(permissionFlags(compile), permissionFlags(pab));
  assert.ok(permissionFlags(pab).length > 0, "the pab task grants nothing: is it still a deno run line?");
  for (const flag of permissionFlags(pab)) assert.doesNotMatch(flag, BROAD, `pab runs with a broad grant: ${flag}`);
});

Deno.test("compile task builds dist/pab from the pab task's entry point", () => {
  const compile = words(task("compile"));
  const pab = words(task("pab"));
  assert.equal(compile[compile.indexOf("--output") + 1], "dist/pab");
  assert.equal(compile.at(-1), "cli.ts");
  assert.equal(pab.at(-1), "cli.ts");
});

Deno.test("start task runs pab demo", () => {
  assert.deepEqual(words(task("start")), ["deno", "task", "pab", "demo"]);
});

Deno.test("pab and compile tasks open Deno KV stores, read only the KV token, and start no process", () => {
  for (const name of ["pab", "compile"]) {
    const line = words(task(name));
    assert.ok(line.includes("--unstable-kv"), `${name} lacks --unstable-kv (pab serve, hook, audit and mcp --store)`);
    assert.ok(line.includes("--allow-env=DENO_KV_ACCESS_TOKEN"), `${name} cannot read a remote store's token`);
    // pab mcp and pab generate --server need --allow-run: the README gives that command; the default sandbox does not.
    assert.ok(!line.some((word) => word.startsWith("--allow-run")), `${name} grants --allow-run`);
  }
});

Deno.test("pab and compile tasks run V8 with the same small young generation", () => {
  // A long pab check or serve keeps data alive as it goes, and V8 then grows its young generation to its default
  // maximum (64 MB here), most of it garbage: 4 MB semi-spaces keep a 50 MB e-mail trace's check under 200 MB.
  const v8Flags = (command: string) => words(command).filter((word) => word.startsWith("--v8-flags"));
  assert.deepEqual(v8Flags(task("pab")), ["--v8-flags=--max-semi-space-size=4"]);
  assert.deepEqual(v8Flags(task("compile")), v8Flags(task("pab")));
});
