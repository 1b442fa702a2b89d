/**
 * `pab serve`'s own request path, alone and A/B: `startServer` over a stub
 * host (it answers each call at once with a fixed decision, so no guard or
 * store runs) from this checkout against the same from another checkout
 * (`git archive main | tar -x -C DIR`), and a bare `Deno.serve` (the HTTP
 * floor), under the bench's load (50 sessions, a 3 KB output then a
 * decision per step), in one process, alternating rounds after a warm-up
 * round. Prints the server thread's CPU time per decision for each, and
 * what each costs above the floor. Run with
 * `deno run --unstable-kv --allow-net=localhost --allow-read --allow-sys=loadavg --v8-flags=--max-semi-space-size=4 tests/bench/serve_path_ab.ts OTHER_CHECKOUT [rounds] [seconds]`.
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

function start(name: string): Pick<RunningServer, "url" | "shutdown"> {
  if (name === "bare") return startBareServer();
  const serve = modules[name];
  // The stub has what the routes call; the rest of a host is never reached.
  const host = stubHost(serve) as unknown as Parameters<ServeModule["startServer"]>[0];
  return serve.startServer(host, { version: "ab", port: 0 });
}

const names = ["other", "this", "bare"];
const sums = new Map<string, { us: number; decisions: number }>();
for (let round = -1; round < rounds; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    const server = start(name);
    let before = process.threadCpuUsage();
    let used = 0;
    const { result } = await loadInWorker(server.url, { sessions: 50, seconds }, {
      onStart: () => before = process.threadCpuUsage(),
      onEnd: () => {
        const after = process.threadCpuUsage(before);
        used = after.user + after.system;
      },
    });
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
