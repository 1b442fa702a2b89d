import assert from "node:assert/strict";
import { type Bench, BENCHES, memoryIo, runBench, runCli } from "../adapters/cli/mod.ts";

async function pab(args: string[]) {
  const memory = memoryIo();
  const code = await runCli(args, memory.io, { version: "1.2.3" });
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

Deno.test("pab --version prints the version it is given", async () => {
  assert.deepEqual(await pab(["--version"]), { code: 0, stdout: "pab 1.2.3\n", stderr: "" });
  assert.deepEqual(await pab(["-V"]), { code: 0, stdout: "pab 1.2.3\n", stderr: "" });
});

Deno.test("pab --version reads deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "cli.ts", "--version"],
    cwd: new URL("../", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(output.stdout), `pab ${config.version}\n`);
  assert.equal(output.code, 0);
});

Deno.test("pab --help lists every command", async () => {
  const result = await pab(["--help"]);
  assert.equal(result.code, 0);
  assert.equal(result.stderr, "");
  for (const name of ["check", "lint", "demo", "bench"]) assert.match(result.stdout, new RegExp(`\\n  ${name} +\\S`));
  assert.deepEqual(await pab(["help"]), result);
});

Deno.test("pab COMMAND --help and pab help COMMAND print the command's usage", async () => {
  for (const name of ["check", "lint", "demo", "bench"]) {
    const direct = await pab([name, "--help"]);
    assert.equal(direct.code, 0, name);
    assert.match(direct.stdout, new RegExp(`^Usage: pab ${name}`), name);
    assert.deepEqual(await pab(["help", name]), direct, name);
  }
});

Deno.test("pab with an unknown command exits 2 and suggests the one meant", async () => {
  assert.deepEqual(await pab(["chek"]), {
    code: 2,
    stdout: "",
    stderr: 'error: unknown command "chek" (did you mean "check"?)\nRun "pab --help" for usage.\n',
  });
  assert.deepEqual(await pab(["frobnicate"]), {
    code: 2,
    stdout: "",
    stderr: 'error: unknown command "frobnicate"\nRun "pab --help" for usage.\n',
  });
  const option = await pab(["--json"]);
  assert.equal(option.code, 2);
  assert.equal(option.stdout, "");
});

Deno.test("pab with no command prints the usage on stderr and exits 2", async () => {
  const result = await pab([]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /Usage: pab COMMAND/);
});

Deno.test("pab bench with a missing or unknown name lists the benchmarks and exits 2", async () => {
  const names = Object.keys(BENCHES);
  const list = names.length ? `the benchmarks are ${names.join(", ")}` : "no benchmarks are registered in this build";
  const missing = await pab(["bench"]);
  assert.deepEqual(missing, {
    code: 2,
    stdout: "",
    stderr: `error: name a benchmark: ${list}\nRun "pab bench --help" for usage.\n`,
  });
  const unknown = await pab(["bench", "no-such-bench"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, "");
  assert.match(unknown.stderr, new RegExp(`^error: unknown benchmark "no-such-bench"; ${list}\\n`));
});

Deno.test("runBench() runs a registered benchmark with the rest of the arguments", async () => {
  const seen: string[][] = [];
  const benches: Record<string, Bench> = {
    office: {
      summary: "The office benchmark",
      run: async (args, io) => {
        seen.push(args);
        await io.stdout.write("ran\n");
        return 1;
      },
    },
  };
  const memory = memoryIo();
  assert.equal(await runBench(["office", "--json"], memory.io, benches), 1);
  assert.deepEqual(seen, [["--json"]]);
  assert.equal(memory.stdout(), "ran\n");
  const typo = memoryIo();
  assert.equal(await runBench(["ofice"], typo.io, benches), 2);
  assert.match(
    typo.stderr(),
    /^error: unknown benchmark "ofice" \(did you mean "office"\?\); the benchmarks are office\n/,
  );
  const help = memoryIo();
  assert.equal(await runBench(["--help"], help.io, benches), 0);
  assert.match(help.stdout(), /\n {2}office {2}The office benchmark\n/);
});

Deno.test("pab reports an unexpected failure on one line, without a stack trace", async () => {
  const memory = memoryIo();
  const benches: Record<string, Bench> = {
    broken: {
      summary: "Throws",
      run: () => Promise.reject(new RangeError("boom")),
    },
  };
  assert.equal(await runBench(["broken"], memory.io, benches), 2);
  assert.equal(memory.stderr(), "error: pab failed unexpectedly: RangeError: boom (please report this)\n");
});
