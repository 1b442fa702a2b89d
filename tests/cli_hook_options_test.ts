import assert from "node:assert/strict";
import { memoryIo } from "../adapters/cli/mod.ts";
import { claudeCodeHookCommand, hookCommand } from "../adapters/cli/commands/hook.ts";
import { hookSettingsCommand } from "../adapters/cli/hook/hook_settings.ts";

Deno.test("pab hook claude-code refuses --quiet, which would hide a deny from Claude Code, with exit 2", async () => {
  for (const quiet of ["--quiet", "-q"]) {
    const memory = memoryIo({ files: { "/p.yaml": "version: 1\ntools: {}\n" } });
    assert.equal(await hookCommand.run(["claude-code", "--policy", "/p.yaml", quiet], memory.io), 2);
    assert.equal(memory.stdout(), "");
    assert.match(memory.stderr(), /^error: --quiet would hide the decision from Claude Code: leave it out\n/);
  }
});

Deno.test("pab hook claude-code and its settings form check their options as every declared command does", async () => {
  const cases: [string[], RegExp][] = [
    [["claude-code", "--polcy", "/p.yaml"], /unknown option --polcy \(did you mean --policy\?\)/],
    [["claude-code"], /^error: missing --policy FILE\nRun "pab hook claude-code --help" for usage\.\n$/],
    [["claude-code", "--policy", "/p.yaml", "--timeout-ms", "soon"], /--timeout-ms/],
    [["claude-code", "settings", "--merg", "x"], /unknown option --merg \(did you mean --merge\?\)/],
    [["claude-code", "settings", "--policy", "/p.yaml", "extra"], /unexpected argument "extra"/],
  ];
  for (const [args, stderr] of cases) {
    const memory = memoryIo({ files: { "/p.yaml": "version: 1\ntools: {}\n" } });
    assert.equal(await hookCommand.run(args, memory.io), 2, args.join(" "));
    assert.match(memory.stderr(), stderr, args.join(" "));
  }
});

Deno.test("pab hook --help prints the usage of pab hook claude-code, and each form has its own", async () => {
  const memory = memoryIo();
  assert.equal(await hookCommand.run(["--help"], memory.io), 0);
  assert.equal(memory.stdout(), claudeCodeHookCommand.help);
  assert.match(claudeCodeHookCommand.help, /--timeout-ms N +Block when answering takes longer \(default: 20000\)/);
  assert.match(hookSettingsCommand.help, /^Usage: pab hook claude-code settings --policy FILE \[OPTIONS\]\n/);
});
