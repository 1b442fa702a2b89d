/**
 * The in-memory store's and the audit chain's share of a `pab serve` step, this checkout against another one, each
 * on a worker thread of its own (its own heap and compiled code), in blocks taken in turn (on a shared machine only
 * such ratios mean much):
 *
 *   git archive main | tar -x -C /tmp/main-src
 *   deno run --allow-read tests/bench/store_step_ab.ts /tmp/main-src [BLOCKS] [STEPS]
 *
 * A step appends a tool's result (the bench's 3,000-character output) with its audit event, and writes a
 * decision's audit event (a guard's decision with a gap), on one of 50 sessions in turn, as `SessionHost` does.
 * Prints the median microseconds per step of each over BLOCKS blocks (default 31) of STEPS steps (default 300),
 * and their ratio (below 1: this checkout is faster).
 *
 * @module
 */
import { Guard } from "../../guard/mod.ts";
import { benchOutput, benchPolicy } from "../../adapters/cli/bench/serve_load.ts";

interface Scope {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(message: unknown): void;
}

if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== "undefined") {
  const scope = globalThis as unknown as Scope;
  let run: (count: number) => Promise<void> = () => Promise.resolve();
  scope.onmessage = async ({ data }) => {
    if (typeof data === "string") {
      run = await stepper(await import(new URL("adapters/store/mod.ts", `file://${data}/`).href));
      await run(300);
      scope.postMessage(0);
    } else {
      const start = performance.now();
      await run(data);
      scope.postMessage(((performance.now() - start) * 1000) / data);
    }
  };
} else {
  const other = Deno.args[0];
  if (!other) throw new TypeError("Cannot compare: give the other checkout's directory");
  const blocks = Number(Deno.args[1] ?? 31);
  const steps = Number(Deno.args[2] ?? 300);
  const roots = { other: Deno.realPathSync(other), this: Deno.realPathSync(new URL("../..", import.meta.url)) };
  const threads = {
    other: new Worker(import.meta.url, { type: "module" }),
    this: new Worker(import.meta.url, { type: "module" }),
  };
  const ask = (thread: Worker, message: unknown) =>
    new Promise<number>((resolve) => {
      thread.onmessage = (event) => resolve(event.data);
      thread.postMessage(message);
    });
  await ask(threads.other, roots.other);
  await ask(threads.this, roots.this);
  const times: Record<string, number[]> = { other: [], this: [] };
  for (let block = 0; block < blocks; block++) {
    for (const name of block % 2 ? ["other", "this"] as const : ["this", "other"] as const) {
      times[name].push(await ask(threads[name], steps));
    }
  }
  threads.other.terminate();
  threads.this.terminate();
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  console.log(
    `store and audit per step: other ${median(times.other).toFixed(1)} us, this ${median(times.this).toFixed(1)} us; ` +
      `this/other ${(median(times.this) / median(times.other)).toFixed(3)}; load average ${Deno.loadavg().join(", ")}`,
  );
}

type StoreModule = typeof import("../../adapters/store/mod.ts");

/** Steps on a fresh store of `module`'s, run `count` at a time. */
async function stepper(module: StoreModule): Promise<(count: number) => Promise<void>> {
  const guard = new Guard(benchPolicy());
  guard.record("read_inbox", "Message from carol1.2@corp.example about the report");
  const decisions = Array.from({ length: 7 }, (_, i) => guard.decide("send_email", { to: `carol1.${i}@corp.example` }));
  const outputs = Array.from({ length: 350 }, (_, i) => benchOutput(i % 50, i, 3000));
  const store = await module.openStore(":memory:");
  const seqs = new Array<number>(50).fill(0);
  let step = 0;
  return async (count) => {
    for (let k = 0; k < count; k++, step++) {
      const session = `s_${step % 50}`;
      const at = new Date().toISOString();
      const input = { kind: "result", tool: "read_inbox", args: {}, output: outputs[step % 350] } as const;
      await store.appendInput(session, seqs[step % 50]++, input, [{ ...input, error: undefined, at }]);
      await store.writeAuditEvents(session, [{ kind: "decision", decision: decisions[step % 7], at }]);
    }
  };
}
