/**
 * On Deno KV an input that fits one stored part keeps the audit record that records it in the same value (one row
 * for both, the output once): the chain reads back as the memory store keeps it, stores in the layout before (each
 * record in the chain's own rows) read the same and take new steps, and a row this version does not know, a record
 * pointing outside its input or a second copy that differs fails ERR_STORE_CORRUPT; a changed or dropped input fails
 * verification. Never a wrong record.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { longTexts, outputsOf } from "./_shared_text_arbitraries.ts";
import { type AuditEvent, verifyHeads, verifyRecords } from "../adapters/audit/mod.ts";
import { KvStore, openStore, type SessionInput, StoreError } from "../adapters/store/mod.ts";
import { seededRandom } from "../adapters/cli/bench/seeded_random.ts";

const AT = "2026-12-01T22:00:00.000Z";

/** Texts short and long (over the sharing threshold), with any characters. */
const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), longTexts(1500));

const step = fc.oneof(
  fc.record({
    kind: fc.constant("result" as const),
    tool: fc.constant("read"),
    args: fc.constant({}),
    output: outputsOf(anyText),
  }),
  fc.record({ kind: fc.constantFrom("user" as const, "system" as const), text: anyText }),
);

/** The events a host writes with an input (the last one records it). */
function eventsOf(input: SessionInput): AuditEvent[] {
  if (input.kind === "result") {
    return [{ kind: "result", at: AT, tool: input.tool, args: input.args, output: input.output }];
  }
  if (input.kind === "ruling") return [{ kind: "ruling", at: AT, id: input.id }];
  return [{ kind: "ledger", at: AT }, { kind: "message", at: AT, role: input.kind, text: input.text }];
}

type Row = {
  count: number;
  text: string;
  record?: { seq: number; text: string; from?: number; length?: number; after?: string };
};

/** Rewrite a store in the layout before this one: each record kept in an input's row moves to the chain's own row. */
async function toEarlierLayout(kv: Deno.Kv): Promise<number> {
  let moved = 0;
  for await (const entry of kv.list<Row>({ prefix: ["pab", "in"] })) {
    const { record, ...input } = entry.value;
    if (!record) continue;
    const [, , session, seq] = entry.key as [string, string, string, number];
    const own = record.from === undefined ? { count: 1, text: record.text } : {
      count: 1,
      text: record.text,
      shared: { input: seq, from: record.from, length: record.length, after: record.after },
    };
    await kv.atomic().set(["pab", "audit", session, record.seq, 0], own).set(entry.key, input).commit();
    moved++;
  }
  return moved;
}

async function append(
  store: KvStore | Awaited<ReturnType<typeof openStore>>,
  inputs: readonly SessionInput[],
  from = 0,
) {
  for (const [i, input] of inputs.entries()) {
    assert.equal(await store.appendInput("s", from + i, input, eventsOf(input)), true);
  }
  await store.appendAuditEvents("s", [{ kind: "decision", at: AT }]);
}

Deno.test("KvStore keeps an input's audit record in the input's row: one row for both, the output once", async () => {
  const raw = await Deno.openKv(":memory:");
  const store = new KvStore(raw, "kv in memory");
  try {
    const input: SessionInput = { kind: "result", tool: "read", args: {}, output: "y".repeat(3000) };
    await store.appendInput("s", 0, input, eventsOf(input));
    assert.equal((await raw.get(["pab", "audit", "s", 0, 0])).versionstamp, null);
    const row = (await raw.get<Row>(["pab", "in", "s", 0, 0])).value!;
    assert.equal(row.record?.seq, 0);
    assert.ok(row.record.text.length + (row.record.after?.length ?? 0) < 500, "the output is not kept twice");
    assert.equal(verifyRecords(await store.audit("s")).ok, true);
    assert.equal(verifyHeads(await store.audit(), await store.heads()).ok, true);
  } finally {
    store.close();
  }
});

Deno.test("KvStore reads the same records from either layout, and from a chain mixing them, as the memory store keeps them", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 5 }),
      fc.array(step, { maxLength: 3 }),
      async (first, then) => {
        const [before, after] = JSON.parse(JSON.stringify([first, then])) as SessionInput[][];
        const raw = await Deno.openKv(":memory:");
        const kv = new KvStore(raw, "kv in memory");
        const memory = await openStore(":memory:");
        try {
          await append(kv, before);
          await append(memory, before);
          const written = await kv.audit("s");
          assert.ok(await toEarlierLayout(raw) > 0, "records were kept in rows");
          assert.equal(JSON.stringify(await kv.audit("s")), JSON.stringify(written));
          // New steps on a store written before: the chain goes on, in both layouts at once.
          await append(kv, after, before.length);
          await append(memory, after, before.length);
          const [fromKv, fromMemory] = [await kv.audit(), await memory.audit()];
          assert.equal(JSON.stringify(fromKv), JSON.stringify(fromMemory));
          assert.equal(verifyHeads(fromKv, await kv.heads()).ok, true);
          assert.deepEqual(await kv.inputs("s", 0), [...before, ...after]);
        } finally {
          kv.close();
          memory.close();
        }
      },
    ),
    { numRuns: 40 },
  );
});

Deno.test("KvStore fails ERR_STORE_CORRUPT on an input row or a kept record it does not know, never a wrong record", async () => {
  const input: SessionInput = { kind: "result", tool: "read", args: {}, output: "secret ".repeat(300) };
  const damages: [string, (row: Row) => unknown][] = [
    ["an unknown field in the row", (row) => ({ ...row, format: 2 })],
    ["an unknown field in the record", (row) => ({ ...row, record: { ...row.record, next: 1 } })],
    ["a piece past the input's end", (row) => ({ ...row, text: row.text.slice(0, 100) })],
    ["a position that is not one", (row) => ({ ...row, record: { ...row.record, seq: -1 } })],
    ["a record without its text", (row) => ({ ...row, record: { seq: 0 } })],
    ["half a piece", (row) => ({ ...row, record: { ...row.record, after: undefined } })],
    ["a record in a text of two parts", (row) => ({ ...row, count: 2 })],
    ["a record that is not an object", (row) => ({ ...row, record: "x" })],
  ];
  for (const [name, damage] of damages) {
    const raw = await Deno.openKv(":memory:");
    const store = new KvStore(raw, "kv in memory");
    try {
      await store.appendInput("s", 0, input, eventsOf(input));
      const key = ["pab", "in", "s", 0, 0];
      await raw.set(key, damage((await raw.get<Row>(key)).value!));
      for (const read of [() => store.audit("s"), () => store.audit(), () => store.deleteSession("s")]) {
        await assert.rejects(
          read(),
          (error) => error instanceof StoreError && error.code === "ERR_STORE_CORRUPT",
          name,
        );
      }
    } finally {
      store.close();
    }
  }
});

Deno.test("KvStore fails verification when a row's input changed or the row is gone, and reads a second copy only if it is the same", async () => {
  const raw = await Deno.openKv(":memory:");
  const store = new KvStore(raw, "kv in memory");
  try {
    const input: SessionInput = { kind: "result", tool: "read", args: {}, output: "secret ".repeat(300) };
    await store.appendInput("s", 0, input, eventsOf(input));
    await store.appendAuditEvents("s", [{ kind: "decision", at: AT }]);
    const written = await store.audit("s");
    const key = ["pab", "in", "s", 0, 0];
    const row = (await raw.get<Row>(key)).value!;
    // A copy in the chain's own row (a deletion stopped half-way) is read once if it is the same record.
    await raw.set(["pab", "audit", "s", 0, 0], { count: 1, text: JSON.stringify(written[0]) });
    assert.equal(JSON.stringify(await store.audit("s")), JSON.stringify(written));
    await raw.set(["pab", "audit", "s", 0, 0], { count: 1, text: JSON.stringify({ ...written[0], hash: "0" }) });
    await assert.rejects(
      store.audit("s"),
      (error) => error instanceof StoreError && error.code === "ERR_STORE_CORRUPT",
    );
    await raw.delete(["pab", "audit", "s", 0, 0]);
    // The input changed: the record rebuilt from it no longer hashes.
    await raw.set(key, { ...row, text: row.text.replace("secret", "public") });
    assert.equal(verifyRecords(await store.audit("s")).ok, false);
    // The row is gone, record and all: the chain no longer reaches back to its start.
    await raw.delete(key);
    assert.equal(verifyRecords(await store.audit("s")).ok, false);
  } finally {
    store.close();
  }
});

/** Make every commit of this process fail at random, before it writes or after (an acknowledgement lost), while `run` runs. */
async function withFaults(random: () => number, run: () => Promise<void>): Promise<void> {
  const prototype = Deno.AtomicOperation.prototype;
  const commit = prototype.commit;
  prototype.commit = async function (this: Deno.AtomicOperation) {
    const fate = random();
    if (fate < 0.15) throw new Error("disk I/O error (injected before the write)");
    const result = await commit.call(this);
    if (fate < 0.3) throw new Error("disk I/O error (injected after the write)");
    return result;
  };
  try {
    await run();
  } finally {
    prototype.commit = commit;
  }
}

Deno.test("KvStore steps failing at random points leave every stored input with its audit record and a chain that verifies", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      async (generated, seed, drop) => {
        const steps = JSON.parse(JSON.stringify(generated)) as SessionInput[];
        const raw = await Deno.openKv(":memory:");
        const store = new KvStore(raw, "kv in memory");
        try {
          await withFaults(seededRandom(seed), async () => {
            for (const input of steps) {
              try {
                const seq = (await store.inputs("s", 0)).length;
                await store.appendInput("s", seq, input, eventsOf(input));
                await store.appendAuditEvents("s", [{ kind: "decision", at: AT }]);
              } catch (error) {
                assert.ok(error instanceof StoreError, String(error));
              }
            }
            if (drop) await store.deleteSession("s").catch((error) => assert.ok(error instanceof StoreError));
          });
          // A fresh handle on the same store: nothing remembered from the failed steps.
          const again = new KvStore(raw, "kv in memory, again");
          const [records, inputs] = [await again.audit("s"), await again.inputs("s", 0)];
          const named = records.filter((record) => "input" in record.event).map((record) => record.event.input);
          if (!drop) assert.deepEqual(named, inputs.map((_, i) => i), "every stored input has its record, once");
          assert.equal(verifyRecords(records).ok, true);
          assert.equal(verifyHeads(await again.audit(), await again.heads()).ok, true);
          if (drop) {
            // A deletion cut short leaves the inputs it did not drop and every record; done again, the chain stands alone.
            await again.deleteSession("s");
            assert.deepEqual(await again.inputs("s", 0), []);
            assert.equal(JSON.stringify(await again.audit("s")), JSON.stringify(records));
          }
        } finally {
          store.close();
        }
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("KvStore keeps a record in its input's row only while the value stays one part, whatever its characters", async () => {
  for (const unit of ["y", "é", "😀", "\u0000"]) {
    for (const size of [28_000, 29_850, 29_990, 30_500]) {
      const raw = await Deno.openKv(":memory:");
      const kv = new KvStore(raw, "kv in memory");
      const memory = await openStore(":memory:");
      try {
        const output = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
        const input: SessionInput = { kind: "result", tool: "read", args: { n: size }, output };
        for (const store of [kv, memory]) assert.equal(await store.appendInput("s", 0, input, eventsOf(input)), true);
        const row = (await raw.get<Row>(["pab", "in", "s", 0, 0])).value!;
        const own = await raw.get(["pab", "audit", "s", 0, 0]);
        // Exactly one place holds the record, and a row that holds it stays within one part.
        assert.equal(row.record !== undefined, own.versionstamp === null, `${unit} ${size}`);
        if (row.record) assert.ok(row.text.length + row.record.text.length + (row.record.after?.length ?? 0) <= 30_000);
        assert.equal(JSON.stringify(await kv.audit("s")), JSON.stringify(await memory.audit("s")));
        assert.deepEqual(await kv.inputs("s", 0), [input]);
      } finally {
        kv.close();
        memory.close();
      }
    }
  }
});
