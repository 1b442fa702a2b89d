import assert from "node:assert/strict";
import { mcpCommand } from "../adapters/cli/commands/mcp.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";
import { COMMANDS } from "../adapters/cli/shell/run_cli.ts";

const POLICY = "version: 1\nlabels:\n  internal: {readers: all, trust: attested}\n";

Deno.test("pab mcp is registered and prints its usage on stdout", async () => {
  assert.equal(await COMMANDS.mcp.load(), mcpCommand);
  const memory = memoryIo({ files: {} });
  assert.equal(await mcpCommand.run(["--help"], memory.io), 0);
  assert.match(memory.stdout(), /^Usage: pab mcp --policy FILE \[OPTIONS\] \[-- CMD ARGS\.\.\.\]\n/);
  // Every option the proxy parses is in its help, and the other form is named.
  for (const option of ["url", "hide", "ceiling", "request", "request-file", "no-ask-values", "max-message-bytes"]) {
    assert.match(memory.stdout(), new RegExp(`\\n {2}(-., )? *--${option}\\b`), option);
  }
  assert.match(memory.stdout(), /\n {2}pab mcp config \[--host claude-desktop\|cursor\|vscode\]/);
  assert.equal(memory.stderr(), "");
  const config = memoryIo({ files: {} });
  assert.equal(await mcpCommand.run(["config", "--help"], config.io), 0);
  assert.match(config.stdout(), /^Usage: pab mcp config --policy FILE \[OPTIONS\] \[-- CMD ARGS\.\.\.\]\n/);
  assert.match(config.stdout(), /\n {6}--host NAME +One host's JSON: claude-desktop, cursor, vscode/);
});

Deno.test("pab mcp exits 2 on bad usage before it starts anything", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["--", "server"], /^error: missing --policy FILE\n/],
    [["--policy", "p.yaml"], /^error: name the server to start after --: pab mcp --policy FILE -- CMD ARGS \(or/],
    [
      ["--policy", "p.yaml", "--url", "http://localhost:1/mcp", "--", "server"],
      /^error: name the server once: -- server \.\.\. starts a server, --url reaches a running one\n/,
    ],
    [["--policy", "p.yaml", "--url", "not a url"], /^error: --url needs the server's MCP endpoint/],
    [["--policy", "p.yaml", "--url", "http://u:pw@localhost:1/mcp"], /^error: --url must not carry a user name/],
    [["--policy", "p.yaml", "--quiet", "--", "server"], /^error: --quiet would silence the MCP session itself/],
    [
      ["--policy", "p.yaml", "--max-message-bytes", "x", "--", "server"],
      /^error: option --max-message-bytes needs a whole number/,
    ],
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
