/**
 * `pab mcp` over real stdio never stalls and never drops a line in silence
 * (issue 18 item 6, issue 19 item 7): a line that is not JSON-RPC gets the
 * spec's error and one readable line on stderr; a message over the limit, from
 * either side, gets a coded error to whoever waits for it; the session goes on.
 */
import assert from "node:assert/strict";
import { PAB_MCP_RUN, ROOT } from "./_mcp_pab.ts";

const DENO = Deno.execPath();
const INBOX = [DENO, "run", "-A", `--lock=${ROOT}tests/deno.lock`, "--frozen", `${ROOT}tests/_mcp_inbox_server.ts`];
const POLICY = "version: 1\ntools:\n  tools/list: {output: trusted}\n  big: {output: trusted, on_tainted: allow}\n";

/** A raw client of `pab mcp`: writes lines, reads answers by id. */
async function start(limit: number) {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const dir = await Deno.makeTempDir({ dir: "/tmp/pab" });
  await Deno.writeTextFile(`${dir}/p.yaml`, POLICY);
  const child = new Deno.Command(DENO, {
    args: [...PAB_MCP_RUN, "mcp", "--policy", `${dir}/p.yaml`, "--max-message-bytes", String(limit), "--", ...INBOX],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const answers: Record<string, unknown>[] = [];
  let stderr = "";
  void (async () => {
    let pending = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      let end;
      while ((end = pending.indexOf("\n")) >= 0) {
        answers.push(JSON.parse(pending.slice(0, end)));
        pending = pending.slice(end + 1);
      }
    }
  })();
  void (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  const send = (line: string) => writer.write(new TextEncoder().encode(`${line}\n`));
  const answer = async (id: unknown) => {
    for (let i = 0; i < 600; i++) {
      const found = answers.find((m) => m.id === id);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no answer for id ${JSON.stringify(id)}; stderr: ${stderr}`);
  };
  await send(JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  }));
  await answer(0);
  await send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return {
    send,
    answer,
    answers,
    stderr: () => stderr,
    close: async () => {
      await writer.close().catch(() => {});
      await child.status;
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const errorLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("pab mcp: the client sent"));

Deno.test("pab mcp answers a line that is not JSON with -32700 and a JSON-RPC mistake with -32600, one stderr line each", async () => {
  const proxy = await start(1 << 20);
  try {
    await proxy.send("{oops");
    const parse = await proxy.answer(null);
    assert.equal((parse.error as { code: number }).code, -32700);
    assert.match((parse.error as { message: string }).message, /^pab mcp: the line is not JSON/);
    await proxy.send('{"jsonrpc":"1.0","id":7,"method":"ping"}');
    const invalid = await proxy.answer(7);
    assert.equal((invalid.error as { code: number }).code, -32600);
    assert.match((invalid.error as { message: string }).message, /lacks "jsonrpc": "2\.0"/);
    // The session goes on.
    await proxy.send('{"jsonrpc":"2.0","id":8,"method":"tools/list"}');
    assert.ok(((await proxy.answer(8)).result as { tools: unknown[] }).tools.length > 5);
    const lines = errorLines(proxy.stderr());
    assert.equal(lines.length, 2, proxy.stderr());
    assert.match(
      lines[0],
      /^pab mcp: the client sent a line that is not a JSON-RPC message \(5 bytes\): the line is not JSON/,
    );
  } finally {
    await proxy.close();
  }
});

Deno.test("pab mcp answers a message over the limit from either side with a coded error, and goes on", async () => {
  const proxy = await start(1 << 20);
  try {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "big", arguments: { bytes: 1, pad: "z".repeat(2 << 20) } },
    });
    await proxy.send(huge);
    const tooBig = await proxy.answer(9);
    assert.equal((tooBig.error as { code: number }).code, -32600);
    assert.deepEqual((tooBig.error as { data: unknown }).data, { kind: "oversize" });
    assert.match((tooBig.error as { message: string }).message, /over the limit of 1048576 bytes/);
    // A result over the limit from the server: the client's call gets the error instead of waiting for ever.
    await proxy.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 10,
        method: "tools/call",
        params: { name: "big", arguments: { bytes: 2 << 20 } },
      }),
    );
    const result = await proxy.answer(10);
    assert.equal((result.error as { code: number }).code, -32600);
    assert.match((result.error as { message: string }).message, /over the limit/);
    await proxy.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 11,
        method: "tools/call",
        params: { name: "big", arguments: { bytes: 1000 } },
      }),
    );
    const small = await proxy.answer(11);
    assert.equal((small.result as { content: { text: string }[] }).content[0].text.length, 1000);
    assert.equal(errorLines(proxy.stderr()).length, 1);
    assert.equal(proxy.stderr().split("\n").filter((line) => line.startsWith("pab mcp: the server sent")).length, 1);
  } finally {
    await proxy.close();
  }
});
