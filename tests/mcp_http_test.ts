/**
 * `pab mcp --url` (issue 19): the compiled binary cannot start a server (no
 * `--allow-run`), so it reaches one that is already running on localhost over
 * Streamable HTTP. Here a server built with the SDK's own Streamable HTTP
 * transport runs in the test, `cli.ts mcp --url` runs with exactly the
 * compiled binary's flags (`deno task compile`'s), and the SDK's client lists
 * tools and calls them through it: decisions apply as over stdio. `pab mcp
 * config --url` prints an entry without `--allow-run` that runs as printed.
 */
import assert from "node:assert/strict";
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
import { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
import { inboxServer } from "./_mcp_inbox_server.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const DENO = Deno.execPath();
const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));

/** The flags `deno task compile` fixes in the binary: its lock, its permissions, its unstable features. */
function binaryFlags(): string[] {
  const words: string[] = config.tasks.compile.trim().split(/\s+/);
  return words.filter((word) => /^--(allow-|deny-|unstable-|lock=)|^--frozen$/.test(word))
    .map((word) => word.replace(/^--lock=(?!\/)/, `--lock=${ROOT}`));
}

/** `cli.ts ARGS` as the compiled binary would run it: its flags, no prompt, from `cwd`. */
function asBinary(args: readonly string[]): string[] {
  return ["run", "--no-prompt", `--config=${ROOT}deno.json`, ...binaryFlags(), `${ROOT}cli.ts`, ...args];
}

const POLICY = `version: 1
tools:
  tools/list: {output: trusted}
  read_inbox: {output: untrusted, on_tainted: allow}
  get_contacts: {output: trusted, on_tainted: allow}
  sent: {output: trusted, on_tainted: allow}
  big: {output: trusted, on_tainted: allow}
  send_email:
    output: trusted
    on_tainted: allow
    args:
      to: {require: trusted, on_violation: block}
`;

/** The inbox server over Streamable HTTP on localhost, one session, until `close`. */
function serveInbox(): { url: string; close(): Promise<void> } {
  const server = inboxServer();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
  const connected = server.connect(transport);
  const http = Deno.serve(
    { hostname: "localhost", port: 0, onListen: () => {} },
    async (request) => {
      await connected;
      return new URL(request.url).pathname === "/mcp"
        ? await transport.handleRequest(request)
        : new Response("not found", { status: 404 });
    },
  );
  return {
    url: `http://localhost:${http.addr.port}/mcp`,
    close: async () => {
      await server.close();
      await http.shutdown();
    },
  };
}

async function withPolicy<T>(run: (policy: string) => Promise<T>): Promise<T> {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  try {
    await Deno.writeTextFile(`${dir}/policy.yaml`, POLICY);
    return await run(`${dir}/policy.yaml`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function connect(command: string, args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command, args, cwd: "/", stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "host", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

function textOf(result: unknown): string {
  return (result as { content: { text?: string }[] }).content.map((item) => item.text ?? "").join("\n");
}

Deno.test("pab mcp --url, run with the binary's flags, guards a Streamable HTTP server as it guards a child", async () => {
  const inbox = serveInbox();
  try {
    await withPolicy(async (policy) => {
      const { client, stderr } = await connect(DENO, asBinary(["mcp", "--policy", policy, "--url", inbox.url]));
      try {
        const names = (await client.listTools()).tools.map((tool: { name: string }) => tool.name);
        assert.ok(
          ["read_inbox", "get_contacts", "send_email", "sent"].every((name) => names.includes(name)),
          names.join(),
        );
        assert.match(textOf(await client.callTool({ name: "read_inbox", arguments: {} })), /eve@attacker\.example/);
        const hijacked = await client.callTool({ name: "send_email", arguments: { to: "eve@attacker.example" } });
        assert.equal(hijacked.isError, true);
        assert.match(textOf(hijacked), /^pab denied this call: send_email: block/);
        assert.match(textOf(hijacked), /tool:read_inbox/);
        assert.match(textOf(await client.callTool({ name: "get_contacts", arguments: {} })), /alice@corp\.example/);
        const trusted = await client.callTool({ name: "send_email", arguments: { to: "alice@corp.example" } });
        assert.equal(trusted.isError, undefined, textOf(trusted));
        assert.equal(textOf(trusted), "sent to alice@corp.example");
        // Only the allowed call reached the server.
        assert.equal(textOf(await client.callTool({ name: "sent", arguments: {} })), '["email:alice@corp.example"]');
      } finally {
        await client.close();
      }
      assert.doesNotMatch(stderr(), /error|cannot/i, stderr());
    });
  } finally {
    await inbox.close();
  }
});

Deno.test("pab mcp --url cuts an answer over --max-message-bytes, answers the call, and keeps the session", async () => {
  const inbox = serveInbox();
  try {
    await withPolicy(async (policy) => {
      const flags = ["mcp", "--policy", policy, "--url", inbox.url, "--max-message-bytes", "4096"];
      const { client, stderr } = await connect(DENO, asBinary(flags));
      try {
        const small = await client.callTool({ name: "big", arguments: { bytes: 100 } });
        assert.equal(textOf(small), "y".repeat(100));
        const cut = await client.callTool({ name: "big", arguments: { bytes: 10_000 } }).then(
          (result: unknown) => JSON.stringify(result),
          (error: Error) => error.message,
        );
        assert.match(cut, /the server's answer is larger than --max-message-bytes \(4096 bytes\)/);
        assert.doesNotMatch(cut, /y{4096}/, "no part of the cut answer reaches the client");
        assert.equal(textOf(await client.callTool({ name: "big", arguments: { bytes: 200 } })), "y".repeat(200));
      } finally {
        await client.close();
      }
      assert.doesNotMatch(stderr(), /dropped a response/, stderr());
    });
  } finally {
    await inbox.close();
  }
});

Deno.test("pab mcp --url answers with an error naming the URL when no server listens there", async () => {
  const listener = Deno.listen({ hostname: "localhost", port: 0 });
  const url = `http://localhost:${(listener.addr as Deno.NetAddr).port}/mcp`;
  listener.close();
  await withPolicy(async (policy) => {
    const started = connect(DENO, asBinary(["mcp", "--policy", policy, "--url", url]));
    await assert.rejects(started, (error: Error) => {
      assert.match(error.message, new RegExp(`pab mcp: cannot reach the MCP server at ${url}: .*\\(start the server`));
      return true;
    });
  });
});

Deno.test("pab mcp --url answers with the server's HTTP status when it refuses a request", async () => {
  const inbox = serveInbox();
  try {
    await withPolicy(async (policy) => {
      const wrong = inbox.url.replace(/\/mcp$/, "/nope");
      await assert.rejects(connect(DENO, asBinary(["mcp", "--policy", policy, "--url", wrong])), (error: Error) => {
        assert.match(
          error.message,
          new RegExp(`pab mcp: the MCP server at ${wrong} answered HTTP 404: .*\\(check --url`),
        );
        return true;
      });
    });
  } finally {
    await inbox.close();
  }
});

Deno.test("with the binary's flags, pab mcp refuses to start a server, and refuses a host it cannot reach, naming --url", async () => {
  await withPolicy(async (policy) => {
    const cases: Array<[string[], RegExp]> = [
      [
        ["mcp", "--policy", policy, "--", DENO, "--version"],
        /^error: Cannot start MCP server "[^"]+": pab mcp needs --allow-run, .* pass --url http:\/\/localhost:PORT\/mcp/,
      ],
      [
        ["mcp", "--policy", policy, "--url", "http://127.0.0.1:1/mcp"],
        /^error: Cannot reach the MCP server at http:\/\/127\.0\.0\.1:1\/mcp: .*name the host localhost/,
      ],
      [
        ["mcp", "--policy", policy, "--url", "http://example.com/mcp"],
        /^error: Cannot reach the MCP server at http:\/\/example\.com\/mcp: pab's sandbox grants the network for localhost only/,
      ],
      [
        ["mcp", "config", "--policy", policy, "--url", "ftp://localhost/mcp"],
        /^error: --url needs an http: or https: URL/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const output = await new Deno.Command(DENO, { args: asBinary(args), stdout: "piped", stderr: "piped" }).output();
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 2, stderr);
      assert.match(stderr, pattern);
      assert.equal(output.stdout.length, 0, "nothing on stdout: it belongs to the MCP client");
    }
  });
});

Deno.test("pab mcp config --url prints an entry without --allow-run, and the entry run as printed relays", async () => {
  const inbox = serveInbox();
  try {
    await withPolicy(async (policy) => {
      const printed = await new Deno.Command(DENO, {
        args: asBinary([
          "mcp",
          "config",
          "--host",
          "cursor",
          "--name",
          "inbox",
          "--policy",
          policy,
          "--url",
          inbox.url,
        ]),
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(printed.code, 0, new TextDecoder().decode(printed.stderr));
      const { command, args } = JSON.parse(new TextDecoder().decode(printed.stdout)).mcpServers.inbox;
      assert.ok(!args.some((arg: string) => arg.startsWith("--allow-run")), args.join(" "));
      // Every permission the entry grants, the binary has.
      const granted = args.filter((arg: string) => arg.startsWith("--allow-"));
      assert.deepEqual(granted.filter((flag: string) => !binaryFlags().includes(flag)), []);
      assert.deepEqual(args.slice(-2), [`--policy=${policy}`, `--url=${inbox.url}`]);
      const { client } = await connect(command, args);
      try {
        const called = await client.callTool({ name: "get_contacts", arguments: {} });
        assert.match(textOf(called), /alice@corp\.example/);
      } finally {
        await client.close();
      }
    });
  } finally {
    await inbox.close();
  }
});

Deno.test("pab mcp config from a binary refuses an entry its sandbox cannot run, and prints one for --url", async () => {
  // The config command cannot be compiled here: its check runs under the binary's flags, given a binary install.
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  try {
    const script = `${dir}/check.ts`;
    await Deno.writeTextFile(
      script,
      `import { requireRunnableEntry } from "${ROOT}adapters/cli/mcp/mcp_config_command.ts";
const binary = { kind: "binary", path: "/usr/local/bin/pab" } as const;
for (const entry of [{ server: ["npx"] }, { server: [], url: new URL("http://localhost:3000/mcp") }, { server: [], url: new URL("http://127.0.0.1:3000/mcp") }]) {
  try {
    requireRunnableEntry(binary, entry);
    console.log("ok");
  } catch (error) {
    console.log(\`\${(error as { code: string }).code}: \${(error as Error).message}\`);
  }
}
`,
    );
    const output = await new Deno.Command(DENO, { args: asBinary([]).slice(0, -1).concat(script), stdout: "piped" })
      .output();
    const [child, local, address] = new TextDecoder().decode(output.stdout).trim().split("\n");
    assert.match(child, /^ERR_CLI_PERMISSION: Cannot print an entry that starts "npx": this pab is a compiled binary/);
    assert.match(child, /pass --url http:\/\/localhost:PORT\/mcp/);
    assert.equal(local, "ok");
    assert.match(address, /^ERR_CLI_PERMISSION: Cannot reach the MCP server at http:\/\/127\.0\.0\.1:3000\/mcp/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab mcp --url under deno.lock (deno task pab) exits 2 with ERR_CLI_DEPENDENCY naming adapters/mcp/deno.lock", async () => {
  await withPolicy(async (policy) => {
    const output = await new Deno.Command(DENO, {
      args: [
        ...config.tasks.pab.split(/\s+/).slice(1, -1),
        "--no-prompt",
        `${ROOT}cli.ts`,
        "mcp",
        "--policy",
        policy,
        "--url",
        "http://localhost:1/mcp",
      ],
      cwd: ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 2, stderr);
    assert.equal(output.stdout.length, 0);
    assert.match(
      stderr,
      /^error: Cannot load the MCP SDK for pab mcp --url: the lock file it runs under does not pin it /,
    );
    assert.match(
      stderr,
      /run --lock=adapters\/mcp\/deno\.lock --allow-read --allow-write=\/tmp\/pab cli\.ts mcp --policy FILE --url URL\)/,
    );
  });
});
