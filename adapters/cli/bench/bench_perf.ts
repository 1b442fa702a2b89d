/**
 * `pab bench perf`: how provenance checks scale with the context (e-mails, JSON
 * tool outputs and web pages from 10 KB to 10 MB), next to a naive rescan, and
 * what recording costs. See the usage text for the cases.
 *
 * @module
 */
import process from "node:process";
import { compilePolicy, Guard } from "../../../guard/mod.ts";
import { EvidenceIndex, tokenize } from "../../../harvest/mod.ts";
import type { Bench } from "./benchmark.ts";
import { UsageError } from "../shell/cli_error.ts";
import type { Io } from "../io/io.ts";
import { type CommandInput, defineCommand } from "../shell/define_command.ts";
import {
  context,
  makeOutputs,
  RARE,
  RARE_UNTRUSTED,
  RECURRING,
  RECURRING_UNTRUSTED,
  type Source,
} from "./perf_workload.ts";
import { seededRandom } from "./seeded_random.ts";

const SIZES = [10_000, 100_000, 1_000_000, 10_000_000] as const;
const CASES = [
  ["recurring, allowed", RECURRING, "allow"],
  ["rare, allowed", RARE, "allow"],
  ["recurring, blocked", RECURRING_UNTRUSTED, "block"],
  ["rare, blocked", RARE_UNTRUSTED, "block"],
].map(([name, to, outcome]) => ({ name, to, outcome }));
const USER_TEXT = `Read my inbox and send the summary to ${RECURRING}, and a copy to ${RARE}.`;
const BODY = "Summary: the quarterly numbers are in, see you tomorrow.";
const UNTRUSTED = { output: "untrusted", on_tainted: "allow" };
const SEND = { on_tainted: "allow", args: { to: { require: "trusted" }, body: { embedded: "trusted" } } };
const POLICY = compilePolicy({
  version: 1,
  tools: { read_inbox: UNTRUSTED, search_records: UNTRUSTED, get_webpage: UNTRUSTED, send_email: SEND },
});

/** The bench. */
export const perfBench: Bench = defineCommand({
  name: "bench perf",
  summary: "Decide latency from 10 KB to 10 MB of context, record throughput and heap, vs a naive rescan",
  description: `Measure Guard.decide and EvidenceIndex.vouch at 10 KB, 100 KB, 1 MB and 10 MB
of mixed context for an address that recurs in every source (~140 per MB) and
a rare one, allowed and blocked; a naive rescan (up to 1 MB); record throughput
and heap per recorded MB (1 KB, 100 KB, 10 MB outputs, each after a warm-up
over 4 MB of other outputs of the same kind; the median of 5 recordings);
planRecovery at 1 MB.
Heap figures need a forced GC: deno run --v8-flags=--expose-gc cli.ts bench perf`,
  options: {
    json: { type: "boolean", description: "Print the figures as JSON (schemaVersion 1)" },
    "max-mb": { type: "string", value: "N", description: "Largest context in MB: 0.01, 0.1, 1 or 10 (default 10)" },
  },
  exitCodes: "0 measured (targets met or not: read them); 2 bad usage.",
  run: runPerf,
});

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

type Latency = { readonly p50: number; readonly p99: number };

/**
 * Microseconds per call, `samples` calls after as many warm-up calls and (when the process allows it) a collection:
 * the steady state, not the collector's work left over from building the context.
 */
function latency(samples: number, call: () => void): Latency {
  for (let i = 0; i < samples; i++) call();
  (globalThis as { gc?: () => void }).gc?.();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    call();
    times.push((performance.now() - start) * 1000);
  }
  return { p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)) };
}

const round = (value: number): number => Math.round(value * 100) / 100;

/** The naive check: tokenize every source again and look for the value's token run. */
function naiveFind(sources: readonly Source[], value: string): number[] {
  const words = tokenize(value);
  const found: number[] = [];
  sources.forEach((source, id) => {
    const tokens = tokenize(source.output);
    for (let start = 0; start + words.length <= tokens.length; start++) {
      if (words.every((word, k) => tokens[start + k] === word)) return void found.push(id);
    }
  });
  return found;
}

/**
 * Bytes in use: the V8 heap and the buffers outside it (the index's typed arrays live there). Dead buffers are
 * released in the background and accounted at the next collection, so collect and pause until the figure stops
 * falling.
 */
async function heapUsed(): Promise<number> {
  const collect = (globalThis as { gc?: () => void }).gc;
  const current = () => Deno.memoryUsage().heapUsed + Deno.memoryUsage().external;
  if (!collect) return current();
  let last = Infinity;
  for (let round = 0; round < 20; round++) {
    // A collection finishes releasing the buffers the previous one found dead: collect twice, pausing after each.
    for (let pass = 0; pass < 2; pass++) {
      collect();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const now = current();
    if (now >= last - 4096) return Math.min(now, last);
    last = now;
  }
  return last;
}

interface SizeResult {
  readonly bytes: number;
  readonly sources: number;
  readonly recurringSources: number;
  readonly decide: Record<string, Latency>;
  readonly index: Record<string, Latency>;
  readonly naive?: Latency;
  readonly planner?: Latency;
}

function measureSize(bytes: number): SizeResult {
  const sources = context(bytes);
  const guard = new Guard(POLICY);
  guard.user(USER_TEXT);
  for (const source of sources) guard.record(source.tool, source.output);
  const index = new EvidenceIndex();
  index.addText(0, USER_TEXT, 2);
  sources.forEach((source, i) => {
    // Recorded once: untrusted JSON by its keys and decoded leaves, text as text.
    if (source.output.startsWith("{")) index.addStructured(i + 1, JSON.parse(source.output), 0);
    else index.addText(i + 1, source.output, 0);
  });
  const samples = bytes >= 10_000_000 ? 300 : 1000;
  const decide: Record<string, Latency> = {};
  const direct: Record<string, Latency> = {};
  for (const { name, to, outcome } of CASES) {
    const got = guard.decide("send_email", { to, body: BODY }).outcome;
    if (got !== outcome) throw new Error(`Cannot bench ${bytes} bytes: ${name} was "${got}", expected "${outcome}"`);
    decide[name] = latency(samples, () => void guard.decide("send_email", { to, body: BODY }));
    direct[name] = latency(samples * 3, () => void index.vouch(to, () => true, 2));
  }
  const recurringSources = index.find(RECURRING).length;
  const naive = bytes <= 1_000_000
    ? latency(bytes <= 100_000 ? 20 : 5, () => void naiveFind(sources, RARE_UNTRUSTED))
    : undefined;
  const planner = bytes === 1_000_000
    ? latency(50, () => void guard.planRecovery("send_email", { to: RARE_UNTRUSTED, body: BODY }))
    : undefined;
  return { bytes, sources: sources.length, recurringSources, decide, index: direct, naive, planner };
}

interface RecordResult {
  readonly kind: "text" | "json";
  readonly outputBytes: number;
  readonly mbPerSecond: number;
  readonly heapMbPerMb: number;
  readonly indexMbPerSecond: number;
  /** Per second of the process's CPU time: what a machine to itself would give. */
  readonly cpuMbPerSecond: number;
  readonly indexCpuMbPerSecond: number;
  readonly indexHeapMbPerMb: number;
}

/** How much output of each kind is recorded before the measured recording, so that the JIT has settled. */
const WARM_UP_BYTES = 4_000_000;

/** Record WARM_UP_BYTES of other outputs of the same kind and size, keeping nothing (so no heap figure sees it). */
function warmUp(kind: "text" | "json", outputBytes: number): void {
  const tool = kind === "text" ? "read_inbox" : "search_records";
  const guard = new Guard(POLICY);
  const index = new EvidenceIndex();
  makeOutputs(kind, outputBytes, WARM_UP_BYTES, seededRandom(outputBytes + 1)).forEach((output, id) => {
    guard.record(tool, output);
    if (kind === "text") index.addText(id, output, 0);
    else index.addStructured(id, JSON.parse(output), 0);
  });
}

/**
 * Steady-state throughput: one warm-up pass over other outputs of the same kind and size (so the JIT has compiled
 * the recording path for them, as in a long session), then a fresh guard and a fresh index record the measured ones.
 */
async function measureRecord(kind: "text" | "json", outputBytes: number, budget: number): Promise<RecordResult> {
  const total = Math.max(outputBytes, budget);
  const tool = kind === "text" ? "read_inbox" : "search_records";
  warmUp(kind, outputBytes);
  const outputs = makeOutputs(kind, outputBytes, total, seededRandom(outputBytes));
  const recorded = outputs.reduce((sum, output) => sum + output.length, 0);
  const guard = await recording(recorded, () => {
    const guard = new Guard(POLICY);
    for (const output of outputs) guard.record(tool, output);
    return guard;
  });
  // The index alone, recording each output once (JSON by its keys and decoded leaves).
  const index = await recording(recorded, () => {
    const index = new EvidenceIndex();
    outputs.forEach((output, id) => {
      if (kind === "text") index.addText(id, output, 0);
      else index.addStructured(id, JSON.parse(output), 0);
    });
    return index;
  });
  return {
    kind,
    outputBytes,
    mbPerSecond: guard.mbPerSecond,
    cpuMbPerSecond: guard.cpuMbPerSecond,
    heapMbPerMb: guard.heapMbPerMb,
    indexMbPerSecond: index.mbPerSecond,
    indexCpuMbPerSecond: index.cpuMbPerSecond,
    indexHeapMbPerMb: index.heapMbPerMb,
  };
}

/** How many times each recording is timed; the median is reported. */
const RECORD_REPEATS = 5;

/**
 * Throughput and retained memory of `work`, which records `recorded` characters into something new and returns
 * it. The heap figure comes from the first run (a collection before and after); the rates are the medians of
 * RECORD_REPEATS runs, each into a fresh guard or index, as the collector's state differs from run to run.
 */
async function recording(
  recorded: number,
  work: () => unknown,
): Promise<{ mbPerSecond: number; cpuMbPerSecond: number; heapMbPerMb: number }> {
  const megabytes = recorded / 1e6;
  const wall: number[] = [];
  const cpu: number[] = [];
  let heap = 0;
  for (let run = 0; run < RECORD_REPEATS; run++) {
    const before = run === 0 ? await heapUsed() : 0;
    const [start, cpuStart] = [performance.now(), process.cpuUsage()];
    const kept = work();
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpuStart);
    if (run === 0) heap = await heapUsed() - before;
    if (!kept) throw new Error("Cannot measure a recording that keeps nothing");
    wall.push(megabytes / seconds);
    cpu.push(megabytes / ((used.user + used.system) / 1e6));
  }
  return {
    mbPerSecond: round(percentile(wall, 0.5)),
    cpuMbPerSecond: round(percentile(cpu, 0.5)),
    heapMbPerMb: round(Math.max(0, heap) / recorded),
  };
}

/** Every figure of one run. */
interface PerfResult {
  readonly schemaVersion: 1;
  readonly gcForced: boolean;
  /** Process CPU time over wall time for the whole run: far below 1 on a busy machine, where latencies stretch. */
  readonly cpuShare: number;
  readonly sizes: readonly SizeResult[];
  readonly record: readonly RecordResult[];
  readonly ratios: Readonly<Record<string, number>>;
}

async function measure(maxBytes: number): Promise<PerfResult> {
  const [cpuBefore, wallBefore] = [process.cpuUsage(), performance.now()];
  const sizes = SIZES.filter((size) => size <= maxBytes).map(measureSize);
  const record: RecordResult[] = [];
  for (const kind of ["text", "json"] as const) {
    for (const size of [1_000, 100_000, 10_000_000].filter((size) => size <= Math.max(maxBytes, 1_000_000))) {
      record.push(await measureRecord(kind, size, maxBytes >= 1_000_000 ? 2_000_000 : 100_000));
    }
  }
  const first = sizes[0];
  const last = sizes[sizes.length - 1];
  const oneMb = sizes.find((size) => size.bytes === 1_000_000);
  const ratios: Record<string, number> = {};
  const span = `${label(last.bytes)} / ${label(first.bytes)}`;
  for (const { name } of CASES) {
    ratios[`decide p50 ${span}, ${name}`] = round(last.decide[name].p50 / first.decide[name].p50);
    ratios[`index p50 ${span}, ${name}`] = round(last.index[name].p50 / first.index[name].p50);
  }
  const rare = "rare, blocked";
  if (oneMb?.naive) {
    ratios[`naive rescan / decide p50 at 1 MB, ${rare}`] = round(oneMb.naive.p50 / oneMb.decide[rare].p50);
  }
  if (oneMb?.naive) {
    ratios[`naive rescan / index p50 at 1 MB, ${rare}`] = round(oneMb.naive.p50 / oneMb.index[rare].p50);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuShare = round((cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore));
  const gcForced = typeof (globalThis as { gc?: unknown }).gc === "function";
  return { schemaVersion: 1, cpuShare, gcForced, sizes, record, ratios };
}

function label(bytes: number): string {
  return bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes / 1000} KB`;
}

function formatPerf(result: PerfResult): string {
  const lines = ["decide latency in us, p50 / p99: Guard.decide | EvidenceIndex.vouch"];
  for (const size of result.sizes) {
    lines.push(`${label(size.bytes)} (${size.sources} sources, the recurring address in ${size.recurringSources}):`);
    for (const { name } of CASES) {
      const guard = size.decide[name];
      const index = size.index[name];
      lines.push(`  ${name.padEnd(20)} ${`${guard.p50} / ${guard.p99}`.padEnd(20)} | ${index.p50} / ${index.p99}`);
    }
    if (size.naive) lines.push(`  naive rescan         ${size.naive.p50} / ${size.naive.p99}`);
    if (size.planner) lines.push(`  planRecovery         ${size.planner.p50} / ${size.planner.p99}`);
  }
  lines.push("", `record (heap ${result.gcForced ? "after a forced GC" : "without a forced GC: an upper bound"}):`);
  for (const row of result.record) {
    const size = label(row.outputBytes).padEnd(7);
    lines.push(
      `  ${row.kind.padEnd(4)} outputs of ${size} Guard.record ${row.mbPerSecond} MB/s, ${row.heapMbPerMb} MB heap ` +
        `per MB, ${row.cpuMbPerSecond} MB per CPU second | index, once: ${row.indexMbPerSecond} MB/s, ` +
        `${row.indexHeapMbPerMb} MB per MB, ${row.indexCpuMbPerSecond} MB per CPU second`,
    );
  }
  lines.push(
    "",
    `ratios (one run; the process had ${Math.round(result.cpuShare * 100)}% of a core over its wall time):`,
  );
  for (const [name, value] of Object.entries(result.ratios)) lines.push(`  ${name}: ${value}`);
  return `${lines.join("\n")}\n`;
}

async function runPerf(input: CommandInput, io: Io): Promise<number> {
  const maxMbText = input.string("max-mb");
  const maxMb = maxMbText === undefined ? 10 : Number(maxMbText);
  if (![0.01, 0.1, 1, 10].includes(maxMb)) {
    throw new UsageError(`--max-mb must be 0.01, 0.1, 1 or 10, not "${maxMbText}"`, "bench perf");
  }
  const result = await measure(maxMb * 1_000_000);
  await io.stdout.write(input.flag("json") ? `${JSON.stringify(result)}\n` : formatPerf(result));
  return 0;
}
