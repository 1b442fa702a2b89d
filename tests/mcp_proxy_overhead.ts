/**
 * What a `pab mcp` proxy adds to a tools/call, by result size: the same call of the SDK-built test server's `big` tool
 * (a text result of 1 KB to 16 MB), straight to the server and through `cli.ts mcp` (the CLI sandbox plus --allow-run,
 * --max-message-bytes 64 MiB), from a raw JSON-RPC client (the SDK's own client stops at 10 MiB); beside it, what the
 * guard itself spends on the same result in process (propose: decide, record the result under its label).
 * Then 300 small allowed calls, for the per-call cost.
 *
 * Run: deno run -A tests/mcp_proxy_overhead.ts [--sizes 1024,1048576] [--runs 3]
 */
import { parseArgs } from "node:util";
import { modelView } from "../adapters/mcp/model_view.ts";
import { Guard } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { PAB_MCP_RUN, ROOT } from "./_mcp_pab.ts";

const { values } = parseArgs({ options: { sizes: { type: "string" }, runs: { type: "string" } } });
const SIZES = (values.sizes ?? "1024,16384,262144,1048576,4194304,8388608,16777216").split(",").map(Number);
const RUNS = Number(values.runs ?? 3);
const D = Deno.execPath();
const POLICY_TEXT =
  "version: 1\ntools:\n  tools/list: {output: trusted}\n  big: {output: untrusted, on_tainted: allow}\n" +
  "  get_contacts: {output: trusted, on_tainted: allow}\n  send_email: {output: trusted, on_tainted: allow, args: {to: {require: trusted}}}\n";
await Deno.mkdir("/tmp/pab", { recursive: true });
const policyFile = await Deno.makeTempFile({ dir: "/tmp/pab", suffix: ".yaml" });
await Deno.writeTextFile(policyFile, POLICY_TEXT);
const server = [D, "run", "-A", `--lock=${ROOT}tests/deno.lock`, "--frozen", `${ROOT}tests/_mcp_inbox_server.ts`];
const proxy = [
  D,
  ...PAB_MCP_RUN,
  "mcp",
  "--policy",
  policyFile,
  "--max-message-bytes",
  String(64 << 20),
  "--",
  ...server,
];

/** A raw newline-delimited JSON-RPC client of a child process. */
async function connect(command: string[]) {
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  })
    .spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let next = 0;
  const line = async (): Promise<Record<string, unknown>> => {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the server closed");
      const end = value.indexOf(10);
      if (end < 0) {
        parts.push(value);
        continue;
      }
      parts.push(value.subarray(0, end));
      const length = parts.reduce((sum, part) => sum + part.length, 0);
      const joined = new Uint8Array(length);
      let at = 0;
      for (const part of parts) joined.set(part, (at += part.length) - part.length);
      parts = end + 1 < value.length ? [value.subarray(end + 1)] : [];
      return JSON.parse(decoder.decode(joined));
    }
  };
  const call = async (method: string, params: unknown) => {
    const id = ++next;
    await writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"));
    while (true) {
      const message = await line();
      if (message.id === id) return message;
    }
  };
  await call("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  await writer.write(new TextEncoder().encode('{"jsonrpc":"2.0","method":"notifications/initialized"}\n'));
  return {
    call,
    close: async () => {
      await writer.close();
      await child.status;
    },
  };
}

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeCalls(command: string[], bytes: number): Promise<number> {
  const client = await connect(command);
  const times: number[] = [];
  await client.call("tools/call", { name: "big", arguments: { bytes: 16 } });
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    const answer = await client.call("tools/call", { name: "big", arguments: { bytes } });
    times.push(performance.now() - t0);
    const text = (answer.result as { content: { text: string }[] }).content[0].text;
    if (text.length !== bytes) throw new Error(`expected ${bytes} characters, got ${text.length}`);
  }
  await client.close();
  return median(times);
}

/** The guard's own work on the same result: decide, then record what the model sees under the tool's label. */
async function timeGuard(bytes: number): Promise<number> {
  const result = { content: [{ type: "text", text: "y".repeat(bytes) }] };
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const guard = new Guard(parsePolicy(POLICY_TEXT));
    const t0 = performance.now();
    await guard.propose("big", { bytes }, { accept: true, run: () => modelView(result).value });
    times.push(performance.now() - t0);
  }
  return median(times);
}

console.log("| result size | direct (ms) | through pab mcp (ms) | pab mcp adds (ms) | guard in process (ms) |");
console.log("| ---: | ---: | ---: | ---: | ---: |");
for (const bytes of SIZES) {
  const direct = await timeCalls(server, bytes);
  const through = await timeCalls(proxy, bytes);
  const guard = await timeGuard(bytes);
  const size = bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : `${bytes / 1024} KiB`;
  console.log(
    `| ${size} | ${direct.toFixed(1)} | ${through.toFixed(1)} | ${(through - direct).toFixed(1)} | ${
      guard.toFixed(1)
    } |`,
  );
}

const small = await connect(proxy);
await small.call("tools/call", { name: "get_contacts", arguments: {} });
const N = 300;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  await small.call("tools/call", { name: "send_email", arguments: { to: "alice@corp.example" } });
}
console.log(
  `\n${N} small allowed tools/call through pab mcp: ${((performance.now() - t0) / N).toFixed(2)} ms per call`,
);
await small.close();
await Deno.remove(policyFile);
