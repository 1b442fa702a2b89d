import assert from "node:assert/strict";
import { mcpCommand } from "../adapters/cli/commands/mcp.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";
import { COMMANDS } from "../adapters/cli/shell/run_cli.ts";

const POLICY = "version: 1\nlabels:\n  internal: {readers: all, trust: attested}\n";

Deno.test("pab mcp is registered and prints its usage on stdout", async () => {
  assert.equal(await COMMANDS.mcp.load(), mcpCommand);
  const memory = memoryIo({ files: {} });
  assert.equal(await mcpCommand.run(["--help"], memory.io), 0);
  assert.match(
    memory.stdout(),
    /^Usage: pab mcp --policy FILE \[--hide TOOLS\] \[--ceiling LABEL\] \[--request TEXT\|--request-file FILE\] \[--no-ask-values\] \[--max-message-bytes N\] \[--store PATH\|URL \[--session ID\]\] -- CMD \[ARGS\.\.\.\]\n {7}pab mcp config /,
  );
  assert.equal(memory.stderr(), "");
});

Deno.test("pab mcp exits 2 on bad usage before it starts anything", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["--", "server"], /^error: missing --policy FILE\n/],
    [["--policy", "p.yaml"], /^error: name the server to start after --: pab mcp --policy FILE -- CMD ARGS\n/],
    [
      ["--policy", "p.yaml", "--ceiling", "secret", "--", "server"],
      /^error: unknown label "secret" for --ceiling \(use one of trusted, attested, untrusted, internal\)\n/,
    ],
    [["--policy", "nope.yaml", "--", "server"], /^error: Cannot read policy "nope\.yaml"/],
    [["--polcy", "p.yaml", "--", "server"], /^error: unknown option --polcy \(did you mean --policy\?\)/],
    [["--policy", "p.yaml", "--session", "s", "--", "server"], /^error: --session names a stored session: add --store/],
    [
      ["--policy", "p.yaml", "--request", "a", "--request-file", "r.txt", "--", "server"],
      /^error: give the user's request once: --request TEXT or --request-file FILE/,
    ],
    [
      ["--policy", "p.yaml", "--request-file", "nope.txt", "--", "server"],
      /^error: Cannot read the user's request "nope\.txt"/,
    ],
    [
      ["--policy", "p.yaml", "--max-message-bytes", "10", "--", "server"],
      /^error: --max-message-bytes needs at least 1024 bytes/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const memory = memoryIo({ files: { "p.yaml": POLICY } });
    assert.equal(await mcpCommand.run(args, memory.io), 2, args.join(" "));
    assert.match(memory.stderr(), pattern);
    assert.equal(memory.stdout(), "", "nothing on stdout: it belongs to the MCP client");
  }
});

Deno.test("pab mcp exits 2 with a coded error when the server cannot be started", async () => {
  const memory = memoryIo({ files: { "p.yaml": POLICY } });
  assert.equal(await mcpCommand.run(["--policy", "p.yaml", "--", "/nonexistent/mcp-server"], memory.io), 2);
  assert.match(
    memory.stderr(),
    /^error: Cannot start MCP server "\/nonexistent\/mcp-server": .*No such file or directory.* \(check the command; pab mcp needs --allow-run\)\n$/,
  );
});
