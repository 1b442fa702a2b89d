// deno-lint-ignore-file no-control-regex
/**
 * The CLI's conventions, for every command: standard input, folders and globs,
 * --quiet, strict UTF-8, --max-bytes, escaped control characters, "did you
 * mean", a closed pipe, and writes that never follow a planted link.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { createFileExclusively } from "../adapters/cli/io/create_file.ts";
import { escapeControl, memoryIo, type MemoryIoOptions, runCli } from "../adapters/cli/mod.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const POLICY = "traces/examples/demo.policy.yaml";
const OPENAI = "traces/examples/hijack.openai.json";
const PAB = "traces/examples/hijack.pab.jsonl";
const PAB_TASK_FLAGS = [
  "--unstable-kv",
  "--allow-net=localhost",
  "--allow-read",
  "--allow-write=/tmp/pab",
  "--allow-env=DENO_KV_ACCESS_TOKEN",
];

async function examples(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of [POLICY, OPENAI, PAB]) files[path] = await Deno.readTextFile(`${ROOT}${path}`);
  return files;
}

async function pab(args: string[], options: MemoryIoOptions = {}) {
  const memory = memoryIo({ ...options, files: { ...(await examples()), ...options.files } });
  const code = await runCli(args, memory.io, { version: "0.0.0-test" });
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

/** Plant a symbolic link as another process would (Deno.symlink needs unscoped permissions the test task does not grant). */
async function plantSymlink(target: string, link: string): Promise<void> {
  const output = await new Deno.Command("ln", { args: ["-s", target, link], stderr: "piped" }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
}

async function runPab(args: string[], stdin?: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...PAB_TASK_FLAGS, "cli.ts", ...args],
    cwd: ROOT,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const text = new TextDecoder();
  return { code: output.code, stdout: text.decode(output.stdout), stderr: text.decode(output.stderr) };
}

const TRACE_HEADER = '{"pab":"trace","schemaVersion":1,"id":"t"}\n';
const SMALL_POLICY =
  "version: 1\ntools:\n  read_inbox: {output: untrusted}\n  send_email: {args: {to: {require: trusted}}}\n";

Deno.test("pab check reads a trace and a policy from standard input as - and /dev/stdin", async () => {
  const trace = (await examples())[PAB];
  const fromDash = await pab(["check", "--policy", POLICY, "-"], { stdin: trace });
  const fromFile = await pab(["check", "--policy", POLICY, PAB]);
  assert.equal(fromDash.code, 1);
  assert.equal(fromDash.stdout, fromFile.stdout);
  const devStdin = await pab(["check", "--policy", POLICY, "/dev/stdin"], { stdin: trace });
  assert.equal(devStdin.stdout, fromFile.stdout);
  const policy = await pab(["check", "--policy", "-", PAB], { stdin: (await examples())[POLICY] });
  assert.equal(policy.stdout, fromFile.stdout);
  const both = await pab(["check", "--policy", "-", "-"], { stdin: trace });
  assert.equal(both.code, 2);
  assert.match(both.stderr, /^error: the policy and a trace cannot both come from standard input\n/);
});

Deno.test("pab check reads standard input for real under the pab task's flags", async () => {
  const result = await runPab(["check", "--policy", POLICY, "/dev/stdin"], (await examples())[PAB]);
  assert.equal(result.stderr, "");
  assert.equal(result.code, 1);
  assert.match(result.stdout, /^ALLOW {3}hijack#call_read_inbox read_inbox\(\)\n/);
});

Deno.test("pab check reads every trace in a folder, recursively, and expands quoted globs", async () => {
  const files = {
    "runs/a.jsonl": `${TRACE_HEADER}{"type":"call","id":"c1","tool":"read_inbox","args":{}}\n`,
    "runs/deeper/b.jsonl": `${
      TRACE_HEADER.replace('"t"', '"b"')
    }{"type":"call","id":"c2","tool":"read_inbox","args":{}}\n`,
    "runs/notes.txt": "not a trace",
    "p.yaml": SMALL_POLICY,
  };
  const folder = await pab(["check", "-p", "p.yaml", "runs"], { files });
  assert.deepEqual(folder, {
    code: 0,
    stdout: "ALLOW   t#c1 read_inbox()\nALLOW   b#c2 read_inbox()\n2 calls in 2 traces: 2 allowed\n",
    stderr: "",
  });
  const glob = await pab(["check", "-p", "p.yaml", "runs/**/b.jsonl"], { files });
  assert.equal(glob.stdout, "ALLOW   b#c2 read_inbox()\n1 call in 1 trace: 1 allowed\n");
  const none = await pab(["check", "-p", "p.yaml", "runs/*.json"], { files });
  assert.equal(none.code, 2);
  assert.equal(none.stderr, 'error: Cannot read traces "runs/*.json": no file matches the pattern\n');
  const lint = await pab(["lint", "."], { files: { "./p.yaml": SMALL_POLICY, "./q.yml": SMALL_POLICY } });
  assert.equal(lint.stdout, "ok: ./p.yaml (2 tools)\nok: ./q.yml (2 tools)\n");
});

Deno.test("--quiet prints nothing on stdout and keeps the exit code and the errors", async () => {
  const blocked = await pab(["check", "--quiet", "--policy", POLICY, OPENAI]);
  assert.deepEqual(blocked, { code: 1, stdout: "", stderr: "" });
  const lint = await pab(["lint", "-q", POLICY]);
  assert.deepEqual(lint, { code: 0, stdout: "", stderr: "" });
  const missing = await pab(["check", "-q", "--policy", POLICY, "gone.jsonl"]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^error: Cannot read trace "gone\.jsonl": no such file/);
});

Deno.test("control characters in ids, tools and arguments are escaped in the text report", async () => {
  const evil = {
    "t.jsonl": TRACE_HEADER +
      JSON.stringify({
        type: "call",
        id: "c1\nALLOW   t#c9 send_email(to='boss@corp.example')",
        tool: "read_inbox",
        args: {},
      }) + "\n" +
      JSON.stringify({
        type: "call",
        id: "c2",
        tool: "send_email\x1b[2K\r",
        args: { "to\n": "\x1b[32mALLOW\x1b[0m\u2028x" },
      }) +
      "\n",
    "p.yaml": SMALL_POLICY,
  };
  const result = await pab(["check", "-p", "p.yaml", "t.jsonl"], { files: evil });
  for (const line of result.stdout.split("\n")) {
    assert.doesNotMatch(line, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/, line);
  }
  const decisions = result.stdout.split("\n").filter((line) => /^(ALLOW|BLOCK|CONFIRM)/.test(line));
  assert.equal(decisions.length, 2, result.stdout);
  assert.match(decisions[0], /^ALLOW {3}t#c1\\nALLOW {3}t#c9 /);
  assert.ok(
    decisions[1].includes("send_email\\u{1b}[2K\\r(to\\n='\\u{1b}[32mALLOW\\u{1b}[0m\\u{2028}x')"),
    decisions[1],
  );
});

Deno.test("escapeControl() leaves no character that can end a line or steer a terminal", () => {
  fc.assert(fc.property(fc.string({ unit: "binary" }), (text) => {
    const escaped = escapeControl(text);
    assert.doesNotMatch(escaped, /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    assert.equal(escapeControl(escaped), escaped.replace(/[\u200e\u200f\u061c]/g, (c) => escapeControl(c)));
  }));
});

Deno.test("a binary or non-UTF-8 trace is refused with a coded error that echoes no bytes", async () => {
  const binary = new Uint8Array([0x7b, 0x22, 0x70, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x00]);
  const result = await pab(["check", "-p", POLICY, "b.jsonl"], { binaryFiles: { "b.jsonl": binary } });
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    'error: Cannot read trace "b.jsonl": it is not valid UTF-8 text (the first bad byte is near offset 3; ' +
      "save it as UTF-8, or check that it is a trace and not a binary file)\n",
  );
  const policy = await pab(["lint", "p.yaml"], { binaryFiles: { "p.yaml": new Uint8Array([0x76, 0xc3, 0x28]) } });
  assert.equal(policy.code, 2);
  assert.match(
    policy.stderr,
    /^error: Cannot read policy "p\.yaml": it is not valid UTF-8 text \(the first bad byte is near offset 1;/,
  );
});

Deno.test("--max-bytes refuses a larger input with a coded error", async () => {
  const result = await pab(["check", "-p", POLICY, "--max-bytes", "100", PAB]);
  assert.equal(result.code, 2);
  assert.equal(
    result.stderr,
    `error: Cannot read policy "${POLICY}": it is larger than --max-bytes 100 (raise --max-bytes, or split the policy)\n`,
  );
  const bad = await pab(["check", "-p", POLICY, "--max-bytes", "lots", PAB]);
  assert.match(bad.stderr, /^error: option --max-bytes needs a whole number, got "lots"\n/);
});

Deno.test("did you mean: for pab's options, a command's options and a tool name in a trace", async () => {
  const version = await pab(["--versio"]);
  assert.equal(version.code, 2);
  assert.match(version.stderr, /^error: unknown option --versio \(did you mean --version\?\)\n/);
  const lint = await pab(["lint", "--jsno", POLICY]);
  assert.match(lint.stderr, /^error: unknown option --jsno \(did you mean --json\?\)\n/);
  const files = {
    "t.jsonl": `${TRACE_HEADER}{"type":"call","id":"c1","tool":"send_emial","args":{"to":"x@y.example"}}\n`,
    "p.yaml": SMALL_POLICY,
  };
  const typo = await pab(["check", "-p", "p.yaml", "t.jsonl"], { files });
  assert.match(typo.stdout, /\n {2}note \[unknown-tool\]: .*\(did you mean "send_email"\?\)\n/);
  const json = JSON.parse((await pab(["check", "--json", "-p", "p.yaml", "t.jsonl"], { files })).stdout);
  assert.match(json.calls[0].notes.at(-1).message, /\(did you mean "send_email"\?\)$/);
});

Deno.test("pab check | head -1 exits quietly when the reader closes the pipe", async () => {
  const trace = `${TRACE_HEADER}${
    Array.from({ length: 3000 }, (_, i) => `{"type":"call","id":"c${i}","tool":"read_inbox","args":{}}`).join("\n")
  }\n`;
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/t.jsonl`, trace);
  await Deno.writeTextFile(`${dir}/p.yaml`, SMALL_POLICY);
  const shell = new Deno.Command("sh", {
    args: [
      "-c",
      `"${Deno.execPath()}" run --no-prompt --allow-read cli.ts check -p "${dir}/p.yaml" "${dir}/t.jsonl" | head -1`,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  });
  const output = await shell.output();
  const stdout = new TextDecoder().decode(output.stdout);
  assert.equal(stdout.split("\n")[0], "ALLOW   t#c0 read_inbox()");
  assert.equal(new TextDecoder().decode(output.stderr), "");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createFileExclusively() refuses a symbolic link planted in the folder and a file that exists", async () => {
  const base = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    await plantSymlink(outside, `${base}/pab`);
    await assert.rejects(createFileExclusively(`${base}/pab/demo.jsonl`, "x"), {
      code: "ERR_CLI_UNSAFE_PATH",
      message: `Cannot write "${base}/pab/demo.jsonl": "${base}/pab" is a symbolic link, and pab does not write ` +
        "through links (someone may have planted it; remove it, or write somewhere else)",
    });
    await plantSymlink(`${outside}/target`, `${base}/link.jsonl`);
    await assert.rejects(createFileExclusively(`${base}/link.jsonl`, "x"), { code: "ERR_CLI_UNSAFE_PATH" });
    await assert.rejects(Deno.lstat(`${outside}/target`), Deno.errors.NotFound);
    assert.deepEqual([...Deno.readDirSync(outside)], []);
  } finally {
    await Deno.remove(base, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("pab demo --record does not follow a symbolic link planted under /tmp/pab", async () => {
  const name = `planted-${crypto.randomUUID()}`;
  const outside = await Deno.makeTempDir();
  await Deno.mkdir("/tmp/pab", { recursive: true });
  try {
    await plantSymlink(outside, `/tmp/pab/${name}`);
    const result = await runPab(["demo", "--record", `/tmp/pab/${name}/demo.jsonl`]);
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(result.stderr, /^error: Cannot write "\/tmp\/pab\/planted-.*\/demo\.jsonl": ".*" is a symbolic link/);
    assert.deepEqual([...Deno.readDirSync(outside)], []);
    const file = `/tmp/pab/${name}.jsonl`;
    await Deno.writeTextFile(file, "keep me");
    const again = await runPab(["demo", "--record", file]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /it already exists, and pab only creates new files/);
    assert.equal(await Deno.readTextFile(file), "keep me");
    await Deno.remove(file);
  } finally {
    await Deno.remove(`/tmp/pab/${name}`).catch(() => {});
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("readInputText() returns any UTF-8 text intact across chunk edges and refuses any invalid byte sequence", async () => {
  const { readInputText } = await import("../adapters/cli/io/read_input.ts");
  await fc.assert(fc.asyncProperty(fc.string({ unit: "grapheme" }), async (text) => {
    const { io } = memoryIo({ stdin: text });
    assert.equal(await readInputText("-", io, { what: "trace" }), text);
  }));
  await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
    let valid = true;
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      valid = false;
    }
    const { io } = memoryIo({ binaryFiles: { "b.jsonl": bytes } });
    const read = readInputText("b.jsonl", io, { what: "trace" });
    if (valid) return void await read;
    await assert.rejects(read, (error: Error & { code?: string }) => {
      assert.equal(error.code, "ERR_CLI_ENCODING");
      assert.match(error.message, /^[\x20-\x7e]*$/, "the message echoes no raw byte");
      return true;
    });
  }));
});

Deno.test("pab bench trace-memory measures pab check's peak memory on a synthetic trace under /tmp/pab", async () => {
  const result = await runPab(["bench", "trace-memory", "--mb", "1", "--json"]);
  assert.equal(result.stderr, "");
  assert.ok(result.code === 0 || result.code === 1, `exit ${result.code}`);
  const json = JSON.parse(result.stdout);
  assert.equal(json.schemaVersion, 1);
  assert.ok(json.traceBytes >= 1e6 && json.calls > 100, result.stdout);
  assert.ok(json.peakRssBytes > 0);
  assert.deepEqual([...Deno.readDirSync("/tmp/pab")].filter((entry) => entry.name.startsWith("trace-memory-")), []);
});

Deno.test("pab check's text report has one decision line per call, whatever the ids, tools and values hold", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          id: fc.string({ unit: "binary", minLength: 1 }),
          tool: fc.string({ unit: "binary", minLength: 1 }),
          key: fc.string({ unit: "binary" }),
          value: fc.string({ unit: "binary" }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      async (calls) => {
        const unique = calls.map((call, i) => ({ ...call, id: `${i}:${call.id}` }));
        const trace = TRACE_HEADER +
          unique.map((call) =>
            JSON.stringify({ type: "call", id: call.id, tool: call.tool, args: { [call.key]: call.value } })
          ).join("\n") + "\n";
        const result = await pab(["check", "-p", "p.yaml", "t.jsonl"], {
          files: { "t.jsonl": trace, "p.yaml": SMALL_POLICY },
        });
        if (result.code === 2) return; // a key the trace reader refuses (such as "__proto__") is an error, not a report
        const lines = result.stdout.split("\n");
        assert.equal(lines.filter((line) => /^(ALLOW|CONFIRM|BLOCK) /.test(line)).length, unique.length, result.stdout);
        for (const line of lines) assert.doesNotMatch(line, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
      },
    ),
    { numRuns: 60 },
  );
});
