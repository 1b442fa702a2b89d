import assert from "node:assert/strict";
import { runBench } from "../adapters/cli/commands/bench.ts";
import { perfBench } from "../adapters/cli/bench/bench_perf.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";

Deno.test("pab bench perf --json measures every case at the sizes asked for and compares with a naive rescan", async () => {
  const memory = memoryIo();
  assert.equal(await runBench(["perf", "--json", "--max-mb", "0.01"], memory.io, { perf: perfBench }), 0);
  const result = JSON.parse(memory.stdout());
  assert.equal(result.schemaVersion, 1);
  assert.deepEqual(result.sizes.map((size: { bytes: number }) => size.bytes), [10_000]);
  const [size] = result.sizes;
  assert.deepEqual(Object.keys(size.decide), [
    "recurring, allowed",
    "rare, allowed",
    "recurring, blocked",
    "rare, blocked",
  ]);
  assert.deepEqual(Object.keys(size.index), Object.keys(size.decide));
  assert.ok(size.recurringSources >= size.sources, "the recurring address is in every source and the user's message");
  assert.ok(size.naive.p50 > 0);
  assert.deepEqual(
    result.record.map((row: { kind: string; outputBytes: number }) => `${row.kind} ${row.outputBytes}`),
    ["text 1000", "text 100000", "json 1000", "json 100000"],
  );
});

Deno.test("pab bench perf refuses an unknown size", async () => {
  const memory = memoryIo();
  assert.equal(await runBench(["perf", "--max-mb", "3"], memory.io, { perf: perfBench }), 2);
  assert.match(memory.stderr(), /--max-mb must be 0\.01, 0\.1, 1 or 10, not "3"/);
});
