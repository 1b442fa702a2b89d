/**
 * `pab serve`, `pab hook` and `pab audit` refuse bad usage with exit 2 and a
 * message that says what to fix, before they start anything.
 */
import assert from "node:assert/strict";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";
import { runCli } from "../adapters/cli/shell/run_cli.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost, startServer } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { call, SERVE_POLICY_YAML, SESSION_TOKENS } from "./_serve_fixtures.ts";

async function pab(args: string[]): Promise<{ code: number; stderr: string }> {
  const memory = memoryIo({ files: { "p.yaml": SERVE_POLICY_YAML } });
  const code = await runCli(args, memory.io, { version: "t" });
  return { code, stderr: memory.stderr() };
}

Deno.test("pab serve refuses bad usage with exit 2", async () => {
  const cases: [string[], string][] = [
    [["serve"], 'error: missing --policy FILE\nRun "pab serve --help" for usage.\n'],
    [
      ["serve", "--policy", "p.yaml", "--port", "99999"],
      'error: option --port must be a whole number from 0 to 65535, not "99999"\nRun "pab serve --help" for usage.\n',
    ],
    [
      ["serve", "--policy", "p.yaml", "--port", "0", "--hostname", "0.0.0.0"],
      'error: Cannot serve on "0.0.0.0": other interfaces than localhost need --token\nRun "pab serve --help" for usage.\n',
    ],
    [
      ["serve", "--policy", "p.yaml", "--port", "0", "--token", "short"],
      'error: Cannot serve with this token: use at least 16 characters\nRun "pab serve --help" for usage.\n',
    ],
  ];
  for (const [args, stderr] of cases) assert.deepEqual(await pab(args), { code: 2, stderr }, args.join(" "));
});

Deno.test("pab hook and pab audit refuse bad usage with exit 2", async () => {
  assert.deepEqual(await pab(["hook"]), {
    code: 2,
    stderr: 'error: name the agent: pab hook claude-code\nRun "pab hook --help" for usage.\n',
  });
  assert.deepEqual(await pab(["hook", "cursor", "--policy", "p.yaml"]), {
    code: 2,
    stderr: 'error: unknown agent "cursor" (use claude-code)\nRun "pab hook --help" for usage.\n',
  });
  assert.deepEqual(await pab(["audit", "check", "x.jsonl"]), {
    code: 2,
    stderr:
      'error: unknown action "check" (use verify, show, export, keygen or checkpoint)\nRun "pab audit --help" for usage.\n',
  });
  assert.deepEqual(await pab(["audit", "verify"]), {
    code: 2,
    stderr: 'error: give either a FILE or --store\nRun "pab audit --help" for usage.\n',
  });
});

Deno.test("pab serve delete ends a session on a running server with its token, and refuses without one", async () => {
  const store = await openStore();
  const server = startServer(new SessionHost(parsePolicy(SERVE_POLICY_YAML, { source: "p.yaml" }), store), {
    version: "t",
    port: 0,
  });
  try {
    const id = String((await call(server.url, "/v1/sessions", {})).json.session);
    const run = async (args: string[]) => {
      const memory = memoryIo();
      const code = await runCli(["serve", "delete", ...args, "--url", server.url], memory.io, { version: "t" });
      return { code, stdout: memory.stdout(), stderr: memory.stderr() };
    };
    assert.deepEqual(await run([id]), {
      code: 2,
      stdout: "",
      stderr: 'error: missing --session-token T\nRun "pab serve delete --help" for usage.\n',
    });
    const wrong = await run([id, "--session-token", "pst_wrong"]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /403 .*ERR_SESSION_CREDENTIAL/);
    assert.deepEqual(await run([id, "--session-token", SESSION_TOKENS.get(id)!]), {
      code: 0,
      stdout: `deleted session ${id}\n`,
      stderr: "",
    });
    assert.equal((await call(server.url, `/v1/sessions/${id}/decide`, { tool: "refund", args: {} })).status, 404);
  } finally {
    await server.shutdown();
    store.close();
  }
});
