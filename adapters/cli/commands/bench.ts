/**
 * `pab bench NAME`: run a benchmark. Benchmarks register themselves in
 * {@linkcode BENCHES}.
 *
 * @module
 */
import { UsageError } from "../shell/cli_error.ts";
import { closestWord } from "../../../core/mod.ts";
import type { Command } from "../shell/command.ts";
import { type CommandDef, defineCommand } from "../shell/define_command.ts";
import type { Io } from "../io/io.ts";
import type { Bench } from "../bench/benchmark.ts";

/**
 * The benchmarks, by name, each loaded only when it runs. To add one, add an
 * entry with its summary and a literal `import()` of its module, such as
 * `office` (see `adapters/cli/bench/bench_office.ts`); a test keeps each summary equal
 * to the loaded benchmark's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BENCHES } from "./bench.ts";
 * assert.ok(Object.hasOwn(BENCHES, "office"));
 * ```
 */
export const BENCHES: Readonly<Record<string, Bench>> = Object.freeze({
  office: {
    summary: "Six office scenarios against four arms of the guard (APPA's published table)",
    run: async (args, io) => await (await import("../bench/bench_office.ts")).officeBench.run(args, io),
  },
  agentdojo: {
    summary: "AgentDojo v1.2.2 replayed without a model: legitimate tasks and attacks per suite",
    run: async (args, io) => await (await import("../bench/bench_agentdojo.ts")).agentdojoBench.run(args, io),
  },
  "trace-memory": {
    summary: "Peak memory of pab check on a large synthetic trace (target: 200 MB for 50 MB)",
    run: async (args, io) => await (await import("../bench/bench_trace_memory.ts")).traceMemoryBench.run(args, io),
  },
  serve: {
    summary: "Decisions per second through pab serve (3 KB recorded per decision), the time split, soak and scale",
    run: async (args, io) => await (await import("../bench/bench_serve.ts")).serveBench.run(args, io),
  },
  perf: {
    summary: "Decide latency from 10 KB to 10 MB of context, record throughput and heap, vs a naive rescan",
    run: async (args, io) => await (await import("../bench/bench_perf.ts")).perfBench.run(args, io),
  },
});

/**
 * `pab bench`: dispatch to a benchmark by name; list them when the name is
 * missing or unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchCommand } from "./bench.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo();
 * assert.equal(await benchCommand.run(["nope"], memory.io), 2);
 * ```
 */
export const benchCommand: Command = {
  name: "bench",
  summary: "Run a benchmark (pab bench --help lists them)",
  get help() {
    return defineCommand(benchDef(BENCHES)).help;
  },
  run: (args, io) => runBench(args, io, BENCHES),
};

/**
 * Dispatch to a benchmark in `benches`. Exported so that tests can pass their own registry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runBench } from "./bench.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const memory = memoryIo();
 * const benches = { tiny: { summary: "A tiny benchmark", run: () => Promise.resolve(0) } };
 * assert.equal(await runBench(["tiny"], memory.io, benches), 0);
 * ```
 */
export function runBench(args: string[], io: Io, benches: Readonly<Record<string, Bench>>): Promise<number> {
  return defineCommand(benchDef(benches)).run(args, io);
}

function benchDef(benches: Readonly<Record<string, Bench>>): CommandDef {
  const names = Object.keys(benches);
  const width = Math.max(0, ...names.map((name) => name.length));
  const list = names.length
    ? names.map((name) => `  ${name.padEnd(width)}  ${benches[name].summary}`).join("\n")
    : "  (none are registered in this build)";
  return {
    name: "bench",
    summary: "Run a benchmark (pab bench --help lists them)",
    description: `Run a benchmark. pab bench NAME --help shows its options.\n\nBenchmarks:\n${list}`,
    options: {},
    arguments: { name: "NAME", min: 1, max: Infinity, rest: true, missing: `name a benchmark: ${listOf(benches)}` },
    exitCodes: "those of the benchmark; 2 when NAME is missing or unknown.",
    async run(input, io) {
      const [name, ...rest] = input.positionals;
      if (!Object.hasOwn(benches, name)) {
        const guess = closestWord(name, names);
        throw new UsageError(
          `unknown benchmark "${name}"${guess ? ` (did you mean "${guess}"?)` : ""}; ${listOf(benches)}`,
          "bench",
        );
      }
      return await benches[name].run(rest, io);
    },
  };
}

function listOf(benches: Readonly<Record<string, Bench>>): string {
  const names = Object.keys(benches);
  return names.length ? `the benchmarks are ${names.join(", ")}` : "no benchmarks are registered in this build";
}
