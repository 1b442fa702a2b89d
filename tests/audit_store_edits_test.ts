/**
 * `pab audit verify --store` against hand edits of a KV store's audit rows:
 * a session whose whole chain was removed (its rows, its head and the records
 * kept in its inputs' rows) while its inputs stay is found without a
 * checkpoint (`ERR_AUDIT_UNRECORDED`), and every removal of a chain is found
 * against a checkpoint taken before (`ERR_AUDIT_TRUNCATED`); a chain moved
 * under another session's keys is found by its records' own names.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { auditCommand } from "../adapters/cli/commands/audit.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

/** Sessions with `inputs[i]` inputs each (messages and tool outputs, some long enough to share text with their record). */
async function storeWith(path: string, inputs: readonly number[]): Promise<string[]> {
  const store = await openStore(path);
  const host = new SessionHost(policy, store);
  const ids: string[] = [];
  for (const count of inputs) {
    const id = await host.create();
    for (let i = 0; i < count; i++) {
      if (i % 2 === 0) await host.message(id, "user", `step ${i}`);
      else await host.result(id, { tool: "read_inbox", args: {}, output: `mail ${i} ${"x".repeat(i * 300)}` });
    }
    ids.push(id);
  }
  store.close();
  return ids;
}

/** Remove a session's chain wherever it is kept: its rows, its head, and the records kept in its inputs' rows. */
async function removeChain(kv: Deno.Kv, id: string): Promise<void> {
  for await (const entry of kv.list({ prefix: ["pab", "audit", id] })) await kv.delete(entry.key);
  await kv.delete(["pab", "head", id]);
  for await (const entry of kv.list<Record<string, unknown>>({ prefix: ["pab", "in", id] })) {
    const { record: _record, ...input } = entry.value;
    await kv.set(entry.key, input);
  }
}

async function verify(path: string, files: Record<string, string> = {}, extra: string[] = []) {
  const memory = memoryIo({ files });
  const code = await auditCommand.run(["verify", "--store", path, "--json", ...extra], memory.io);
  return { code, verdict: JSON.parse(memory.stdout()) };
}

async function checkpointOf(dir: string, path: string): Promise<Record<string, string>> {
  assert.equal(await auditCommand.run(["keygen", "--out", `${dir}/ops.key`], memoryIo().io), 0);
  const signed = memoryIo({ files: { "ops.key": await Deno.readTextFile(`${dir}/ops.key`) } });
  assert.equal(await auditCommand.run(["checkpoint", "--store", path, "--key", "ops.key"], signed.io), 0);
  return { "cp.txt": signed.stdout(), "ops.key.pub": await Deno.readTextFile(`${dir}/ops.key.pub`) };
}

Deno.test("pab audit verify --store finds a session whose whole chain was removed while its inputs stay, and a checkpoint finds every removed chain", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 }),
      fc.nat(),
      fc.boolean(),
      async (inputs, pick, dropInputs) => {
        const dir = await Deno.makeTempDir({ prefix: "pab_audit_edits_" });
        try {
          const path = `${dir}/state.kv`;
          const ids = await storeWith(path, inputs);
          assert.equal((await verify(path)).code, 0);
          const anchor = await checkpointOf(dir, path);
          const victim = pick % ids.length;
          const kv = await Deno.openKv(path);
          await removeChain(kv, ids[victim]);
          if (dropInputs) {
            for await (const entry of kv.list({ prefix: ["pab", "in", ids[victim]] })) await kv.delete(entry.key);
          }
          kv.close();
          const plain = await verify(path);
          if (!dropInputs && inputs[victim] > 0) {
            assert.equal(plain.code, 1, JSON.stringify(plain.verdict));
            assert.equal(plain.verdict.problem.code, "ERR_AUDIT_UNRECORDED");
            assert.equal(plain.verdict.problem.where, `chain "${ids[victim]}"`);
            assert.match(plain.verdict.problem.message, /has no audit chain: its records were removed/);
          }
          // With no input left to betray it, only the checkpoint can tell (as README and SECURITY.md say).
          const anchored = await verify(path, anchor, ["--checkpoint", "cp.txt", "--key", "ops.key.pub"]);
          assert.equal(anchored.code, 1);
          assert.match(anchored.verdict.problem.code, /^ERR_AUDIT_(UNRECORDED|TRUNCATED)$/);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      },
    ),
    { numRuns: 12 },
  );
});

Deno.test("pab audit verify --store finds one session's chain spliced in place of another's", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_audit_edits_" });
  try {
    const path = `${dir}/state.kv`;
    const [a, b] = await storeWith(path, [2, 3]);
    const kv = await Deno.openKv(path);
    // b's chain is replaced by a copy of a's rows and head (the records a keeps in its inputs' rows copied too; its
    // outputs are short, so each is kept whole).
    const rows = await Array.fromAsync(kv.list({ prefix: ["pab", "audit", a] }));
    const kept = await Array.fromAsync(
      kv.list<{ record?: { seq: number; text: string } }>({ prefix: ["pab", "in", a] }),
    );
    await removeChain(kv, b);
    for (const row of rows) await kv.set(["pab", "audit", b, ...row.key.slice(3)], row.value);
    for (const input of kept) {
      const record = input.value.record;
      if (record) await kv.set(["pab", "audit", b, record.seq, 0], { count: 1, text: record.text });
    }
    await kv.set(["pab", "head", b], (await kv.get(["pab", "head", a])).value);
    kv.close();
    const { code, verdict } = await verify(path);
    assert.equal(code, 1);
    // The copies still name a: a's chain appears twice over.
    assert.equal(verdict.problem.code, "ERR_AUDIT_LINK");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
