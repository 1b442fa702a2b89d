/**
 * The engine's share of a `pab bench serve` step, A/B: this checkout's guard
 * against another checkout's (`git archive main | tar -x -C DIR`), each with
 * `sessions` guards that step in turn as the server's sessions do (a 3 KB
 * output recorded, then one `send_email` decided, in every session), in one
 * process, the two sides alternating first at every step. Interleaved
 * sessions are what the server runs: each session's token table grows by
 * every step's new tokens and falls out of the caches while the others run,
 * which one warm guard alone never shows. Prints, per round after the first,
 * the process's CPU time per step for recording and for deciding on each side,
 * their ratios (this / other), and the median over steps of the wall-time
 * ratio (robust to the bursts other processes cause); then the medians over
 * rounds and the load average. Run with
 * `deno run --allow-read --allow-sys=loadavg tests/bench/engine_ab.ts OTHER_CHECKOUT [sessions] [steps] [rounds]`.
 *
 * @module
 */
import process from "node:process";
import { BENCH_POLICY_YAML, benchOutput } from "../../adapters/cli/bench/serve_load.ts";

const other = Deno.args[0];
if (!other) {
  throw new Error("Give the other checkout's directory: tests/bench/engine_ab.ts DIR [sessions] [steps] [rounds]");
}
const sessions = Number(Deno.args[1] ?? 50);
const steps = Number(Deno.args[2] ?? 400);
const rounds = Number(Deno.args[3] ?? 4);

/** What the A/B asks of a guard, from either checkout. */
interface Stepping {
  user(message: string): void;
  record(tool: string, output: unknown): void;
  decide(tool: string, args: Record<string, unknown>): unknown;
}

/** Make `sessions` guards of the checkout at `root` over the bench's policy, each told who to write to. */
async function guardsOf(root: string): Promise<() => Stepping[]> {
  const base = `file://${Deno.realPathSync(root)}/`;
  const { Guard } = await import(new URL("guard/mod.ts", base).href);
  const { parsePolicy } = await import(new URL("guard/policy/text/mod.ts", base).href);
  const policy = parsePolicy(BENCH_POLICY_YAML, { source: "bench.yaml" });
  return () =>
    Array.from({ length: sessions }, (_, n) => {
      const guard: Stepping = new Guard(policy);
      guard.user(`Write to user${n}@corp.example`);
      return guard;
    });
}

const sides = [await guardsOf(new URL("../..", import.meta.url).pathname), await guardsOf(other)];
/**
 * The process's CPU time in microseconds. Here `process.threadCpuUsage()` advances in steps of 10 ms and the
 * scheduler's per-thread count at context switches and ticks (up to 4 ms), longer than a block of 50 decisions;
 * the process's count is exact, and holds the engine's own background work too (V8's collector and compiler threads).
 */
const cpuUs = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};
const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1];

/** One step of every guard: CPU (us) and wall (ms) for recording, then for deciding. */
function step(guards: Stepping[], outputs: string[], args: Record<string, unknown>[]): number[] {
  let cpu = cpuUs();
  let wall = performance.now();
  for (let n = 0; n < sessions; n++) guards[n].record("read_inbox", outputs[n]);
  const recorded = [cpuUs() - cpu, performance.now() - wall];
  cpu = cpuUs();
  wall = performance.now();
  for (let n = 0; n < sessions; n++) guards[n].decide("send_email", args[n]);
  return [...recorded, cpuUs() - cpu, performance.now() - wall];
}

const ratios = {
  record: [] as number[],
  decide: [] as number[],
  recordWall: [] as number[],
  decideWall: [] as number[],
};
for (let round = 0; round < rounds; round++) {
  const guards = sides.map((make) => make());
  const totals = [[0, 0], [0, 0]];
  const walls = { record: [] as number[], decide: [] as number[] };
  for (let at = 0; at < steps; at++) {
    // Parsed from JSON, as a request body's output is: a flat string, different every step.
    const outputs = Array.from({ length: sessions }, (_, n) => JSON.parse(JSON.stringify(benchOutput(n, at, 3000))));
    const args = Array.from({ length: sessions }, (_, n) => ({
      to: at % 2 ? `user${n}@corp.example` : `carol${n}.${at % 7}@corp.example`,
    }));
    const first = at % 2;
    const times: number[][] = [];
    times[first] = step(guards[first], outputs, args);
    times[1 - first] = step(guards[1 - first], outputs, args);
    for (const side of [0, 1]) {
      totals[side][0] += times[side][0];
      totals[side][1] += times[side][2];
    }
    walls.record.push(times[0][1] / times[1][1]);
    walls.decide.push(times[0][3] / times[1][3]);
  }
  const per = (us: number) => (us / (sessions * steps)).toFixed(1);
  const record = totals[0][0] / totals[1][0];
  const decide = totals[0][1] / totals[1][1];
  console.log(
    `round ${round}: record ${per(totals[0][0])} vs ${per(totals[1][0])} us (${record.toFixed(3)}, wall median ` +
      `${median(walls.record).toFixed(3)}); decide ${per(totals[0][1])} vs ${per(totals[1][1])} us ` +
      `(${decide.toFixed(3)}, wall median ${median(walls.decide).toFixed(3)})${round ? "" : " [warm-up]"}`,
  );
  if (round === 0 && rounds > 1) continue;
  ratios.record.push(record);
  ratios.decide.push(decide);
  ratios.recordWall.push(median(walls.record));
  ratios.decideWall.push(median(walls.decide));
}
console.log(
  `this / other, medians over rounds: record CPU ${median(ratios.record).toFixed(3)}, wall ` +
    `${median(ratios.recordWall).toFixed(3)}; decide CPU ${median(ratios.decide).toFixed(3)}, wall ` +
    `${median(ratios.decideWall).toFixed(3)}; load ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`,
);
