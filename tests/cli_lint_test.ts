import assert from "node:assert/strict";
import { memoryIo, runCli } from "../adapters/cli/mod.ts";

async function pab(args: string[], files: Record<string, string>) {
  const memory = memoryIo({ files });
  const code = await runCli(args, memory.io, { version: "0.0.0-test" });
  return { code, stdout: memory.stdout(), stderr: memory.stderr() };
}

const GOOD_YAML =
  "version: 1\ntools:\n  read_inbox: {output: untrusted}\n  send_email: {args: {to: {require: trusted}}}\n";
const GOOD_JSONC =
  '{\n  // JSONC: comments and trailing commas\n  "version": 1,\n  "tools": {"read_inbox": {"output": "untrusted"},},\n}\n';

Deno.test("pab lint says ok for valid YAML and JSONC policies", async () => {
  const result = await pab(["lint", "a.yaml", "b.jsonc"], { "a.yaml": GOOD_YAML, "b.jsonc": GOOD_JSONC });
  assert.deepEqual(result, { code: 0, stdout: "ok: a.yaml (2 tools)\nok: b.jsonc (1 tool)\n", stderr: "" });
});

Deno.test("pab lint reports every issue with its path and hint, and exits 2", async () => {
  const bad = "version: 1\ntools:\n  send_email:\n    on_taint: confirm\n    args:\n      to: {require: trustd}\n";
  const result = await pab(["lint", "a.yaml", "bad.yml"], { "a.yaml": GOOD_YAML, "bad.yml": bad });
  assert.equal(result.code, 2);
  assert.equal(result.stdout, "ok: a.yaml (2 tools)\n");
  assert.equal(
    result.stderr,
    'error: Cannot load policy "bad.yml": 2 issues\n' +
      '  - at tools.send_email.args.to.require (line 6): invalid value "trustd" (use one of "trusted", "attested")\n' +
      '  - at tools.send_email.on_taint (line 4): unknown key "on_taint" (did you mean "on_tainted"?)\n',
  );
});

Deno.test("pab lint exits 2 on bad YAML, a JSONC syntax error, a missing file or an unknown extension", async () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      "bad.yaml",
      { "bad.yaml": "version: 1\ntools: [\n" },
      /^error: Cannot load policy "bad\.yaml": 1 issue\n {2}- at line \d+, column \d+: invalid YAML/,
    ],
    [
      "bad.json",
      { "bad.json": '{"version": 1,,}' },
      /^error: Cannot load policy "bad\.json": 2 issues\n {2}- at line 1, column 15: invalid JSONC: PropertyNameExpected \(fix the JSON syntax there\)\n/,
    ],
    ["gone.yaml", {}, /^error: Cannot read policy "gone\.yaml": no such file or directory \(check the path\)\n$/],
    ["policy.txt", { "policy.txt": GOOD_YAML }, /^error: Cannot read policy "policy\.txt": unknown extension/],
  ];
  for (const [path, files, message] of cases) {
    const result = await pab(["lint", path], files);
    assert.equal(result.code, 2, path);
    assert.equal(result.stdout, "", path);
    assert.match(result.stderr, message, path);
  }
});

Deno.test("pab lint without a file is a usage error", async () => {
  const result = await pab(["lint"], {});
  assert.deepEqual(result, {
    code: 2,
    stdout: "",
    stderr: 'error: name at least one policy file\nRun "pab lint --help" for usage.\n',
  });
});

Deno.test("pab lint accepts the demo policy", async () => {
  const path = "traces/examples/demo.policy.yaml";
  const result = await pab(["lint", path], { [path]: await Deno.readTextFile(new URL(`../${path}`, import.meta.url)) });
  assert.deepEqual(result, { code: 0, stdout: `ok: ${path} (4 tools)\n`, stderr: "" });
});

Deno.test("pab lint --json lists schema and semantic issues of every policy in one pass", async () => {
  const bad = "version: 1\nreaders: {groups: [corp]}\ntools:\n  a: {on_taint: confirm}\n  b: {recipients: [nowhere]}\n";
  const result = await pab(["lint", "--json", "a.yaml", "bad.yaml", "gone.yaml"], {
    "a.yaml": GOOD_YAML,
    "bad.yaml": bad,
  });
  assert.equal(result.code, 2);
  assert.equal(result.stderr, "");
  const json = JSON.parse(result.stdout);
  assert.equal(json.schemaVersion, 1);
  assert.deepEqual(json.policies[0], { file: "a.yaml", ok: true, tools: 2, issues: [] });
  assert.deepEqual(json.policies[1].issues, [
    {
      kind: "schema",
      path: "tools.a.on_taint",
      message: 'unknown key "on_taint"',
      hint: 'did you mean "on_tainted"?',
      line: 4,
    },
    {
      kind: "semantic",
      path: "readers.groups",
      message: 'the unknown-address group "public" is not in readers.groups',
      hint: 'add "public" to readers.groups, or set readers.unknown to one of "corp"',
      line: 2,
    },
    {
      kind: "semantic",
      path: "tools.b.recipients.0",
      message: 'undefined reader group "nowhere"',
      hint: 'define "nowhere" under readers.groups, or use one of "corp"',
      line: 5,
    },
  ]);
  assert.equal(json.policies[2].ok, false);
  assert.equal(json.policies[2].issues[0].kind, "io");
  assert.match(json.policies[2].issues[0].message, /^Cannot read policy "gone\.yaml": no such file or directory/);
  const text = await pab(["lint", "bad.yaml"], { "bad.yaml": bad });
  assert.match(text.stderr, /^error: Cannot load policy "bad\.yaml": 3 issues\n/);
});

Deno.test("pab lint reads a policy from standard input and escapes control characters in keys", async () => {
  const memory = memoryIo({ stdin: 'version: 1\ntools:\n  "x\\nok: fake.yaml (9 tools)": {alow: 1}\n' });
  assert.equal(await runCli(["lint", "-"], memory.io, { version: "0" }), 2);
  assert.equal(memory.stderr().split("\n").length, 3, memory.stderr());
  assert.match(memory.stderr(), /x\\nok: fake\.yaml \(9 tools\)\.alow \(line \d+\): unknown key "alow"/);
});

Deno.test("pab lint --tools with a file that is not tool definitions is an input error (exit 2)", async () => {
  for (
    const [text, message] of [
      ["not json", /^error: Cannot read tool definitions from "t\.json": it is not JSON/],
      ['{"hello": 1}', /^error: Cannot read tool definitions from "t\.json": expected an MCP tools\/list result/],
    ] as const
  ) {
    const result = await pab(["lint", "--tools", "t.json", "a.yaml"], { "a.yaml": GOOD_YAML, "t.json": text });
    assert.equal(result.code, 2);
    assert.match(result.stderr, message);
  }
});
