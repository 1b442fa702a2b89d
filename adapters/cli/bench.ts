/**
 * `pab bench NAME`: run a benchmark. Benchmarks register themselves in
 * {@linkcode BENCHES}.
 *
 * @module
 */
import { closestWord } from "../trace/_closest_word.ts";
import { agentdojoBench } from "./bench_agentdojo.ts";
import { officeBench } from "./bench_office.ts";
import { perfBench } from "./bench_perf.ts";
import { UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import type { Io } from "./io.ts";
import { reportError } from "./report_error.ts";

/**
 * A benchmark `pab bench NAME` can run.
 *
 * @example
 * ```ts
 * import type { Bench } from "./bench.ts";
 * const tiny: Bench = { summary: "A tiny benchmark", run: () => Promise.resolve(0) };
 * ```
 */
export interface Bench {
  /** One line for the list of benchmarks. */
  readonly summary: string;
  /** Run it with the words after its name; returns the exit code. */
  run(args: string[], io: Io): Promise<number>;
}

/**
 * The benchmarks, by name. To add one, import it here and add an entry, such
 * as `office: officeBench` (see `adapters/cli/bench_office.ts`).
 *
 * @example
 * ```ts
 * import { BENCHES } from "./bench.ts";
 * console.log(Object.keys(BENCHES)); // the names `pab bench` accepts
 * ```
 */
export const BENCHES: Readonly<Record<string, Bench>> = Object.freeze({
  office: officeBench,
  agentdojo: agentdojoBench,
  perf: perfBench,
});

/**
 * `pab bench`: dispatch to a benchmark by name; list them when the name is
 * missing or unknown.
 *
 * @example
 * ```ts
 * import { benchCommand } from "./bench.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo();
 * console.log(await benchCommand.run(["nope"], memory.io)); // 2
 * ```
 */
export const benchCommand: Command = {
  name: "bench",
  summary: "Run a benchmark (pab bench --help lists them)",
  get help() {
    return helpFor(BENCHES);
  },
  run: (args, io) => runBench(args, io, BENCHES),
};

/**
 * Dispatch to a benchmark in `benches`. Exported so that tests can pass their own registry.
 *
 * @example
 * ```ts
 * import { runBench } from "./bench.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo();
 * const benches = { tiny: { summary: "A tiny benchmark", run: async () => 0 } };
 * console.log(await runBench(["tiny"], memory.io, benches)); // 0
 * ```
 */
export async function runBench(args: string[], io: Io, benches: Readonly<Record<string, Bench>>): Promise<number> {
  try {
    const [name, ...rest] = args;
    if (name === "--help" || name === "-h") {
      await io.stdout.write(helpFor(benches));
      return 0;
    }
    if (name === undefined) throw new UsageError(`name a benchmark: ${listOf(benches)}`, "bench");
    if (!Object.hasOwn(benches, name)) {
      const guess = closestWord(name, Object.keys(benches));
      throw new UsageError(
        `unknown benchmark "${name}"${guess ? ` (did you mean "${guess}"?)` : ""}; ${listOf(benches)}`,
        "bench",
      );
    }
    return await benches[name].run(rest, io);
  } catch (error) {
    return await reportError(error, io);
  }
}

function listOf(benches: Readonly<Record<string, Bench>>): string {
  const names = Object.keys(benches);
  return names.length ? `the benchmarks are ${names.join(", ")}` : "no benchmarks are registered in this build";
}

function helpFor(benches: Readonly<Record<string, Bench>>): string {
  const names = Object.keys(benches);
  const width = Math.max(0, ...names.map((name) => name.length));
  const list = names.length
    ? names.map((name) => `  ${name.padEnd(width)}  ${benches[name].summary}`).join("\n")
    : "  (none are registered in this build)";
  return `Usage: pab bench NAME [OPTIONS]

Run a benchmark. pab bench NAME --help shows its options.

Benchmarks:
${list}

Exit codes: those of the benchmark; 2 when NAME is missing or unknown.
`;
}
