/**
 * How much a `pab mcp` proxy adds to a tools/call: the same 300 allowed calls, straight to the SDK-built test server
 * and through `cli.ts mcp` (with the CLI sandbox plus --allow-run). Run: deno run -A tests/mcp_proxy_overhead.ts
 */
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
const D = Deno.execPath();
const ROOT = new URL("../", import.meta.url).pathname;
await Deno.mkdir("/tmp/pab", { recursive: true });
await Deno.writeTextFile(
  "/tmp/pab/m.yaml",
  "version: 1\ntools:\n  get_contacts: {output: trusted, on_tainted: allow}\n  send_email: {output: trusted, on_tainted: allow, args: {to: {require: trusted}}}\n",
);
const server = [D, "run", "-A", `--lock=${ROOT}tests/deno.lock`, "--frozen", `${ROOT}tests/_mcp_inbox_server.ts`];
async function run(args: string[], label: string) {
  const t0 = performance.now();
  const c = new Client({ name: "m", version: "1" });
  await c.connect(new StdioClientTransport({ command: args[0], args: args.slice(1), stderr: "ignore" }));
  const t1 = performance.now();
  await c.callTool({ name: "get_contacts", arguments: {} });
  const N = 300;
  const t2 = performance.now();
  for (let i = 0; i < N; i++) await c.callTool({ name: "send_email", arguments: { to: "alice@corp.example" } });
  const t3 = performance.now();
  await c.close();
  console.log(
    `${label}: connect ${(t1 - t0).toFixed(0)} ms, ${N} tools/call: ${((t3 - t2) / N).toFixed(2)} ms per call`,
  );
}
await run(server, "direct");
await run([
  D,
  "run",
  `--lock=${ROOT}adapters/mcp/deno.lock`,
  "--frozen",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp/pab",
  "--allow-run",
  `${ROOT}cli.ts`,
  "mcp",
  "--policy",
  "/tmp/pab/m.yaml",
  "--",
  ...server,
], "pab mcp");
