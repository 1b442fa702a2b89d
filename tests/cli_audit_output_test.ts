/**
 * `pab audit verify` and `pab audit show` print text a log supplies (a chain's id, a message) escaped: a log whose
 * writer chose its session ids cannot clear or recolour the terminal of whoever verifies it, nor pass one id or tool
 * name for another with invisible characters.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { memoryIo, runCli } from "../adapters/cli/mod.ts";
import { linkRecord, toJsonl } from "../adapters/audit/mod.ts";

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

function logs(stream: string, text: string): { intact: string; broken: string } {
  const first = linkRecord(stream, undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
  const second = linkRecord(stream, first, { kind: "message", at: "2026-11-30T15:00:01.000Z", role: "user", text });
  const third = linkRecord(stream, second, { kind: "message", at: "2026-11-30T15:00:02.000Z", role: "user", text });
  return { intact: toJsonl([first, second]), broken: toJsonl([first, third]) };
}

async function audit(action: string, log: string): Promise<string> {
  const memory = memoryIo({ files: { "audit.jsonl": log } });
  await runCli(["audit", action, "audit.jsonl"], memory.io, { version: "0" });
  return memory.stdout() + memory.stderr();
}

Deno.test("pab audit verify escapes the chain id it names at a broken link", async () => {
  const out = await audit("verify", logs("s_1\x1b[2J\u200b", "hi").broken);
  assert.match(out, /^broken at line 2: \[ERR_AUDIT_LINK\] record 2 of "s_1\\u\{1b\}\[2J\\u\{200b\}"/);
});

Deno.test("pab audit show and verify print no control or invisible character from the log (property)", async () => {
  await fc.assert(
    fc.asyncProperty(fc.string({ unit: "binary", minLength: 1 }), fc.string({ unit: "binary" }), async (id, text) => {
      const { intact, broken } = logs(id, text);
      for (const out of [await audit("show", intact), await audit("verify", broken)]) {
        assert.doesNotMatch(out.replace(/\n/g, ""), UNSAFE);
      }
    }),
    { numRuns: 150 },
  );
});
