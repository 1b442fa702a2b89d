/**
 * Signed checkpoints anchor the audit log: cutting its tail, emptying it,
 * dropping a session, rewriting records with recomputed hashes and swapping
 * the checkpoint are all found, in a JSONL export and in a store; a log that
 * only grew since the checkpoint still verifies.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import {
  type AuditRecord,
  checkpointOf,
  generateAuditKey,
  linkRecord,
  openCheckpoint,
  publicAuditKey,
  signCheckpoint,
  toJsonl,
  verifyCheckpoint,
} from "../adapters/audit/mod.ts";
import { auditCommand } from "../adapters/cli/commands/audit.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

/** Two sessions' chains in a store file, a key pair made by `pab audit keygen`, and a checkpoint of the store. */
async function anchoredStore(dir: string) {
  const store = await openStore(`${dir}/state.kv`);
  const host = new SessionHost(policy, store);
  for (const text of ["first", "second"]) {
    const id = await host.create();
    await host.message(id, "user", text);
    await host.result(id, { tool: "read_inbox", args: {}, output: `mail about ${text}` });
  }
  store.close();
  const keygen = memoryIo();
  assert.equal(await auditCommand.run(["keygen", "--out", `${dir}/ops.key`, "--name", "ops"], keygen.io), 0);
  assert.equal(((await Deno.stat(`${dir}/ops.key`)).mode ?? 0) & 0o777, 0o600);
  const signed = memoryIo({ files: { "ops.key": await Deno.readTextFile(`${dir}/ops.key`) } });
  assert.equal(await auditCommand.run(["checkpoint", "--store", `${dir}/state.kv`, "--key", "ops.key"], signed.io), 0);
  const exported = memoryIo();
  assert.equal(await auditCommand.run(["export", "--store", `${dir}/state.kv`], exported.io), 0);
  return {
    jsonl: exported.stdout(),
    checkpoint: signed.stdout(),
    publicKey: await Deno.readTextFile(`${dir}/ops.key.pub`),
  };
}

async function verifyFile(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const memory = memoryIo({ files });
  const code = await auditCommand.run(
    ["verify", "log.jsonl", "--checkpoint", "cp.txt", "--key", "ops.key.pub", "--json"],
    memory.io,
  );
  return { code, out: memory.stdout() };
}

/** Records of `stream` rewritten from position `from` with recomputed hashes, the rest kept. */
function rewrite(records: readonly AuditRecord[], stream: string, from: number): AuditRecord[] {
  let head: AuditRecord | undefined;
  return records.map((record) => {
    if (record.stream !== stream) return record;
    const event = record.seq === from ? { ...record.event, text: "nothing happened" } : record.event;
    const next = record.seq >= from ? linkRecord(stream, head, event) : record;
    head = next;
    return next;
  });
}

Deno.test("pab audit verify --checkpoint finds a cut tail, an emptied log, a dropped session and a rewrite", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_checkpoint_" });
  try {
    const { jsonl, checkpoint, publicKey } = await anchoredStore(dir);
    const files = { "cp.txt": checkpoint, "ops.key.pub": publicKey };
    const intact = await verifyFile({ ...files, "log.jsonl": jsonl });
    assert.equal(intact.code, 0, intact.out);
    assert.equal(JSON.parse(intact.out).anchored, true);
    const records: AuditRecord[] = jsonl.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const [first, second] = [...new Set(records.map((record) => record.stream))];
    const attacks: [string, string, string][] = [
      ["cut tail", toJsonl(records.slice(0, -1)), "ERR_AUDIT_TRUNCATED"],
      ["emptied", "", "ERR_AUDIT_TRUNCATED"],
      ["dropped session", toJsonl(records.filter((record) => record.stream !== first)), "ERR_AUDIT_TRUNCATED"],
      ["rewritten, hashes recomputed", toJsonl(rewrite(records, second, 1)), "ERR_AUDIT_REWRITTEN"],
    ];
    for (const [name, log, code] of attacks) {
      const result = await verifyFile({ ...files, "log.jsonl": log });
      assert.equal(result.code, 1, name);
      assert.equal(JSON.parse(result.out).problem.code, code, name);
    }
    // Without the checkpoint the rewritten log is a valid chain: only the anchor finds it.
    const alone = memoryIo({ files: { "log.jsonl": toJsonl(rewrite(records, second, 1)) } });
    assert.equal(await auditCommand.run(["verify", "log.jsonl"], alone.io), 0);
    // A log that only grew since the checkpoint still verifies.
    const grown = [
      ...records,
      linkRecord(first, records.filter((r) => r.stream === first).at(-1), {
        kind: "message",
        at: "2026-12-01T00:00:00.000Z",
      }),
    ];
    assert.equal((await verifyFile({ ...files, "log.jsonl": toJsonl(grown) })).code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab audit verify --checkpoint refuses a swapped checkpoint: another key, an edited body, another log", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_checkpoint_" });
  try {
    const { jsonl, checkpoint, publicKey } = await anchoredStore(dir);
    const records: AuditRecord[] = jsonl.split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const other = await generateAuditKey("ops");
    const forged = await signCheckpoint(checkpointOf(records.slice(0, 2)), other);
    const edited = checkpoint.replace(/ (\d+) /, (_, size) => ` ${Number(size) - 1} `);
    const foreign = await signCheckpoint(
      checkpointOf([linkRecord("s_other", undefined, { kind: "session", at: "x" })]),
      {
        ...other,
      },
    );
    for (
      const [name, note, code] of [
        ["another key", forged, "ERR_AUDIT_CHECKPOINT"],
        ["edited body", edited, "ERR_AUDIT_CHECKPOINT"],
        ["not a checkpoint", "hello\n", "ERR_AUDIT_CHECKPOINT"],
      ] as const
    ) {
      const result = await verifyFile({ "cp.txt": note, "ops.key.pub": publicKey, "log.jsonl": jsonl });
      assert.equal(result.code, 1, name);
      assert.equal(JSON.parse(result.out).problem.code, code, name);
    }
    // A checkpoint of another log, signed by the right key, names a chain this log does not have.
    const otherPublic = JSON.stringify(publicAuditKey(other));
    const result = await verifyFile({ "cp.txt": foreign, "ops.key.pub": otherPublic, "log.jsonl": jsonl });
    assert.equal(JSON.parse(result.out).problem.code, "ERR_AUDIT_TRUNCATED");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab audit verify --store finds a cut tail by the head the writer stored, and a full rewrite by the checkpoint", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_checkpoint_" });
  try {
    const { checkpoint, publicKey } = await anchoredStore(dir);
    const reader = await openStore(`${dir}/state.kv`);
    const records = await reader.audit();
    reader.close();
    const last = records.at(-1)!;
    // The record is cut wherever it is kept: in the chain's own row, or in the row of the input it records.
    const kv = await Deno.openKv(`${dir}/state.kv`);
    const own = ["pab", "audit", last.stream, last.seq, 0];
    const row = ["pab", "in", last.stream, last.event.input as number, 0];
    if ((await kv.get(own)).versionstamp !== null) await kv.delete(own);
    else {
      const { record: _cut, ...input } = (await kv.get<{ record?: unknown }>(row)).value!;
      assert.ok(_cut, "the record is kept with its input");
      await kv.set(row, input);
    }
    kv.close();
    const cut = memoryIo();
    assert.equal(await auditCommand.run(["verify", "--store", `${dir}/state.kv`, "--json"], cut.io), 1);
    assert.equal(JSON.parse(cut.stdout()).problem.code, "ERR_AUDIT_HEAD");
    // The attacker also moves the head back: the record named an input, which is now unrecorded.
    const again = await Deno.openKv(`${dir}/state.kv`);
    const previous = records.at(-2)!;
    await again.set(["pab", "head", last.stream], { seq: previous.seq, hash: previous.hash });
    const unrecorded = memoryIo();
    assert.equal(await auditCommand.run(["verify", "--store", `${dir}/state.kv`, "--json"], unrecorded.io), 1);
    assert.equal(JSON.parse(unrecorded.stdout()).problem.code, "ERR_AUDIT_UNRECORDED");
    // And removes that input: the store is consistent again, the checkpoint is not.
    assert.equal(typeof last.event.input, "number");
    await again.delete(["pab", "in", last.stream, last.event.input as number, 0]);
    again.close();
    const moved = memoryIo({ files: { "cp.txt": checkpoint, "ops.key.pub": publicKey } });
    assert.equal(await auditCommand.run(["verify", "--store", `${dir}/state.kv`], moved.io), 0);
    const anchored = memoryIo({ files: { "cp.txt": checkpoint, "ops.key.pub": publicKey } });
    const args = ["verify", "--store", `${dir}/state.kv`, "--checkpoint", "cp.txt", "--key", "ops.key.pub"];
    assert.equal(await auditCommand.run(args, anchored.io), 1);
    assert.match(anchored.stdout(), /\[ERR_AUDIT_TRUNCATED\] the checkpoint saw \d+ records, the log has \d+/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verifyCheckpoint() fails for every strict cut or rewrite of any set of chains, and passes every extension", async () => {
  const key = await generateAuditKey("prop");
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
      fc.nat(),
      fc.nat(),
      fc.constantFrom("cut", "drop", "rewrite", "grow"),
      async (sizes, pick, at, attack) => {
        const chains = sizes.map((size, i) => {
          const chain: AuditRecord[] = [];
          for (let seq = 0; seq < size; seq++) {
            chain.push(linkRecord(`s${i}`, chain.at(-1), { kind: "message", at: `t${seq}`, text: `m${seq}` }));
          }
          return chain;
        });
        const note = await signCheckpoint(checkpointOf(chains.flat()), key);
        const checkpoint = await openCheckpoint(note, publicAuditKey(key));
        const target = pick % chains.length;
        const chain = chains[target];
        const cut = at % chain.length;
        const changed = attack === "cut"
          ? chain.slice(0, cut)
          : attack === "drop"
          ? []
          : attack === "rewrite"
          ? rewrite(chain, `s${target}`, cut)
          : [...chain, linkRecord(`s${target}`, chain.at(-1), { kind: "message", at: "later" })];
        const records = chains.flatMap((other, i) => i === target ? changed : other);
        assert.equal(verifyCheckpoint(records, checkpoint).ok, attack === "grow");
      },
    ),
    { numRuns: 150 },
  );
});

Deno.test("pab audit show --json prints the records with a schema version", async () => {
  const first = linkRecord("s_1", undefined, { kind: "session", at: "2026-11-30T15:00:00.000Z" });
  const memory = memoryIo({ files: { "log.jsonl": toJsonl([first]) } });
  assert.equal(await auditCommand.run(["show", "log.jsonl", "--json"], memory.io), 0);
  assert.deepEqual(JSON.parse(memory.stdout()), { schemaVersion: 1, records: [first] });
});

Deno.test("pab audit verify --store finds an input stored without its audit record", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_checkpoint_" });
  try {
    const store = await openStore(`${dir}/state.kv`);
    const host = new SessionHost(policy, store);
    const id = await host.create();
    await host.message(id, "user", "recorded with its audit record");
    const good = memoryIo();
    assert.equal(await auditCommand.run(["verify", "--store", `${dir}/state.kv`], good.io), 0, good.stdout());
    // What a crash between two separate writes used to leave: an input with no audit record.
    assert.equal(await store.appendInput(id, 1, { kind: "user", text: "no record" }), true);
    store.close();
    const bad = memoryIo();
    assert.equal(await auditCommand.run(["verify", "--store", `${dir}/state.kv`, "--json"], bad.io), 1);
    const { problem } = JSON.parse(bad.stdout());
    assert.equal(problem.code, "ERR_AUDIT_UNRECORDED");
    assert.match(problem.message, /^input 1 of the session has no audit record/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
