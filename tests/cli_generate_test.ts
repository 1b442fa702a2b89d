/**
 * `pab generate`: drafts from real published MCP servers' tool lists, OpenAI
 * tool definitions and AgentDojo suites, checked line by line and by pab lint;
 * a real MCP server started over stdio; and writes the sandbox refuses.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { memoryIo, runCli } from "../adapters/cli/mod.ts";
import { lintPolicyText } from "../adapters/cli/policy/lint_policy.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TOOLS = "traces/examples/tools";
const PAB_TASK_FLAGS = [
  "--v8-flags=--max-semi-space-size=4",
  "--unstable-kv",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp/pab",
  "--allow-env=DENO_KV_ACCESS_TOKEN",
];

async function generate(path: string): Promise<string> {
  const memory = memoryIo({ files: { [path]: await Deno.readTextFile(`${ROOT}${path}`) } });
  assert.equal(await runCli(["generate", path], memory.io, { version: "0" }), 0, memory.stderr());
  assert.equal(memory.stderr(), "");
  return memory.stdout();
}

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

function toolOf(yaml: string, tool: string): string {
  const start = yaml.indexOf(`\n  ${tool}:\n`);
  assert.ok(start >= 0, `no ${tool} in the draft`);
  const rest = yaml.slice(start + 1);
  const end = rest.slice(1).search(/\n {2}\S/);
  return end < 0 ? rest.trimEnd() : rest.slice(0, end + 1);
}

function assertLints(yaml: string, source: string): void {
  assert.deepEqual(lintPolicyText(yaml, { source, format: "yaml" }).issues, [], source);
}

Deno.test("pab generate drafts a lint-clean policy for every published MCP server's tool list", async () => {
  for (const server of ["memory", "filesystem", "everything"]) {
    const path = `${TOOLS}/mcp-server-${server}.tools.json`;
    const yaml = await generate(path);
    assertLints(yaml, path);
    const recorded = JSON.parse(await Deno.readTextFile(`${ROOT}${path}`)).tools;
    assert.deepEqual(Object.keys(parsePolicy(yaml).tools), recorded.map((tool: { name: string }) => tool.name));
  }
});

Deno.test("pab generate follows the filesystem server's annotations and output schemas", async () => {
  const yaml = await generate(`${TOOLS}/mcp-server-filesystem.tools.json`);
  assert.match(toolOf(yaml, "read_text_file"), /\n {4}output: untrusted # its output schema has no field the platform/);
  const write = toolOf(yaml, "write_file");
  // destructiveHint: true keeps the question once strangers' text was read, unless the user's words name the path.
  assert.match(write, /\n {4}on_tainted: named # destructiveHint: it may destroy or overwrite/);
  assert.match(write, /\n {6}path: \{ require: trusted, on_violation: confirm \} # selector, where a change lands/);
  assert.match(write, /\n {6}content: \{ embedded: trusted \} # content/);
  assert.match(toolOf(yaml, "edit_file"), /\n {6}dryRun: \{ allow: \["true", "false"\] \} # option: a boolean/);
  // destructiveHint: false, every argument pinned: strangers' text alone does not ask.
  assert.match(toolOf(yaml, "create_directory"), /\n {4}on_tainted: pinned #/);
  assert.equal(parsePolicy(yaml).tools.write_file.onTainted, "named");
  assert.equal(parsePolicy(yaml).tools.create_directory.onTainted, "pinned");
});

Deno.test("pab generate reads OpenAI tool definitions: output trust from descriptions, every argument classified", async () => {
  const yaml = await generate(`${TOOLS}/email.openai-tools.json`);
  assertLints(yaml, "email");
  const send = toolOf(yaml, "send_email");
  assert.match(send, /\n {4}on_tainted: pinned #/);
  assert.match(send, /\n {6}to: \{ require: trusted, on_violation: confirm \} # selector, who receives/);
  assert.match(send, /\n {6}subject: \{ embedded: trusted \} # content/);
  assert.match(send, /\n {6}body: \{ embedded: trusted \} # content/);
  assert.match(toolOf(yaml, "fetch_page"), /output: untrusted # it takes a URL \(url\)/);
  assert.match(toolOf(yaml, "fetch_page"), /url: \{ require: trusted, on_violation: confirm \}/);
  assert.match(toolOf(yaml, "get_contacts"), /output: trusted # a closed-world read whose description names nothing/);
  const inbox = toolOf(yaml, "read_inbox");
  assert.match(inbox, /output: trusted # the platform's own records: its description speaks of records others write/);
  assert.match(inbox, /\n {4}trusted_fields: \[id, /);
  assert.doesNotMatch(inbox, /trusted_fields: \[[^\]]*\b(body|subject|sender|from)\b/);
});

Deno.test("pab generate drafts lint-clean policies for the four AgentDojo suites, selectors and fields explained", async () => {
  for (const suite of ["banking", "slack", "travel", "workspace"]) {
    assertLints(await generate(`traces/agentdojo/v1.2.2/${suite}/suite.json`), suite);
  }
  const banking = await generate("traces/agentdojo/v1.2.2/banking/suite.json");
  const send = toolOf(banking, "send_money");
  assert.match(send, /amount: \{ require: trusted, on_violation: confirm \} # selector, how much/);
  assert.match(send, /recipient: \{ require: trusted, on_violation: confirm \} # selector, who receives/);
  assert.match(send, /subject: \{ embedded: trusted \} # content/);
  assert.match(toolOf(banking, "update_password"), /password: \{ require: trusted \} # credential/);
  assert.match(toolOf(banking, "get_balance"), /output: trusted # a closed-world read/);
  assert.match(toolOf(banking, "get_most_recent_transactions"), /trusted_fields: \[id, /);
  assert.match(toolOf(banking, "read_file"), /trusted_fields:/); // free text from it stays untrusted
});

Deno.test("pab generate quotes hostile names and leaves out reserved ones, so the draft still lints", async () => {
  const tools: { tools: unknown[] } = {
    tools: [
      { name: "evil\nversion: 2", inputSchema: { properties: { "to\u0085x": { type: "string" } } } },
      { name: "__proto__", inputSchema: {} },
      { name: "send_mail", inputSchema: { properties: { constructor: { type: "string" } } } },
      { name: "send_mail", inputSchema: {} },
      { name: "yes", inputSchema: { properties: { constructor: { type: "string" } } } },
    ],
  };
  const memory = memoryIo({ stdin: JSON.stringify(tools) });
  assert.equal(await runCli(["generate", "-"], memory.io, { version: "0" }), 0, memory.stderr());
  const yaml = memory.stdout();
  assertLints(yaml, "hostile");
  assert.deepEqual(Object.keys(parsePolicy(yaml).tools), ["evil\nversion: 2", "yes"]);
  assert.match(yaml, /\n {2}# left out "__proto__": a reserved word\n/);
  assert.match(yaml, /\n {2}# left out "send_mail": declared 2 times, differently \(its calls follow the default/);
  assert.match(yaml, /\n {4}# left out argument "constructor": a reserved word\n/);
});

Deno.test("pab generate reports input that is not tool definitions", async () => {
  const memory = memoryIo({ files: { "x.json": '{"hello": 1}' } });
  assert.equal(await runCli(["generate", "x.json"], memory.io, { version: "0" }), 2);
  assert.match(
    memory.stderr(),
    /^error: Cannot read tool definitions from "x\.json": expected an MCP tools\/list result/,
  );
  const notJson = memoryIo({ files: { "y.json": "not json" } });
  assert.equal(await runCli(["generate", "y.json"], notJson.io, { version: "0" }), 2);
  assert.match(notJson.stderr(), /^error: Cannot read tool definitions from "y\.json": it is not JSON/);
});

Deno.test("pab generate --server lists a real MCP server's tools over stdio, page by page", async () => {
  const fixture = `${TOOLS}/mcp-server-memory.tools.json`;
  const result = await runPab(
    [
      "generate",
      "--server",
      "--",
      Deno.execPath(),
      "run",
      "--allow-read",
      "--lock=tests/deno.lock",
      "--frozen",
      "tests/fixtures/replay_mcp_server.ts",
      fixture,
    ],
    [
      "--lock=adapters/mcp/deno.lock",
      "--frozen",
      "--allow-read",
      "--allow-write=/tmp/pab",
      "--allow-run",
      "--allow-env",
    ],
  );
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0);
  const fromFile = await generate(fixture);
  const body = (text: string) => text.split("\n").slice(1).join("\n");
  assert.equal(body(result.stdout), body(fromFile));
});

Deno.test("pab generate --server under the pab task's flags says it needs --allow-run", async () => {
  const result = await runPab(["generate", "--server", "--", "npx", "-y", "@modelcontextprotocol/server-memory"]);
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /^error: Cannot list the tools of the MCP server "npx -y @modelcontextprotocol\/server-memory": /,
  );
  assert.match(result.stderr, /needs --allow-run and --allow-env, which deno task pab does not grant/);
});

Deno.test("pab generate --out writes a new file under /tmp/pab, and the sandbox refuses the repository", async () => {
  const inside = "traces/examples/generated.policy.yaml";
  const refused = await runPab(["generate", "--out", inside, `${TOOLS}/email.openai-tools.json`]);
  assert.equal(refused.code, 2);
  assert.equal(refused.stdout, "");
  assert.match(
    refused.stderr,
    /^error: Cannot write the draft to "traces\/examples\/generated\.policy\.yaml": Deno's permission sandbox refused it/,
  );
  await assert.rejects(Deno.lstat(`${ROOT}${inside}`), Deno.errors.NotFound);
  const out = `/tmp/pab/generate-test-${crypto.randomUUID()}.yaml`;
  try {
    const written = await runPab(["generate", "--out", out, `${TOOLS}/email.openai-tools.json`]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, "");
    assert.match(written.stderr, /^wrote a draft policy for 4 tools to \/tmp\/pab\/generate-test-.*\.yaml; check it/);
    const lint = await runPab(["lint", out]);
    assert.deepEqual(lint, { code: 0, stdout: `ok: ${out} (4 tools)\n`, stderr: "" });
    const again = await runPab(["generate", "--out", out, `${TOOLS}/email.openai-tools.json`]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /it already exists, and pab only creates new files/);
  } finally {
    await Deno.remove(out).catch(() => {});
  }
});
