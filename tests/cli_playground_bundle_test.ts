/**
 * `deno task bundle && deno task pab playground` (the README's command) serves the bundle `deno task bundle` writes:
 * the default `--bundle` is the repository's `dist/pab.min.js`, wherever the command's file sits.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { memoryIo } from "../adapters/cli/mod.ts";
import { playgroundCommand } from "../adapters/cli/commands/playground.ts";

Deno.test("pab playground reads its bundle from the repository's dist/pab.min.js by default", async () => {
  const expected = fileURLToPath(new URL("../dist/pab.min.js", import.meta.url));
  const memory = memoryIo();
  assert.equal(await playgroundCommand.run(["--port", "0"], memory.io), 2);
  assert.ok(
    memory.stderr().includes(`cannot read the bundle "${expected}": no such file or directory`),
    memory.stderr(),
  );
});
