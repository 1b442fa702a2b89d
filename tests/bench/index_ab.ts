/**
 * Index throughput of this checkout's scanner against another checkout's, in one process, interleaved (on a shared
 * machine only such ratios mean much):
 *
 *   git archive main | tar -x -C /tmp/main-src
 *   deno run --allow-read tests/bench/index_ab.ts /tmp/main-src/harvest/mod.ts [REPS]
 *
 * Indexes 3 MB of the `bench perf` workload's 100 KB text and JSON outputs REPS times (default 30) with each, and
 * prints the best rate of each and their ratio (above 1: this checkout is faster).
 *
 * @module
 */
import { makeOutputs } from "../../adapters/cli/bench/perf_workload.ts";
import { seededRandom } from "../../adapters/cli/bench/seeded_random.ts";

const other = Deno.args[0];
if (!other) throw new TypeError("Cannot compare: give the other checkout's harvest/mod.ts");
const mods = {
  other: await import(new URL(other, `file://${Deno.cwd()}/`).href),
  this: await import("../../harvest/mod.ts"),
};
for (const kind of ["text", "json"] as const) {
  const outputs = makeOutputs(kind, 100_000, 3_000_000, seededRandom(7));
  const parsed = kind === "json" ? outputs.map((output) => JSON.parse(output)) : [];
  const best = { other: Infinity, this: Infinity };
  for (let rep = 0; rep < Number(Deno.args[1] ?? 30); rep++) {
    for (const name of rep % 2 ? ["other", "this"] as const : ["this", "other"] as const) {
      const index = new mods[name].EvidenceIndex();
      const start = performance.now();
      outputs.forEach((output, id) =>
        kind === "text" ? index.addText(id, output, 0) : index.addStructured(id, parsed[id], 0)
      );
      best[name] = Math.min(best[name], performance.now() - start);
    }
  }
  const mb = outputs.reduce((sum, output) => sum + output.length, 0) / 1e6;
  const rate = (ms: number) => `${(mb / ms * 1000).toFixed(1)} MB/s`;
  console.log(
    `${kind}: other ${rate(best.other)}, this ${rate(best.this)}, this/other ${(best.other / best.this).toFixed(3)}`,
  );
}
