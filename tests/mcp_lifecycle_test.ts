/**
 * `pab mcp` answers every request, however a session ends (issue 18, item 6):
 * a client that closes its input right after writing its requests still gets
 * every answer; a server that exits, crashes, closes its output, cuts its last
 * line, ignores SIGTERM, pages its tools in a circle or answers with what the
 * MCP SDK rejects never leaves a request waiting and never keeps pab running.
 * Driven over real stdio, against a scripted server that misbehaves on cue.
 */
import assert from "node:assert/strict";
import { PAB_MCP_RUN } from "./_mcp_pab.ts";

const DENO = Deno.execPath();
const POLICY = "version: 1\ntools:\n  tools/list: {output: trusted}\n  echo: {output: trusted, on_tainted: allow}\n";

/** A server that speaks MCP until its cue (the first argument) says how to misbehave. */
const SERVER = `
const cue = Deno.args[0];
const send = (m) => Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(m) + "\\n"));
const tools = [{ name: "echo", inputSchema: { type: "object" } }];
if (cue === "deaf") {
  Deno.writeTextFileSync(Deno.args[1], String(Deno.pid)); // for the test to stop it if pab does not
  Deno.addSignalListener("SIGTERM", () => {});
  setInterval(() => {}, 1000);
}
let pending = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  pending += chunk;
  for (let end; (end = pending.indexOf("\\n")) >= 0; pending = pending.slice(end + 1)) {
    const m = JSON.parse(pending.slice(0, end));
    const answer = (result) => send({ jsonrpc: "2.0", id: m.id, result });
    if (m.method === "initialize") {
      answer({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } });
    } else if (m.method === "tools/list") {
      answer(cue === "circle" ? { tools, nextCursor: "again" } : { tools });
    } else if (m.method === "tools/call") {
      if (cue === "crash") Deno.exit(1);
      if (cue === "cut") {
        Deno.stdout.writeSync(new TextEncoder().encode('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"cont'));
        Deno.exit(0);
      }
      if (cue === "array") { send({ jsonrpc: "2.0", id: m.id, result: ["not", "an", "object"] }); continue; }
      if (cue === "bloat") {
        // 2,000 bytes that are not UTF-8: read as U+FFFD, three bytes each, when pab writes the answer on.
        const head = new TextEncoder().encode('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"content":[{"type":"text","text":"');
        const tail = new TextEncoder().encode('"}]}}\\n');
        Deno.stdout.writeSync(new Uint8Array([...head, ...new Uint8Array(2000).fill(0xff), ...tail]));
        continue;
      }
      const text = "echo:" + m.params.arguments.text;
      setTimeout(() => answer({ content: [{ type: "text", text }] }), cue === "slow" ? 300 : 0);
    } else if (m.method === "hang") {
      // never answered
    } else if (m.id !== undefined) {
      answer({});
    }
  }
}
`;

/** A shell server that closes its output on a call and keeps running (Deno cannot close its own stdout). */
const MUTE_SERVER = String.raw`while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/^[^}]*"id":\([^,}]*\).*/\1/p')
  case "$line" in
    *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}\n' "$id";;
    *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}\n' "$id";;
    *'"tools/call"'*) exec >&-; exec sleep 60;;
  esac
done
`;

/** `pab mcp` in front of the scripted server: write lines, close the input, read every answer until pab exits. */
async function session(cue: string, options: readonly string[] = []) {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  await Deno.writeTextFile(`${dir}/p.yaml`, POLICY);
  await Deno.writeTextFile(`${dir}/server.js`, SERVER);
  await Deno.writeTextFile(`${dir}/server.sh`, MUTE_SERVER);
  const server = cue === "mute"
    ? ["sh", `${dir}/server.sh`]
    : [DENO, "run", `--allow-write=${dir}`, `${dir}/server.js`, cue, `${dir}/pid`];
  const child = new Deno.Command(DENO, {
    args: [...PAB_MCP_RUN, "mcp", "--policy", `${dir}/p.yaml`, ...options, "--", ...server],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const answers: Record<string, unknown>[] = [];
  const stdout = (async () => {
    let pending = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      for (let end; (end = pending.indexOf("\n")) >= 0; pending = pending.slice(end + 1)) {
        answers.push(JSON.parse(pending.slice(0, end)));
      }
    }
  })();
  const stderr = new Response(child.stderr).text();
  const write = (text: string | Uint8Array) =>
    writer.write(typeof text === "string" ? new TextEncoder().encode(text) : text).catch(() => {});
  const request = (id: number, method: string, params: unknown = {}) =>
    write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
  const call = (id: number, text: string) => request(id, "tools/call", { name: "echo", arguments: { text } });
  await request(0, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  });
  await write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  const answer = async (id: number) => {
    for (let i = 0; i < 400; i++) {
      const found = answers.find((m) => m.id === id);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no answer for id ${id}; stderr so far is not read yet`);
  };
  /** Wait for pab to exit (failing after 15 s, when it is killed), with everything it wrote. */
  const ended = async () => {
    await writer.close().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), 15_000));
    const status = await Promise.race([child.status, late]);
    clearTimeout(timer);
    if (status === "late") {
      child.kill("SIGKILL");
      // A server pab left running would hold the pipes open: stop it, so that the test ends.
      const pid = await Deno.readTextFile(`${dir}/pid`).catch(() => "");
      if (pid) Deno.kill(Number(pid), "SIGKILL");
    }
    await stdout;
    const log = await stderr;
    await Deno.remove(dir, { recursive: true });
    assert.notEqual(status, "late", `pab mcp did not exit; stderr: ${log}`);
    return { code: (status as Deno.CommandStatus).code, log };
  };
  return { write, request, call, answer, answers, ended };
}

const errorOf = (message: Record<string, unknown> | undefined) =>
  message?.error as { code: number; message: string; data?: { kind: string } } | undefined;

Deno.test("pab mcp answers every request a client wrote before closing its input, the last one without a newline", async () => {
  const s = await session("slow");
  await s.request(1, "tools/list");
  await s.call(2, "hi");
  await s.write(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }));
  const { code } = await s.ended();
  assert.equal(code, 0);
  assert.deepEqual(s.answers.map((m) => m.id).sort(), [0, 1, 2, 3]);
  const called = s.answers.find((m) => m.id === 2)!;
  assert.deepEqual(called.result, { content: [{ type: "text", text: "echo:hi" }] });
});

Deno.test("pab mcp answers a call the server crashed on with -32000, and exits", async () => {
  const s = await session("crash");
  await s.call(1, "hi");
  const answer = await s.answer(1);
  assert.equal(errorOf(answer)?.code, -32000);
  assert.equal(errorOf(answer)?.data?.kind, "server-closed");
  assert.match(errorOf(answer)!.message, /^pab mcp: the MCP server closed the connection .* restart the session$/);
  const { code, log } = await s.ended();
  assert.equal(code, 0);
  assert.match(log, /answered 1 waiting request\(s\) of the client/);
});

Deno.test("pab mcp ends the session when the server closes its output but keeps running, answering the call", async () => {
  const s = await session("mute");
  await s.call(1, "hi");
  assert.equal(errorOf(await s.answer(1))?.data?.kind, "server-closed");
  const { code } = await s.ended();
  assert.equal(code, 0);
});

Deno.test("pab mcp answers a call whose answer the server cut off when it exited, under the call's id", async () => {
  const s = await session("cut");
  await s.call(1, "hi");
  const answer = await s.answer(1);
  assert.equal(errorOf(answer)?.code, -32700);
  assert.match(errorOf(answer)!.message, /^pab mcp: the server answered with a line that is not a JSON-RPC message/);
  await s.ended();
});

Deno.test("pab mcp stops a server that ignores SIGTERM and its input's end, once the client has gone", async () => {
  const s = await session("deaf");
  await s.request(1, "ping");
  await s.answer(1);
  const { code } = await s.ended();
  assert.equal(code, 0);
});

Deno.test("pab mcp answers a result the MCP SDK would drop with -32600, and a tools/list in circles ends", async () => {
  const refused = await session("array");
  await refused.call(1, "hi");
  const answer = await refused.answer(1);
  assert.equal(errorOf(answer)?.code, -32600);
  assert.match(errorOf(answer)!.message, /the server answered with a line that is not a JSON-RPC message: .*result/);
  await refused.ended();
  const circle = await session("circle");
  await circle.call(1, "round");
  assert.deepEqual((await circle.answer(1)).result, { content: [{ type: "text", text: "echo:round" }] });
  const { log } = await circle.ended();
  assert.match(log, /gave the cursor "again" again: the listing ends there/);
});

Deno.test("pab mcp refuses a request under an id the client still waits on, and answers the first one", async () => {
  const s = await session("slow");
  await s.call(5, "first");
  await s.request(5, "ping");
  await s.call(5, "third");
  const { code } = await s.ended();
  assert.equal(code, 0);
  const answers = s.answers.filter((m) => m.id === 5);
  assert.equal(answers.length, 3);
  assert.deepEqual(answers.find((m) => "result" in m)?.result, { content: [{ type: "text", text: "echo:first" }] });
  const refused = answers.filter((m) => errorOf(m)?.code === -32600);
  assert.equal(refused.length, 2);
  assert.match(errorOf(refused[0])!.message, /^pab mcp: the id 5 is already used by a request of the client/);
});

Deno.test("pab mcp waits for no answer to a request the client cancelled before closing its input", async () => {
  const s = await session("plain");
  await s.request(1, "hang");
  await s.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } })}\n`);
  await s.request(2, "ping");
  const started = Date.now();
  const { code } = await s.ended();
  assert.equal(code, 0);
  assert.ok(Date.now() - started < 10_000, "pab waited for the cancelled request");
  assert.deepEqual(s.answers.map((m) => m.id).sort(), [0, 2]);
});

Deno.test("pab mcp never writes a line over the limit: what grows as it is written on is answered with -32600", async () => {
  const s = await session("bloat", ["--max-message-bytes", "4096"]);
  // Exactly at the limit as read: with its newline, one byte over as written (an SDK peer would drop it unanswered).
  const base = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "" } });
  await s.write(`${base.replace('"pad":""', `"pad":"${"x".repeat(4096 - base.length)}"`)}\n`);
  // 1,500 bytes that are not UTF-8 as read; three times as many as written.
  const head = new TextEncoder().encode('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"');
  await s.write(new Uint8Array([...head, ...new Uint8Array(1500).fill(0xff), ...new TextEncoder().encode('"}}\n')]));
  // The server's answer grows the same way on its way to the client.
  await s.call(3, "hi");
  await s.request(4, "ping");
  for (const id of [1, 2, 3]) {
    const error = errorOf(await s.answer(id));
    assert.equal(error?.code, -32600, `id ${id}`);
    assert.match(error!.message, /bytes as written, over the limit of 4096 bytes/);
  }
  assert.deepEqual((await s.answer(4)).result, {});
  const { code } = await s.ended();
  assert.equal(code, 0);
});
