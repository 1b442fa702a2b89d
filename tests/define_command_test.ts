import assert from "node:assert/strict";
import { type CommandDef, defineCommand, helpText, memoryIo } from "../adapters/cli/mod.ts";

function declared(seen: unknown[] = []): CommandDef {
  return {
    name: "copy",
    summary: "Copy things",
    description: "Copy SOURCE... somewhere.",
    options: {
      to: { type: "string", short: "t", value: "DIR", required: true, description: "Where to" },
      times: { type: "integer", default: 1, description: "How often" },
      dry: { type: "boolean", description: "Only say what would happen" },
    },
    arguments: { name: "SOURCE", min: 1, max: 2, missing: "name something to copy" },
    exitCodes: "0 ok; 2 bad usage.",
    run: async (input, io) => {
      seen.push({
        to: input.string("to"),
        times: input.integer("times"),
        dry: input.flag("dry"),
        sources: input.positionals,
      });
      await io.stdout.write("copied\n");
      return 0;
    },
  };
}

async function run(args: string[], seen: unknown[] = []) {
  const memory = memoryIo();
  const code = await defineCommand(declared(seen)).run(args, memory.io);
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

Deno.test("defineCommand() parses options with their defaults and passes the arguments", async () => {
  const seen: unknown[] = [];
  assert.deepEqual(await run(["-t", "out", "a", "--dry"], seen), { code: 0, stdout: "copied\n", stderr: "" });
  assert.deepEqual(seen, [{ to: "out", times: 1, dry: true, sources: ["a"] }]);
  await run(["--to=out", "--times", "3", "a", "b"], seen);
  assert.deepEqual(seen[1], { to: "out", times: 3, dry: false, sources: ["a", "b"] });
});

Deno.test("defineCommand() reports usage errors with the command's help pointer and exit 2", async () => {
  const usage = '\nRun "pab copy --help" for usage.\n';
  const cases: Array<[string[], string]> = [
    [["a"], "error: missing --to DIR"],
    [["-t", "out"], "error: name something to copy"],
    [["-t", "out", "a", "b", "c"], 'error: unexpected argument "c"'],
    [["-t", "out", "--tims", "2", "a"], "error: unknown option --tims (did you mean --times?)"],
    [["-t", "out", "--times", "-1", "a"], "error: option --times needs a value"],
    [["-t", "out", "--times", "x", "a"], 'error: option --times needs a whole number, got "x"'],
    [["-t", "out", "-t", "again", "a"], "error: option --to is given twice"],
    [["-t", "out", "--dry=yes", "a"], "error: option --dry takes no value"],
  ];
  for (const [args, message] of cases) {
    assert.deepEqual(await run(args), { code: 2, stdout: "", stderr: message + usage }, args.join(" "));
  }
});

Deno.test("defineCommand() prints --help on stdout, and --quiet silences stdout only", async () => {
  const help = await run(["--help"]);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, helpText(declared()));
  assert.equal(
    help.stdout,
    `Usage: pab copy --to DIR [OPTIONS] SOURCE...

Copy SOURCE... somewhere.

Options:
  -t, --to DIR   Where to; required
      --times N  How often (default: 1)
      --dry      Only say what would happen
  -q, --quiet    Print nothing on stdout: only the exit code and errors
  -h, --help     Show this help

Exit codes: 0 ok; 2 bad usage.
`,
  );
  assert.deepEqual(await run(["-q", "-t", "out", "a"]), { code: 0, stdout: "", stderr: "" });
});

Deno.test("defineCommand() turns an unexpected failure into one line on stderr and exit 2", async () => {
  const memory = memoryIo();
  const broken = defineCommand({ ...declared(), run: () => Promise.reject(new Error("disk on fire\n\x1b[2J")) });
  assert.equal(await broken.run(["-t", "out", "a"], memory.io), 2);
  assert.equal(
    memory.stderr(),
    "error: pab failed unexpectedly: Error: disk on fire\\n\\u{1b}[2J (please report this)\n",
  );
});
