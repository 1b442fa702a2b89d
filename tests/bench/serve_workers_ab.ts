/**
 * `pab serve --workers 2` with workers sharing the port against the same
 * workers behind a front thread (the fallback off Linux), in one process,
 * alternating rounds (the order flips every round), and the hand-over path
 * (each session used over another connection than the one that made it).
 * Prints, per run and in total, decisions per second, p50/p99 step latency
 * and the server's CPU time per decision (the process's less the load
 * client's thread), the main thread's apart. Run with
 * `deno run --unstable-kv --unstable-net --allow-net=localhost --allow-read --allow-sys=loadavg tests/bench/serve_workers_ab.ts [seconds] [rounds]`.
 *
 * @module
 */
import process from "node:process";
import { startWorkerServer } from "../../adapters/serve/mod.ts";
import { SERVE_WORKER_MODULE, type ServeWorkerConfig } from "../../adapters/cli/commands/serve_worker.ts";
import { loadInWorker } from "../../adapters/cli/bench/load_worker.ts";
import { BENCH_POLICY_YAML } from "../../adapters/cli/bench/serve_load.ts";

const seconds = Number(Deno.args[0] ?? 5);
const rounds = Number(Deno.args[1] ?? 4);
const config: ServeWorkerConfig = { policy: { text: BENCH_POLICY_YAML, source: "bench.yaml" }, store: ":memory:" };
const RUNS = [
  { name: "front thread", front: true, crossed: false },
  { name: "shared port", front: false, crossed: false },
  { name: "shared port, crossed", front: false, crossed: true },
];

interface Sum {
  serverUs: number;
  mainUs: number;
  decisions: number;
  rates: number[];
  p50: number[];
  p99: number[];
}
const sums = new Map<string, Sum>();
for (let round = 0; round < rounds; round++) {
  for (const run of round % 2 ? [...RUNS].reverse() : RUNS) {
    const server = await startWorkerServer({
      module: SERVE_WORKER_MODULE,
      workers: 2,
      config,
      version: "ab",
      port: 0,
      front: run.front,
    });
    let [process0, main0] = [process.cpuUsage(), process.threadCpuUsage()];
    let [allUs, mainUs] = [0, 0];
    const { result, clientCpuUs } = await loadInWorker(server.url, {
      sessions: 50,
      seconds,
      outputChars: 3000,
      crossed: run.crossed,
    }, {
      onStart: () => [process0, main0] = [process.cpuUsage(), process.threadCpuUsage()],
      onEnd: () => {
        const [all, main] = [process.cpuUsage(process0), process.threadCpuUsage(main0)];
        [allUs, mainUs] = [all.user + all.system, main.user + main.system];
      },
    });
    await server.shutdown();
    const sum = sums.get(run.name) ?? { serverUs: 0, mainUs: 0, decisions: 0, rates: [], p50: [], p99: [] };
    sum.serverUs += allUs - clientCpuUs;
    sum.mainUs += mainUs;
    sum.decisions += result.decisions;
    sum.rates.push(result.perSecond);
    sum.p50.push(result.p50Ms);
    sum.p99.push(result.p99Ms);
    sums.set(run.name, sum);
    const per = (us: number) => Math.round(us / Math.max(1, result.decisions));
    console.log(
      `round ${round} ${run.name}: ${result.perSecond}/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms; ` +
        `server ${per(allUs - clientCpuUs)} us per decision (main thread ${per(mainUs)})`,
    );
  }
  console.log(`load average ${Deno.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, sum] of sums) {
  const per = (us: number) => Math.round(us / Math.max(1, sum.decisions));
  console.log(
    `${name}: server ${per(sum.serverUs)} us per decision (main thread ${per(sum.mainUs)}); median ` +
      `${median(sum.rates)}/s, p50 ${median(sum.p50)} ms, p99 ${median(sum.p99)} ms`,
  );
}
