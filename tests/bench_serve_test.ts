/**
 * `pab bench serve` runs end to end (a smoke test, not a timing): on worker
 * threads and on one thread, in memory and on a KV file, it reports
 * decisions, latency, the server's and the client's CPU time and the split.
 */
import assert from "node:assert/strict";
import { runBench } from "../adapters/cli/commands/bench.ts";
import { serveBench } from "../adapters/cli/bench/bench_serve.ts";
import { memoryIo } from "../adapters/cli/io/memory_io.ts";

const RUNS: readonly (readonly [string, "kv" | undefined, readonly string[]])[] = [
  ["2", undefined, []],
  ["0", undefined, []],
  ["2", "kv", []],
  ["2", undefined, ["--front"]],
  ["2", undefined, ["--crossed"]],
];

for (const [workers, store, flags] of RUNS) {
  const shown = `${workers}${store ? " on a KV file" : ""}${flags.map((flag) => ` ${flag}`).join("")}`;
  Deno.test(`pab bench serve --json --workers ${shown} reports every figure`, async () => {
    const dir = store ? await Deno.makeTempDir({ prefix: "pab_bench_serve_" }) : undefined;
    const memory = memoryIo();
    const args = [
      "serve",
      "--json",
      "--seconds",
      "1",
      "--sessions",
      "3",
      "--output-chars",
      "300",
      "--warmup-seconds",
      workers === "0" && !store ? "1" : "0",
      "--workers",
      workers,
      ...flags,
    ];
    if (dir) args.push("--store", `${dir}/bench.kv`);
    try {
      assert.equal(await runBench(args, memory.io, { serve: serveBench }), 0, memory.stderr());
      const result = JSON.parse(memory.stdout());
      assert.equal(result.schemaVersion, 1);
      assert.equal(result.workers, Number(workers));
      assert.equal(result.front, flags.includes("--front"));
      assert.equal(result.crossed, flags.includes("--crossed"));
      assert.equal(result.warmupSeconds, workers === "0" && !store ? 1 : 0);
      assert.equal(result.load.sessions, 3);
      assert.ok(result.load.decisions > 0 && result.load.perSecond > 0);
      assert.ok(result.load.p99Ms >= result.load.p50Ms);
      // Each client's median lies within the run's latencies: the lowest median at most the highest.
      const [low, high] = result.load.clientP50Ms;
      assert.ok(low > 0 && low <= high && high <= result.load.p99Ms, JSON.stringify(result.load));
      assert.ok(result.load.cpuUsPerDecision > 0 && result.load.clientUsPerDecision >= 0);
      assert.equal(typeof result.load.frontUsPerDecision, workers === "0" ? "undefined" : "number");
      // The ceiling: the machine's cores at the run's CPU per decision (server and load client).
      const { cores, coresBusy, ceilingPerSecond, cpuUsPerDecision, clientUsPerDecision } = result.load;
      assert.equal(cores, navigator.hardwareConcurrency);
      assert.equal(ceilingPerSecond, Math.round((cores * 1e6) / (cpuUsPerDecision + clientUsPerDecision)));
      assert.ok(coresBusy > 0 && coresBusy <= cores * 1.2, JSON.stringify(result.load));
      for (const part of ["recordingUs", "decisionUs", "storeUs", "auditHashUs", "hostUs", "jsonUs", "httpUs"]) {
        assert.equal(typeof result.splitUsPerStep[part], "number", part);
      }
      // The run's KV files are removed.
      if (dir) assert.deepEqual(Array.from(Deno.readDirSync(dir)), []);
    } finally {
      if (dir) await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("pab bench serve --bare --json loads a bare Deno.serve and reports its floor without a split", async () => {
  const memory = memoryIo();
  const args = [
    "serve",
    "--json",
    "--bare",
    "--seconds",
    "1",
    "--warmup-seconds",
    "1",
    "--sessions",
    "3",
    "--output-chars",
    "300",
  ];
  assert.equal(await runBench(args, memory.io, { serve: serveBench }), 0, memory.stderr());
  const result = JSON.parse(memory.stdout());
  assert.equal(result.bare, true);
  assert.equal(result.load.sessions, 3);
  assert.ok(result.load.decisions > 0 && result.load.cpuUsPerDecision > 0);
  assert.equal(result.splitUsPerStep, undefined);
});
