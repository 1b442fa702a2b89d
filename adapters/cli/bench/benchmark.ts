/**
 * What a benchmark is to `pab bench`: the registry in
 * `adapters/cli/commands/bench.ts` loads each one by name, and each benchmark
 * module implements it, so neither imports the other.
 *
 * @module
 */
import type { Io } from "../io/io.ts";

/**
 * A benchmark `pab bench NAME` can run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Bench } from "./benchmark.ts";
 * const tiny: Bench = { summary: "A tiny benchmark", run: () => Promise.resolve(0) };
 * assert.equal(tiny.summary, "A tiny benchmark");
 * ```
 */
export interface Bench {
  /** One line for the list of benchmarks. */
  readonly summary: string;
  /** Run it with the words after its name; returns the exit code. */
  run(args: string[], io: Io): Promise<number>;
}
