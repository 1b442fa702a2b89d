/**
 * `pab bench serve`: decisions per second through `pab serve` (about 3 KB of
 * tool output recorded per decision), where a step's time goes, and, on
 * request, a soak (RSS over minutes with sessions made and deleted) and a
 * scale run (throughput from 10 to 5,000 live sessions).
 *
 * @module
 */
import { BENCH_POLICY_YAML, benchPolicy, type ServeLoad, type ServeLoadResult, splitStep } from "./serve_load.ts";
import { type RunningServer, SessionHost, startServer, startWorkerServer } from "../../serve/mod.ts";
import { SERVE_WORKER_MODULE, type ServeWorkerConfig } from "../commands/serve_worker.ts";
import { startBareServer } from "./bare_server.ts";
import { loadInWorker, type WorkerLoadWatch } from "./load_worker.ts";
import { openStore } from "../../store/mod.ts";
import type { Bench } from "./benchmark.ts";
import { type CommandInput, defineCommand } from "../shell/define_command.ts";
import type { Io } from "../io/io.ts";
import process from "node:process";

/** The bench. */
export const serveBench: Bench = {
  summary: "Decisions per second through pab serve (3 KB recorded per decision), the time split, soak and scale",
  run: (args, io) => command.run(args, io),
};

const command = defineCommand({
  name: "bench serve",
  summary: serveBench.summary,
  description: `Start pab serve in this process (--workers N worker threads; 0 serves on
the main thread; default 2 in memory, 0 on a KV file) and load it over HTTP from a client on its own
thread (keep-alive connections, one per session): N sessions, each step
recording a tool output (--output-chars, default 3000) and deciding a call,
timed after a warm-up (--warmup-seconds, default 3) on sessions of its own
that are deleted before the timed sessions are made.
Prints decisions per second, p50 and p99 step latency, the server's and the
client's CPU time per decision, and the split of a step's time (recording,
decision, store and the audit hashing within it, host, JSON, HTTP) measured
by running the same steps with fewer layers. --soak M runs M minutes with sessions made
and deleted every 20 steps and samples RSS; --scale runs 10, 1,000 and 5,000
live sessions with 10 clients; --bare loads a bare Deno.serve that reads each body and
answers with no pab behind it (the HTTP floor on this machine).`,
  options: {
    store: { type: "string", description: "The store: :memory: (default) or a KV file such as /tmp/pab/bench.kv" },
    sessions: { type: "integer", description: "Concurrent sessions (default 50)" },
    workers: {
      type: "integer",
      description: "Worker threads serving the sessions (0: the main thread; default 2 in memory, 0 on a KV file)",
    },
    front: {
      type: "boolean",
      description: "With workers: take connections on a front thread that passes requests on (the fallback off Linux)",
    },
    bare: {
      type: "boolean",
      description: "Load a bare Deno.serve that reads each body and answers, with no pab behind it (the HTTP floor)",
    },
    crossed: {
      type: "boolean",
      description: "Use each session over another connection than the one that made it (measures the hand-over)",
    },
    seconds: { type: "integer", description: "Seconds of load (default 10)" },
    "warmup-seconds": {
      type: "integer",
      description:
        "Seconds of load on sessions of their own, deleted after, before the timed load (default 3; 0: none)",
    },
    "output-chars": { type: "integer", description: "Characters of tool output per decision (default 3000)" },
    "soak-minutes": { type: "integer", description: "Also soak for this many minutes and report RSS" },
    scale: { type: "boolean", description: "Also measure throughput at 10, 1,000 and 5,000 live sessions" },
    json: { type: "boolean", description: "Print the figures as JSON (schemaVersion 1)" },
  },
  exitCodes: "0 measured (targets met or not: read them); 2 bad usage.",
  run: runServeBench,
});

async function runServeBench(input: CommandInput, io: Io): Promise<number> {
  const where = input.string("store") ?? ":memory:";
  const chars = input.integer("output-chars") ?? 3000;
  const sessions = input.integer("sessions") ?? 50;
  const seconds = input.integer("seconds") ?? 10;
  const warmupSeconds = input.integer("warmup-seconds") ?? 3;
  // On a KV file, workers each commit on their own handle (SQLite takes one writer at a time): one thread is faster.
  const workers = input.integer("workers") ?? (where === ":memory:" ? 2 : 0);
  const front = input.flag("front");
  const crossed = input.flag("crossed");
  const bare = input.flag("bare");
  const figures: Record<string, unknown> = {
    schemaVersion: 1,
    store: where,
    outputChars: chars,
    workers,
    front,
    crossed,
    bare,
    warmupSeconds,
  };
  const say = (line: string) => input.flag("json") ? Promise.resolve() : io.stdout.write(`${line}\n`);
  const run = (load: ServeLoad, watch?: WorkerLoadWatch) =>
    withServer(where, { workers, front, bare }, (url) => loadInWorker(url, load, watch));
  // CPU time over the timed load: the process's, this thread's (with workers, the main thread: a front thread's
  // work, or almost none when workers share the port; with none, the whole server) and the load client's; the
  // workers' is the rest (with the runtime's own threads).
  let process0 = process.cpuUsage();
  let front0 = process.threadCpuUsage();
  let processUs = 0;
  let frontUs = 0;
  const { result: load, clientCpuUs } = await run({ sessions, seconds, outputChars: chars, crossed, warmupSeconds }, {
    onStart: () => [process0, front0] = [process.cpuUsage(), process.threadCpuUsage()],
    onEnd: () => {
      const [all, front] = [process.cpuUsage(process0), process.threadCpuUsage(front0)];
      [processUs, frontUs] = [all.user + all.system, front.user + front.system];
    },
  });
  // CPU time per decision: on a busy machine, wall time also counts the time other processes had the cores.
  const per = (us: number) => Math.round(us / Math.max(1, load.decisions));
  const cpuUsPerDecision = per(processUs - clientCpuUs);
  const clientUsPerDecision = per(clientCpuUs);
  const frontUsPerDecision = workers ? per(frontUs) : undefined;
  const perCpuSecond = Math.round(1e6 / cpuUsPerDecision);
  const cpu = cpuCeiling(processUs, load.seconds, cpuUsPerDecision + clientUsPerDecision);
  figures.load = { ...load, cpuUsPerDecision, perCpuSecond, clientUsPerDecision, frontUsPerDecision, ...cpu };
  if (bare) {
    await say(
      `${
        line(load)
      } (bare Deno.serve); server ${cpuUsPerDecision} us of CPU per decision, load client ${clientUsPerDecision} us`,
    );
    if (input.flag("json")) await io.stdout.write(`${JSON.stringify(figures)}\n`);
    return 0;
  }
  await say(
    `${line(load)} (${where}, ${workers} workers); server ${cpuUsPerDecision} us of CPU per decision ` +
      `(${perCpuSecond} per CPU-second${
        workers
          ? `; ${front ? "front" : "main"} thread ${frontUsPerDecision}, workers ${
            cpuUsPerDecision - frontUsPerDecision!
          }`
          : ""
      }), load client ${clientUsPerDecision} us`,
  );
  await say(
    `CPU: ${cpu.coresBusy} of ${cpu.cores} cores busy; at ${cpuUsPerDecision + clientUsPerDecision} us per decision ` +
      `(server and load client) ${cpu.cores} cores serve at most ${cpu.ceilingPerSecond}/s, ` +
      `${Math.round((load.perSecond / cpu.ceilingPerSecond) * 100)}% of it reached`,
  );
  const split = await withStore(where, (store) => splitStep(store, cpuUsPerDecision, chars));
  figures.splitUsPerStep = split;
  await say(
    `split per step (us): recording ${split.recordingUs}, decision ${split.decisionUs}, store ${split.storeUs} ` +
      `(audit hashing ${split.auditHashUs}), ` +
      `host ${split.hostUs}, JSON ${split.jsonUs}, the rest under load (HTTP, threads, GC, caches) ${split.httpUs}`,
  );
  const soak = input.integer("soak-minutes");
  if (soak) {
    const samples: { s: number; rssMiB: number; decisions: number }[] = [];
    const start = performance.now();
    const { result } = await run({
      sessions,
      seconds: soak * 60,
      outputChars: chars,
      churn: 20,
      onTick: (decisions) => {
        const s = Math.round((performance.now() - start) / 1000);
        if (s % 10 === 0) samples.push({ s, rssMiB: Math.round(Deno.memoryUsage().rss / 2 ** 20), decisions });
      },
    });
    // RSS after the first tenth (warm-up) against the highest later sample.
    const settled = samples.filter((sample) => sample.s >= soak * 6);
    const first = settled[0]?.rssMiB ?? 0;
    const peak = Math.max(...settled.map((sample) => sample.rssMiB));
    figures.soak = { minutes: soak, ...result, rssFirstMiB: first, rssPeakMiB: peak, samples };
    await say(
      `soak ${soak} min: ${line(result)}; RSS ${first} MiB after warm-up, peak ${peak} MiB (+${
        Math.round((peak / first - 1) * 100)
      }%)`,
    );
  }
  if (input.flag("scale")) {
    const scale: ServeLoadResult[] = [];
    for (const live of [10, 1000, 5000]) {
      const { result } = await run({ sessions: live, clients: 10, seconds, outputChars: chars });
      scale.push(result);
      await say(`${live} live sessions, 10 clients: ${line(result)}`);
    }
    figures.scale = scale;
  }
  if (input.flag("json")) await io.stdout.write(`${JSON.stringify(figures)}\n`);
  return 0;
}

/**
 * How busy the machine's cores were over a load (`processUs` of CPU in `seconds`), and the most decisions per second
 * they could serve at `usPerDecision` of CPU each (server and load client): a run that reaches its ceiling is bound by
 * CPU, and only less CPU per decision raises it; one far below waits on something else (a store's commits).
 */
function cpuCeiling(processUs: number, seconds: number, usPerDecision: number) {
  const cores = navigator.hardwareConcurrency;
  return {
    cores,
    coresBusy: Math.round(processUs / Math.max(1e-9, seconds) / 1e4) / 100,
    ceilingPerSecond: Math.round((cores * 1e6) / Math.max(1, usPerDecision)),
  };
}

function line(result: ServeLoadResult): string {
  return `${result.sessions} sessions: ${result.decisions} decisions in ${result.seconds} s, ${result.perSecond}/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms ` +
    `(clients' medians ${result.clientP50Ms[0]} to ${result.clientP50Ms[1]} ms)`;
}

async function withStore<T>(
  where: string,
  task: (store: Awaited<ReturnType<typeof openStore>>) => Promise<T>,
): Promise<T> {
  return await withPath(where, async (path) => {
    const store = await openStore(path);
    try {
      return await task(store);
    } finally {
      store.close();
    }
  });
}

/** A fresh store address for a run: `:memory:`, or a new KV file beside `where`, removed afterwards. */
async function withPath<T>(where: string, task: (path: string) => Promise<T>): Promise<T> {
  const path = where === ":memory:" ? where : `${where}.${crypto.randomUUID()}`;
  try {
    return await task(path);
  } finally {
    if (path !== where) {
      for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(`${path}${suffix}`).catch(() => {});
    }
  }
}

/**
 * Serve the bench policy on a fresh store: on `workers` worker threads (behind a front thread with `front`), or on this
 * thread (0); with `bare`, a bare Deno.serve with no pab behind it.
 */
function withServer<T>(
  where: string,
  { workers, front, bare = false }: { workers: number; front: boolean; bare?: boolean },
  task: (url: string) => Promise<T>,
): Promise<T> {
  const serve = async (start: () => Promise<Pick<RunningServer, "url" | "shutdown">>) => {
    const server = await start();
    try {
      return await task(server.url);
    } finally {
      await server.shutdown();
    }
  };
  if (bare) return serve(() => Promise.resolve(startBareServer()));
  if (workers === 0) {
    return withStore(
      where,
      (store) =>
        serve(() => Promise.resolve(startServer(new SessionHost(benchPolicy(), store), { version: "bench", port: 0 }))),
    );
  }
  return withPath(where, (path) => {
    const config: ServeWorkerConfig = { policy: { text: BENCH_POLICY_YAML, source: "bench.yaml" }, store: path };
    return serve(() =>
      startWorkerServer({ module: SERVE_WORKER_MODULE, workers, config, version: "bench", port: 0, front })
    );
  });
}
