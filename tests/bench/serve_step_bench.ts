/**
 * One `pab serve` step without HTTP, part by part: the guard recording a
 * 3,000-character tool output and deciding a call, then the same step on a
 * session host over an in-memory store and over a KV file (one step at a
 * time), and the audit chain's linking of the step's records alone, and
 * the server's CPU per step with 50 sessions stepping at once (no HTTP).
 * Prints microseconds per step. Run with
 * `deno run --unstable-kv --allow-read --allow-write=/tmp tests/bench/serve_step_bench.ts [steps] [engine|memory|kv|concurrent]`
 * (add `--cpu-prof` to see where a step goes).
 *
 * @module
 */
import { Guard } from "../../guard/mod.ts";
import { benchOutput, benchPolicy, engineSteps } from "../../adapters/cli/bench/serve_load.ts";
import { SessionHost } from "../../adapters/serve/mod.ts";
import { openStore, type PabStore } from "../../adapters/store/mod.ts";
import { type AuditRecord, linkRecord } from "../../adapters/audit/mod.ts";
import process from "node:process";

const steps = Number(Deno.args[0] ?? 2000);
const only = Deno.args[1];
const policy = benchPolicy();

function engine(): { recordUs: number; decideUs: number; recordProseUs: number } {
  const { recordingMs: record, decisionMs: decide } = engineSteps(policy, steps, 3000);
  // The same length of plain prose, for comparison: the bench's output names an address, a link, a phone or a ticket
  // number every few words.
  const prose = new Guard(policy);
  prose.user("Write to user0@corp.example");
  let plain = 0;
  for (let step = 0; step < steps; step++) {
    const text = PROSE.slice(step % 50, (step % 50) + 3000);
    const at = performance.now();
    prose.record("read_inbox", text);
    plain += performance.now() - at;
  }
  return { recordUs: per(record), decideUs: per(decide), recordProseUs: per(plain) };
}

const PROSE = "please review the quarterly numbers before friday and send the summary to the team lead "
  .repeat(40);

async function hosted(store: PabStore, count = steps): Promise<{ stepUs: number; hashUs: number }> {
  const host = new SessionHost(policy, store);
  const id = await host.create();
  await host.message(id, "user", "Write to user0@corp.example");
  const start = performance.now();
  for (let step = 0; step < count; step++) {
    await host.result(id, { tool: "read_inbox", args: {}, output: benchOutput(1, step, 3000) });
    await host.decide(id, { tool: "send_email", args: { to: `carol1.${step % 7}@corp.example` } });
  }
  const stepUs = ((performance.now() - start) * 1000) / count;
  const chain = await store.audit(id);
  const hashStart = performance.now();
  chain.reduce<AuditRecord | undefined>((head, record) => linkRecord(id, head, record.event), undefined);
  return { stepUs: Math.round(stepUs), hashUs: Math.round(((performance.now() - hashStart) * 1000) / count) };
}

/** `sessions` sessions stepping at once on one host for `seconds`: the server's CPU per step, without HTTP. */
async function concurrent(
  store: PabStore,
  sessions = 50,
  seconds = 5,
): Promise<{ steps: number; cpuUsPerStep: number }> {
  const host = new SessionHost(policy, store);
  const ids = await Promise.all(Array.from({ length: sessions }, () => host.create()));
  await Promise.all(ids.map((id, i) => host.message(id, "user", `Write to user${i}@corp.example`)));
  let steps = 0;
  const deadline = performance.now() + seconds * 1000;
  const before = process.cpuUsage();
  await Promise.all(ids.map(async (id, i) => {
    for (let step = 0; performance.now() < deadline; step++) {
      await host.result(id, { tool: "read_inbox", args: {}, output: benchOutput(i, step, 3000) });
      await host.decide(id, { tool: "send_email", args: { to: `carol${i}.${step % 7}@corp.example` } });
      steps++;
    }
  }));
  const cpu = process.cpuUsage(before);
  return { steps, cpuUsPerStep: Math.round((cpu.user + cpu.system) / steps) };
}

function per(ms: number): number {
  return Math.round((ms * 1000) / steps);
}

if (!only || only === "engine") console.log("engine", engine());
if (!only || only === "memory") {
  const memory = await openStore(":memory:");
  console.log("host on memory", await hosted(memory));
  memory.close();
}
if (!only || only === "concurrent") {
  const memory = await openStore(":memory:");
  console.log("50 sessions at once on memory", await concurrent(memory));
  memory.close();
  const dir = await Deno.makeTempDir({ prefix: "pab-step-" });
  const kv = await openStore(`${dir}/step.kv`);
  console.log("50 sessions at once on a KV file", await concurrent(kv));
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
if (!only || only === "kv") {
  const dir = await Deno.makeTempDir({ prefix: "pab-step-" });
  const kv = await openStore(`${dir}/step.kv`);
  console.log("host on KV file", await hosted(kv, Math.min(steps, 500)));
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
