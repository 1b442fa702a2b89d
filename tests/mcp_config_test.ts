/**
 * `pab mcp config` (issue 19, item 3): the printed entry, run as a host runs
 * it (the command and arguments exactly as printed, from another folder),
 * starts the proxy and relays.
 */
import assert from "node:assert/strict";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { mcpCommand } from "../adapters/cli/commands/mcp.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DENO = Deno.execPath();
const INBOX = [DENO, "run", "-A", `--lock=${ROOT}tests/deno.lock`, "--frozen", `${ROOT}tests/_mcp_inbox_server.ts`];

/** `pab mcp config ...` run as a user would, from `cwd`, with the CLI's sandbox. */
async function config(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(DENO, {
    args: [
      "run",
      `--lock=${ROOT}adapters/mcp/deno.lock`,
      "--frozen",
      "--allow-read",
      "--allow-write=/tmp/pab",
      `${ROOT}cli.ts`,
      "mcp",
      "config",
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("pab mcp config prints each host's entry, and the entry run exactly as printed starts pab mcp and relays", async () => {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  try {
    await Deno.writeTextFile(
      `${dir}/policy.yaml`,
      "version: 1\ntools:\n  tools/list: {output: trusted}\n  sent: {output: trusted}\n",
    );
    const entries: Record<string, { command: string; args: string[]; type?: string }> = {};
    for (const host of ["claude-desktop", "cursor", "vscode"]) {
      const printed = await config(dir, ["--host", host, "--name", "inbox", "--policy", "policy.yaml", "--", ...INBOX]);
      assert.equal(printed.code, 0, printed.stderr);
      // Run by npx's Deno (as here), the entry names a path npm may clear: said on stderr, never in the JSON.
      assert.equal(
        /\/_npx\//.test(DENO),
        /^note: the entry runs the Deno that npx keeps in npm's cache/.test(printed.stderr),
      );
      const json = JSON.parse(printed.stdout);
      entries[host] = host === "vscode" ? json.servers.inbox : json.mcpServers.inbox;
      assert.deepEqual(Object.keys(json), [host === "vscode" ? "servers" : "mcpServers"]);
    }
    assert.equal(entries.vscode.type, "stdio");
    assert.deepEqual({ ...entries.vscode, type: undefined }, { ...entries.cursor, type: undefined });
    assert.deepEqual(entries.cursor, entries["claude-desktop"]);
    const { command, args } = entries.cursor;
    assert.ok(command.startsWith("/"), command);
    // Absolute paths: the policy, the lock, the config; the server's command is the one granted to run.
    assert.ok(args.includes(`--policy=${dir}/policy.yaml`));
    assert.ok(args.includes(`--lock=${ROOT}adapters/mcp/deno.lock`));
    assert.ok(args.includes(`--config=${ROOT}deno.json`));
    assert.ok(args.includes(`--allow-run=${DENO}`));
    // Run as a host would: exactly the printed command and arguments, from another folder.
    const client = new Client({ name: "host", version: "1" });
    const transport = new StdioClientTransport({ command, args, cwd: "/", stderr: "pipe" });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool: { name: string }) => tool.name);
      assert.ok(names.includes("send_email") && names.includes("sent"), names.join(", "));
      assert.equal(
        ((await client.callTool({ name: "sent", arguments: {} })).content as { text: string }[])[0].text,
        "[]",
      );
    } finally {
      await client.close();
    }
    // Without --host: every host, each with where its file lives.
    const all = await config(dir, [
      "--policy",
      "policy.yaml",
      "--",
      "npx",
      "-y",
      "@modelcontextprotocol/server-memory",
    ]);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^\/\/ claude-desktop: claude_desktop_config\.json/);
    assert.match(all.stdout, /\n\/\/ cursor: ~\/\.cursor\/mcp\.json/);
    assert.match(all.stdout, /\n\/\/ vscode: \.vscode\/mcp\.json/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab mcp config refuses an unknown host and a missing policy before printing anything", async () => {
  const cases: Array<[string[], RegExp]> = [
    [
      ["config", "--host", "emacs", "--policy", "p.yaml", "--", "srv"],
      /^error: unknown host "emacs" for --host \(use one of claude-desktop, cursor, vscode\)/,
    ],
    [["config", "--policy", "missing.yaml", "--", "srv"], /^error: Cannot read policy "missing\.yaml"/],
    [["config", "--policy", "p.yaml"], /^error: name the server to start after --/],
    [
      ["--host", "vscode", "--policy", "p.yaml", "--", "srv"],
      /^error: --host is an option of pab mcp config \(pab mcp config --host \.\.\.\)\n/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const memory = memoryIo({ files: { "p.yaml": "version: 1\n" } });
    assert.equal(await mcpCommand.run(args, memory.io), 2, args.join(" "));
    assert.match(memory.stderr(), pattern);
    assert.equal(memory.stdout(), "");
  }
});
