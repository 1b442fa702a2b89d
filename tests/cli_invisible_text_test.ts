/**
 * What pab prints from a trace or a policy a stranger wrote cannot pass for something else on a terminal: controls,
 * line separators, bidirectional overrides, and every invisible format character (zero-width spaces and joiners, the
 * byte order mark, soft hyphens, tag characters) are shown escaped, so `send\u{200b}_email` never reads as
 * `send_email`.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { escapeControl, memoryIo, runCli } from "../adapters/cli/mod.ts";

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const POLICY = "version: 1\ntools:\n  send_email:\n    args:\n      to: {require: trusted}\n";

Deno.test("pab check shows a tool name with a zero-width space escaped, never as the tool it imitates", async () => {
  const trace = [
    '{"pab":"trace","schemaVersion":1,"id":"t"}',
    '{"type":"call","id":"c\\u2060","tool":"send\\u200b_email\\u00ad","args":{"to\\ufeff":"eve@attacker.example\\udb40\\udc41"}}',
  ].join("\n");
  const memory = memoryIo({ files: { "p.yaml": POLICY, "t.jsonl": trace } });
  await runCli(["check", "-p", "p.yaml", "t.jsonl"], memory.io, { version: "0" });
  const out = memory.stdout();
  assert.doesNotMatch(out, /[\p{Cf}\p{Cs}]/u);
  assert.match(
    out,
    /t#c\\u\{2060\} send\\u\{200b\}_email\\u\{ad\}\(to\\u\{feff\}='eve@attacker\.example\\u\{e0041\}'\)/,
  );
});

Deno.test("escapeControl() leaves no control, separator, format character or lone surrogate, and keeps the rest", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (text) => {
      const escaped = escapeControl(text);
      assert.doesNotMatch(escaped, INVISIBLE);
      const kept = [...text].filter((char) => !INVISIBLE.test(char)).join("");
      assert.equal(escaped.replace(/\\(?:u\{[0-9a-f]+\}|[nrt])/g, ""), kept.replace(/\\(?:u\{[0-9a-f]+\}|[nrt])/g, ""));
    }),
    { numRuns: 500 },
  );
});

Deno.test("pab check names a trace found in a folder that cannot be read with its name escaped", async () => {
  const trace = '{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"user","content":"hi"}\n';
  const memory = memoryIo({
    files: { "p.yaml": POLICY, "t/ok.jsonl": trace, "t/a\x1b[2J\u200b.jsonl": "not json\n" },
  });
  assert.equal(await runCli(["check", "-p", "p.yaml", "t"], memory.io, { version: "0" }), 2);
  assert.doesNotMatch(memory.stderr().replace(/\n/g, ""), INVISIBLE);
  assert.match(memory.stderr(), /t\/a\\u\{1b\}\[2J\\u\{200b\}\.jsonl:1: .* \[ERR_TRACE_INVALID\]/);
});
