/**
 * pab's command line: the subcommands (`check`, `lint`, `demo`, `bench`),
 * each a function of its arguments and an {@linkcode Io} that returns an exit
 * code. `cli.ts` at the top of the repository is the thin shell around them.
 *
 * @example Run `pab check` on the e-mail hijack, with output collected in memory
 * ```ts ignore
 * import { memoryIo, runCli } from "./mod.ts";
 * const memory = memoryIo({ files: { "policy.yaml": "...", "hijack.json": "..." } });
 * const code = await runCli(["check", "--policy", "policy.yaml", "hijack.json"], memory.io, { version: "0.1.0" });
 * console.log(code, memory.stdout());
 * ```
 *
 * @module
 */
export { type Bench, benchCommand, BENCHES, runBench } from "./bench.ts";
export { checkCommand } from "./check.ts";
export { IoError, UsageError } from "./cli_error.ts";
export type { Command } from "./command.ts";
export { demoCommand } from "./demo.ts";
export { denoIo, fileProblem, type Io, type TextWriter } from "./io.ts";
export { lintCommand } from "./lint.ts";
export { loadPolicyFile, policyFormatOf } from "./load_policy.ts";
export { type MemoryIo, memoryIo, type MemoryIoOptions } from "./memory_io.ts";
export { type OptionSpec, parseArgs, type ParsedArgs } from "./parse_args.ts";
export { reportError } from "./report_error.ts";
export { type CliInfo, COMMANDS, runCli } from "./run_cli.ts";
export { type Style, styleFor } from "./style.ts";
