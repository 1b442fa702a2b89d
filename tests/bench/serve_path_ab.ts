/**
 * `pab serve`'s own request path, alone and A/B: `startServer` over a stub
 * host (it answers each call at once with a fixed decision, so no guard or
 * store runs) from this checkout against the same from another checkout
 * (`git archive main | tar -x -C DIR`), and a bare `Deno.serve` (the HTTP
 * floor), under the bench's load (50 sessions, a 3 KB output then a
 * decision per step), in one process, alternating rounds after a warm-up
 * round. Prints the server thread's CPU time per decision for each, and
 * what each costs above the floor. With `workers` above 0, each serves on
 * that many worker threads sharing the port (`pab serve`'s default; the
 * floor is as many bare `Deno.serve` workers on one port), and the server's
 * CPU is the process's less the load client's (so the runtime's own threads
 * count too). Run with
 * `deno run --unstable-kv --unstable-net --allow-net=localhost --allow-read --allow-sys=loadavg --v8-flags=--max-semi-space-size=4 tests/bench/serve_path_ab.ts OTHER_CHECKOUT [rounds] [seconds] [workers]`.
 *
 * @module
 */
import process from "node:process";
import { Guard } from "../../guard/mod.ts";
import { benchPolicy } from "../../adapters/cli/bench/serve_load.ts";
import { loadInWorker } from "../../adapters/cli/bench/load_worker.ts";
import { startBareServer } from "../../adapters/cli/bench/bare_server.ts";
import type { RunningServer } from "../../adapters/serve/mod.ts";

const other = Deno.args[0];
if (!other) throw new Error("Give the other checkout's directory: tests/bench/serve_path_ab.ts DIR [rounds] [seconds]");
const rounds = Number(Deno.args[1] ?? 6);
const seconds = Number(Deno.args[2] ?? 3);
const workers = Number(Deno.args[3] ?? 0);
const roots: Record<string, string> = {
  other: Deno.realPathSync(other),
  this: Deno.realPathSync(new URL("../..", import.meta.url)),
};

type ServeModule = typeof import("../../adapters/serve/mod.ts");
const modules: Record<string, ServeModule> = {
  other: await import(new URL("adapters/serve/mod.ts", `file://${Deno.realPathSync(other)}/`).href),
  this: await import("../../adapters/serve/mod.ts"),
};

// A decision with a gap, as the bench's blocked calls have.
const guard = new Guard(benchPolicy());
guard.record("read_inbox", "Message from carol1.2@corp.example about the report");
const decision = guard.decide("send_email", { to: "carol1.2@corp.example" });

function stubHost(serve: ServeModule) {
  let made = 0;
  return {
    limits: serve.DEFAULT_LIMITS,
    store: { description: "stub" },
    create: () => Promise.resolve(`s_${made++}`),
    authorize: () => Promise.resolve("ledger"),
    message: () => Promise.resolve(),
    result: () => Promise.resolve(),
    decide: () => Promise.resolve(decision),
  };
}

type Server = Pick<RunningServer, "url" | "shutdown">;

function start(name: string): Promise<Server> {
  if (workers > 0) return startWorkers(name);
  if (name === "bare") return Promise.resolve(startBareServer());
  const serve = modules[name];
  // The stub has what the routes call; the rest of a host is never reached.
  const host = stubHost(serve) as unknown as Parameters<ServeModule["startServer"]>[0];
  return Promise.resolve(serve.startServer(host, { version: "ab", port: 0 }));
}

/** Serve on `workers` threads sharing a port: the checkout's worker server over the stub host, or bare servers. */
async function startWorkers(name: string): Promise<Server> {
  const module = new URL("./serve_path_worker.ts", import.meta.url);
  if (name !== "bare") {
    module.searchParams.set("root", roots[name]);
    return await modules[name].startWorkerServer({ module, workers, config: null, version: "ab", port: 0 });
  }
  const threads = Array.from({ length: workers }, () => new Worker(module, { type: "module" }));
  const ask = (thread: Worker, message: unknown) =>
    new Promise<unknown>((resolve) => {
      thread.onmessage = (event) => resolve(event.data);
      thread.postMessage(message);
    });
  let port = 0;
  for (const thread of threads) port = await ask(thread, { port }) as number;
  return {
    url: `http://localhost:${port}`,
    shutdown: async () => {
      await Promise.all(threads.map((thread) => ask(thread, "stop")));
      threads.forEach((thread) => thread.terminate());
    },
  };
}

const names = ["other", "this", "bare"];
const sums = new Map<string, { us: number; decisions: number }>();
for (let round = -1; round < rounds; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    const server = await start(name);
    // One thread's CPU, or with workers the process's (less the client's, below).
    const cpu = (since?: { user: number; system: number }) =>
      workers > 0 ? process.cpuUsage(since) : process.threadCpuUsage(since);
    let before = cpu();
    let used = 0;
    const { result, clientCpuUs } = await loadInWorker(server.url, { sessions: 50, seconds }, {
      onStart: () => before = cpu(),
      onEnd: () => {
        const after = cpu(before);
        used = after.user + after.system;
      },
    });
    if (workers > 0) used -= clientCpuUs;
    await server.shutdown();
    if (round < 0) continue;
    const sum = sums.get(name) ?? { us: 0, decisions: 0 };
    sums.set(name, { us: sum.us + used, decisions: sum.decisions + result.decisions });
    console.log(`round ${round} ${name}: ${(used / result.decisions).toFixed(1)} us per decision`);
  }
}
const per = (name: string) => sums.get(name)!.us / sums.get(name)!.decisions;
for (const name of names) {
  console.log(
    `${name}: ${per(name).toFixed(1)} us of server CPU per decision, ${
      (per(name) - per("bare")).toFixed(1)
    } above bare`,
  );
}
console.log(
  `this/other: ${(per("this") / per("other")).toFixed(3)}; above bare: ${
    ((per("this") - per("bare")) / (per("other") - per("bare"))).toFixed(3)
  }; load average ${Deno.loadavg().join(", ")}`,
);
