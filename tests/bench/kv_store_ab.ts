/**
 * The KV store alone, A/B: this checkout's `openStore` on a KV file against
 * another checkout's (`git archive main | tar -x -C DIR`), under the serve
 * bench's store work without HTTP or a guard: 50 sessions at once, each step
 * appending a 3 KB tool output with its audit event, reading the session's
 * next position (as a decision's sync does) and writing a decision's audit
 * event. Alternating rounds of `seconds` after a warm-up second each, on a
 * fresh file each; prints CPU per step by thread (`main`: the JavaScript
 * thread; `sqlite`: Deno KV's SQLite thread, `sw-0`; `v8`: V8's helper
 * threads) from `/proc/self/task` (Linux), Deno KV commits and point-read
 * calls (`getMany`) per step, and the medians. Run with
 * `deno run --unstable-kv --allow-all --v8-flags=--max-semi-space-size=4 tests/bench/kv_store_ab.ts OTHER_CHECKOUT [rounds] [seconds]`
 * (Deno reads `/proc/self` only with every permission).
 *
 * @module
 */
import { Guard } from "../../guard/mod.ts";
import { benchOutput, benchPolicy } from "../../adapters/cli/bench/serve_load.ts";
import type { AuditEvent } from "../../adapters/audit/mod.ts";
import type { PabStore } from "../../adapters/store/mod.ts";

const other = Deno.args[0];
if (!other) throw new Error("Give the other checkout's directory: tests/bench/kv_store_ab.ts DIR [rounds] [seconds]");
const rounds = Number(Deno.args[1] ?? 6);
const seconds = Number(Deno.args[2] ?? 4);
const SESSIONS = 50;
const AT = "2026-12-02T01:00:00.000Z";
const roots: Record<string, string> = {
  other: new URL(`file://${Deno.realPathSync(other)}/adapters/store/mod.ts`).href,
  this: new URL("../../adapters/store/mod.ts", import.meta.url).href,
};
type Open = (location: string) => Promise<PabStore>;
const opens: Record<string, Open> = {};
for (const [name, url] of Object.entries(roots)) opens[name] = (await import(url)).openStore;

// A real decision of the bench's policy, for the decision's audit event.
const guard = new Guard(benchPolicy());
guard.user("Write to user0@corp.example");
guard.record("read_inbox", benchOutput(0, 0, 3000));
const decision = guard.decide("send_email", { to: "carol0.1@corp.example" });

// Deno KV calls, counted for both checkouts (one increment each).
const calls = { commits: 0, reads: 0 };
const atomic = Deno.AtomicOperation.prototype;
const commit = atomic.commit;
atomic.commit = function (this: Deno.AtomicOperation) {
  calls.commits++;
  return commit.call(this);
};
const kvProto = Deno.Kv.prototype;
const getMany = kvProto.getMany;
kvProto.getMany = function (this: Deno.Kv, ...args: Parameters<Deno.Kv["getMany"]>) {
  calls.reads++;
  return getMany.apply(this, args);
} as Deno.Kv["getMany"];

/** CPU ticks (1/100 s) by thread name, summed. */
function threads(): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const entry of Deno.readDirSync("/proc/self/task")) {
    try {
      const stat = Deno.readTextFileSync(`/proc/self/task/${entry.name}/stat`);
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(name, (ticks.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ticks;
}

async function steps(store: PabStore, ids: readonly string[], next: number[], ms: number): Promise<number> {
  let done = 0;
  const deadline = performance.now() + ms;
  await Promise.all(ids.map(async (id, i) => {
    while (performance.now() < deadline) {
      const output = benchOutput(i, next[i], 3000);
      const recorded = { kind: "result", tool: "read_inbox", args: {}, output, at: AT } as unknown as AuditEvent;
      const input = { kind: "result", tool: "read_inbox", args: {}, output } as const;
      if (!await store.appendInput(id, next[i], input, [recorded])) throw new Error(`Position ${next[i]} was taken`);
      next[i]++;
      await store.inputs(id, next[i]);
      await store.writeAuditEvents(id, [{ kind: "decision", decision, at: AT } as unknown as AuditEvent]);
      done++;
    }
  }));
  return done;
}

const figures = new Map<string, Record<string, number[]>>();
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 ? ["this", "other"] : ["other", "this"]) {
    const dir = await Deno.makeTempDir({ prefix: "pab_kv_ab_" });
    const store = await opens[name](`${dir}/ab.kv`);
    try {
      const ids = Array.from({ length: SESSIONS }, (_, i) => `s_${i}_${crypto.randomUUID().slice(0, 8)}`);
      for (const id of ids) await store.createSession({ id, ledger: id, created: AT });
      const next = ids.map(() => 0);
      await steps(store, ids, next, 1000);
      const before = threads();
      calls.commits = calls.reads = 0;
      const count = await steps(store, ids, next, seconds * 1000);
      const after = threads();
      const us = (thread: string) =>
        Math.round(((after.get(thread) ?? 0) - (before.get(thread) ?? 0)) * 10_000 / count);
      let all = 0;
      for (const [thread, ticks] of after) all += ticks - (before.get(thread) ?? 0);
      const row = {
        perSecond: Math.round(count / seconds),
        main: us("deno"),
        sqlite: us("sw-0"),
        v8: us("V8 DefaultWorke"),
        process: Math.round(all * 10_000 / count),
        commitsPer100: Math.round(calls.commits * 100 / count),
        readCallsPer100: Math.round(calls.reads * 100 / count),
      };
      const load = Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
      console.log(name.padEnd(5), JSON.stringify(row), "load", load);
      const sums = figures.get(name) ?? {};
      for (const [key, value] of Object.entries(row)) (sums[key] ??= []).push(value);
      figures.set(name, sums);
    } finally {
      store.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [name, sums] of figures) {
  console.log(`median ${name}:`, Object.entries(sums).map(([key, values]) => `${key} ${median(values)}`).join(", "));
}
