/**
 * A drafted policy behind `pab mcp`, in front of the published
 * `@modelcontextprotocol/server-filesystem`, driven by the official SDK's
 * client with elicitation (issue 16, class 4): every legitimate write of a
 * scripted session reaches yes, and a write the user declines never runs and
 * is recorded as declined.
 *
 * The test holds to the generator's contract, not to its text: the policy is
 * whatever `pab generate` drafts from the recorded tools list, and each write
 * may be asked about (once) but must never be a dead end.
 */
import assert from "node:assert/strict";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { ElicitRequestSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { openStore } from "../adapters/store/mod.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DENO = Deno.execPath();
const CLI = ["run", `--lock=${ROOT}adapters/mcp/deno.lock`, "--frozen", "--unstable-kv", "--allow-net=localhost"];
const PAB = [...CLI, "--allow-read", "--allow-write=/tmp/pab", "--allow-run", `${ROOT}cli.ts`];
const TOOLS = `${ROOT}traces/examples/tools/mcp-server-filesystem.tools.json`;

/** The draft `pab generate` writes from the recorded tools list, unedited. */
async function draft(dir: string): Promise<string> {
  const out = `${dir}/draft.yaml`;
  const { code, stderr } = await new Deno.Command(DENO, {
    args: [...PAB, "generate", TOOLS, "--out", out],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return out;
}

interface Run {
  readonly client: Client;
  readonly asked: string[];
  readonly stderr: () => string;
  close(): Promise<void>;
}

/** `pab mcp` with the draft in front of the filesystem server; the user refuses every question about `refuse`. */
async function session(dir: string, policy: string, refuse: string, flags: string[] = []): Promise<Run> {
  const server = [DENO, "run", "-A", `--lock=${ROOT}tests/deno.lock`, "--frozen"];
  const transport = new StdioClientTransport({
    command: DENO,
    args: [
      ...PAB,
      "mcp",
      "--policy",
      policy,
      ...flags,
      "--",
      ...server,
      "npm:@modelcontextprotocol/server-filesystem@2026.8.31",
      `${dir}/files`,
    ],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "desktop", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request: { params: { message: string } }) => {
    asked.push(request.params.message);
    return { action: "accept", content: { allow: !request.params.message.includes(refuse) } };
  });
  await client.connect(transport);
  return { client, asked, stderr: () => stderr, close: () => client.close() };
}

function textOf(result: unknown): string {
  return (result as { content: { text?: string }[] }).content.map((item) => item.text ?? "").join("\n");
}

/** The scripted session: list, write, read, edit, make a folder, move; then a write the user refuses. */
async function script(run: Run, files: string): Promise<void> {
  const call = async (name: string, args: Record<string, unknown>) => {
    const asked = run.asked.length;
    const result = await run.client.callTool({ name, arguments: args });
    return { result, questions: run.asked.length - asked, text: textOf(result) };
  };
  const names = (await run.client.listTools()).tools.map((tool: { name: string }) => tool.name);
  assert.ok(names.includes("write_file") && names.includes("move_file"));
  assert.match((await call("list_allowed_directories", {})).text, new RegExp(files));
  const writes: Array<[string, Record<string, unknown>]> = [
    ["write_file", { path: `${files}/notes.txt`, content: "hello" }],
    ["edit_file", { path: `${files}/notes.txt`, edits: [{ oldText: "hello", newText: "hello world" }] }],
    ["create_directory", { path: `${files}/archive` }],
    ["move_file", { source: `${files}/notes.txt`, destination: `${files}/archive/notes.txt` }],
  ];
  for (const [index, [name, args]] of writes.entries()) {
    const done = await call(name, args);
    assert.notEqual(done.result.isError, true, `${name}: ${done.text}\n${run.stderr()}`);
    assert.ok(done.questions <= 1, `${name} asked ${done.questions} questions`);
    if (index === 0) assert.equal((await call("read_text_file", { path: `${files}/notes.txt` })).text, "hello");
  }
  assert.equal(await Deno.readTextFile(`${files}/archive/notes.txt`), "hello world");
  // The user refuses this one: it never reaches the server.
  const refused = await call("write_file", { path: `${files}/secret.txt`, content: "x" });
  assert.equal(refused.result.isError, true);
  assert.match(refused.text, /^pab denied this call: write_file: (block|confirm)/);
  await assert.rejects(Deno.stat(`${files}/secret.txt`), Deno.errors.NotFound);
}

Deno.test("pab generate + pab mcp in front of server-filesystem: every legitimate write reaches yes through elicitation", async () => {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  await Deno.mkdir(`${dir}/files`);
  const run = await session(dir, await draft(dir), "secret.txt");
  try {
    await script(run, `${dir}/files`);
    // The proxy's stderr arrives on its own stream: wait (bounded) for the line.
    for (let tries = 0; tries < 50 && !/pab mcp: the user declined write_file/.test(run.stderr()); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.match(run.stderr(), /pab mcp: the user declined write_file/);
  } finally {
    await run.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab mcp --request: the user's own words vouch for the paths, and a refused write is audited as declined", async () => {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  await Deno.mkdir(`${dir}/files`);
  const files = `${dir}/files`;
  const request = `Write hello to ${files}/notes.txt, make it say hello world, then file it under ${files}/archive ` +
    `as ${files}/archive/notes.txt.`;
  await Deno.writeTextFile(`${dir}/request.txt`, request);
  const store = `${dir}/audit.kv`;
  const run = await session(dir, await draft(dir), "secret.txt", [
    "--request-file",
    `${dir}/request.txt`,
    "--store",
    store,
  ]);
  try {
    await script(run, files);
    // The request gave every legitimate path, so the only question is about the path it did not give.
    assert.equal(run.asked.length, 1, run.asked.join("\n---\n"));
    assert.match(run.asked[0], /secret\.txt/);
  } finally {
    await run.close();
  }
  const opened = await openStore(store);
  try {
    const records = await opened.audit("mcp");
    const declined = records.filter((record) => JSON.stringify(record).includes('"user-declined"'));
    assert.equal(declined.length, 1);
    assert.match(JSON.stringify(declined[0]), /secret\.txt/);
  } finally {
    opened.close();
    await Deno.remove(dir, { recursive: true });
  }
});
