/**
 * Reading a session's inputs on Deno KV: two handles on one file (two processes) append and read in any order and
 * at once, and every read from a position returns exactly the inputs stored from there (the empty case is one point
 * read, batched with other sessions' reads, so it must never hide an input); inputs have no gap, so an append past
 * the end is refused with a coded error and writes nothing.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { KvStore, type SessionInput, StoreError } from "../adapters/store/mod.ts";

const AT = "2026-12-01T16:00:00.000Z";

Deno.test("KvStore.inputs() from any position returns what the store holds from there, whichever handle appended it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_input_reads_" });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            session: fc.integer({ min: 0, max: 2 }),
            writer: fc.integer({ min: 0, max: 1 }),
            reader: fc.integer({ min: 0, max: 1 }),
            from: fc.integer({ min: 0, max: 6 }),
            together: fc.boolean(),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        async (steps) => {
          const path = `${dir}/${crypto.randomUUID()}.kv`;
          const handles = [
            new KvStore(await Deno.openKv(path), "a"),
            new KvStore(await Deno.openKv(path), "b"),
          ];
          const model: SessionInput[][] = [[], [], []];
          try {
            const pending: Promise<() => void>[] = [];
            for (const { session, writer, reader, from, together } of steps) {
              const id = `s${session}`;
              const input: SessionInput = { kind: "user", text: `${model[session].length} by ${writer}` };
              const seq = model[session].length;
              model[session].push(input);
              await handles[writer].appendInput(id, seq, input, [{ kind: "message", at: AT }]).then((ok) => {
                assert.equal(ok, true);
              });
              // Reads at once on both handles and several sessions: each sees at least what was committed before
              // it started, and what it sees is what the store holds (appends go on meanwhile when `together`).
              const before = model.map((inputs) => inputs.length);
              const read = Promise.all([0, 1, 2].map((s) => handles[reader].inputs(`s${s}`, from)));
              const check = (got: SessionInput[][]) =>
                got.forEach((inputs, s) => {
                  assert.ok(
                    inputs.length >= Math.max(0, before[s] - from),
                    "a read hides an input committed before it",
                  );
                  assert.deepEqual(inputs, model[s].slice(from, from + inputs.length));
                });
              if (together) pending.push(read.then((got) => () => check(got)));
              else check(await read);
            }
            for (const check of await Promise.all(pending)) check();
          } finally {
            for (const handle of handles) handle.close();
          }
        },
      ),
      { numRuns: 20 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KvStore.appendInput() past the end of a session's inputs fails ERR_STORE_WRITE and writes nothing", async () => {
  const store = new KvStore(await Deno.openKv(":memory:"), "kv in memory");
  try {
    assert.equal(await store.appendInput("s", 0, { kind: "user", text: "first" }), true);
    await assert.rejects(
      store.appendInput("s", 2, { kind: "user", text: "past the end" }, [{ kind: "message", at: AT }]),
      (error: unknown) =>
        error instanceof StoreError && error.code === "ERR_STORE_WRITE" && /input 1/.test(error.message),
    );
    assert.deepEqual(await store.inputs("s", 0), [{ kind: "user", text: "first" }]);
    assert.deepEqual(await store.audit("s"), []);
    // Appends this process has in flight count: the next position waits for the one before it.
    const both = await Promise.all([
      store.appendInput("s", 1, { kind: "user", text: "second" }),
      store.appendInput("s", 2, { kind: "user", text: "third" }),
    ]);
    assert.deepEqual(both, [true, true]);
    assert.equal((await store.inputs("s", 0)).length, 3);
    await store.deleteSession("s");
    await assert.rejects(store.appendInput("s", 3, { kind: "user", text: "after the drop" }), StoreError);
  } finally {
    store.close();
  }
});
