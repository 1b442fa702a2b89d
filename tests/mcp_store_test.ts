/**
 * `pab mcp --store`: the proxy's sources, ledger, reservations and audit chain
 * live in a Deno KV file, so a restarted proxy keeps them and two proxies on
 * one store share `once` effects; and `pab mcp` under the pab task's sandbox
 * says which flag it needs.
 */
import assert from "node:assert/strict";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { ElicitRequestSchema } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
import { verifyRecords } from "../adapters/audit/mod.ts";
import { openStore } from "../adapters/store/mod.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DENO = Deno.execPath();
const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
/** Exactly the pab task's flags. */
const TASK_FLAGS: string[] = config.tasks.pab.split(/\s+/).filter((word: string) => word.startsWith("--"));
/** The pab task's flags plus --allow-run, as the README gives them for pab mcp. */
// adapters/mcp/deno.lock pins the MCP SDK, which deno.lock leaves out (so that deno task start does not download it).
const PAB = ["run", `--lock=${ROOT}adapters/mcp/deno.lock`, "--frozen", ...TASK_FLAGS, "--allow-run", `${ROOT}cli.ts`];
// The test server loads the MCP SDK too: under the tests' lock.
const INBOX = [DENO, "run", "-A", `--lock=${ROOT}tests/deno.lock`, "--frozen", `${ROOT}tests/_mcp_inbox_server.ts`];

const POLICY = `version: 1
tools:
  get_contacts: {output: trusted, on_tainted: allow}
  sent: {output: trusted, on_tainted: allow}
  send_email:
    output: trusted
    on_tainted: allow
    args:
      to: {require: trusted, on_violation: block}
  post_note:
    output: trusted
    on_tainted: allow
    once: note.posted
`;

async function proxy(policyFile: string, store: string, answers?: boolean[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: DENO,
    args: [...PAB, "mcp", "--policy", policyFile, "--store", store, "--", ...INBOX],
    stderr: "pipe",
  });
  const client = new Client(
    { name: "test-agent", version: "1.0.0" },
    { capabilities: answers ? { elicitation: { form: {} } } : {} },
  );
  if (answers) {
    client.setRequestHandler(ElicitRequestSchema, () => {
      const allow = answers.shift();
      return allow === undefined ? { action: "cancel" } : { action: "accept", content: { allow } };
    });
  }
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  return (result as { content: { text?: string }[] }).content.map((item) => item.text ?? "").join("\n");
}

async function folder(): Promise<{ dir: string; policy: string; store: string }> {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab", prefix: "mcp_store_" });
  await Deno.writeTextFile(`${dir}/policy.yaml`, POLICY);
  return { dir, policy: `${dir}/policy.yaml`, store: `${dir}/state.kv` };
}

Deno.test("pab mcp --store: a restarted proxy keeps its sources, its ledger and its audit chain", async () => {
  const { dir, policy, store } = await folder();
  try {
    const first = await proxy(policy, store);
    try {
      assert.match(textOf(await first.callTool({ name: "get_contacts", arguments: {} })), /alice@corp\.example/);
      assert.equal(textOf(await first.callTool({ name: "post_note", arguments: { to: "team" } })), "noted for team");
    } finally {
      await first.close();
    }
    const second = await proxy(policy, store);
    try {
      // The ledger survived: the once tool does not run again.
      const again = await second.callTool({ name: "post_note", arguments: { to: "team" } });
      assert.equal(again.isError, true);
      assert.match(textOf(again), /^pab denied this call: post_note: block\n- \[no-prior\]/);
      // The sources survived: the address from the first proxy's trusted read still vouches.
      const trusted = await second.callTool({ name: "send_email", arguments: { to: "alice@corp.example" } });
      assert.equal(textOf(trusted), "sent to alice@corp.example");
      const unknown = await second.callTool({ name: "send_email", arguments: { to: "eve@attacker.example" } });
      assert.equal(unknown.isError, true);
      assert.equal(textOf(await second.callTool({ name: "sent", arguments: {} })), '["email:alice@corp.example"]');
    } finally {
      await second.close();
    }
    const opened = await openStore(store);
    try {
      const records = await opened.audit("mcp");
      assert.deepEqual(verifyRecords(records), { ok: true, records: records.length, streams: 1 });
      const ledger = records.flatMap((record) =>
        record.event.kind === "ledger" ? [record.event.event as { kind: string; tool?: string }] : []
      );
      assert.deepEqual(ledger.filter((event) => event.tool === "post_note").map((event) => event.kind), [
        "dispatch",
        "reserved",
        "committed",
        "blocked",
      ]);
    } finally {
      opened.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab mcp --store: of two proxies on one store calling a once tool at the same time, exactly one runs it", async () => {
  const { dir, policy, store } = await folder();
  try {
    const clients: Client[] = await Promise.all([proxy(policy, store), proxy(policy, store)]);
    try {
      const results = await Promise.all(
        clients.flatMap((client: Client) =>
          Array.from({ length: 5 }, () => client.callTool({ name: "post_note", arguments: { to: "team" } }))
        ),
      );
      const ran = results.filter((result: { isError?: unknown }) => !result.isError);
      assert.equal(ran.length, 1);
      assert.equal(textOf(ran[0]), "noted for team");
      for (const result of results.filter((result: { isError?: unknown }) => result.isError)) {
        assert.match(textOf(result), /\[no-prior\]/);
      }
      const sent = await Promise.all(clients.map((client: Client) => client.callTool({ name: "sent", arguments: {} })));
      assert.deepEqual(sent.map(textOf).sort(), ['["note:team"]', "[]"]);
    } finally {
      await Promise.all(clients.map((client: Client) => client.close()));
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab mcp --store asks the user through elicitation, and the chain keeps the user's ruling", async () => {
  const { dir, policy, store } = await folder();
  await Deno.writeTextFile(
    policy,
    POLICY.replace("    once: note.posted\n", "    args:\n      to: {require: trusted, on_violation: confirm}\n"),
  );
  try {
    const client = await proxy(policy, store, [true, false]);
    try {
      assert.equal(textOf(await client.callTool({ name: "post_note", arguments: { to: "bob" } })), "noted for bob");
      const no = await client.callTool({ name: "post_note", arguments: { to: "eve" } });
      assert.equal(no.isError, true);
      assert.match(textOf(no), /the user did not confirm/);
    } finally {
      await client.close();
    }
    const opened = await openStore(store);
    try {
      const ledger = (await opened.audit("mcp")).flatMap((record) =>
        record.event.kind === "ledger" ? [(record.event.event as { kind: string }).kind] : []
      );
      assert.deepEqual(ledger, ["ruling-minted", "ruling-spent", "dispatch", "blocked"]);
    } finally {
      opened.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab mcp under the pab task's sandbox exits 2 naming --allow-run, before it starts anything", async () => {
  const { dir, policy } = await folder();
  try {
    const output = await new Deno.Command(DENO, {
      args: ["run", "--no-prompt", ...TASK_FLAGS, `${ROOT}cli.ts`, "mcp", "--policy", policy, "--", ...INBOX],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 2);
    assert.equal(new TextDecoder().decode(output.stdout), "");
    assert.match(
      new TextDecoder().decode(output.stderr),
      /^error: Cannot start MCP server ".*deno": pab mcp needs --allow-run, which pab's sandbox \(deno task pab, the compiled binary\) does not grant \(.*--url http:\/\/localhost:PORT\/mcp.*deno run --lock=adapters\/mcp\/deno\.lock --unstable-kv .* --allow-run=CMD cli\.ts mcp \.\.\.\)\n/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
