/**
 * pab's command line: the subcommands (`check`, `lint`, `demo`, `bench`,
 * `generate`, `playground`, `mcp`, `serve`, `audit`, `hook`), each declared once with {@linkcode defineCommand} and run as a
 * function of its arguments and an {@linkcode Io} that returns an exit code.
 * `cli.ts` at the top of the repository is the thin shell around them.
 *
 * This door exports what every command shares and the registry
 * ({@linkcode COMMANDS}), not the commands themselves: each command's module
 * is loaded only when it runs, so that `pab check` does not load the MCP SDK,
 * the playground or the HTTP server. Import a command from its own module
 * (`adapters/cli/commands/check.ts`), as tests do.
 *
 * The folder, by role: `commands/` holds one file per subcommand; `shell/`
 * what runs them (argument parsing, {@linkcode defineCommand}, the registry,
 * the errors and how they are reported); `io/` the files, streams and terminal
 * a command touches ({@linkcode Io}, reading inputs, writing outputs, style);
 * `policy/` loading and linting policies; `draft/` drafting them from tool
 * definitions (`pab generate`); `replay/` reading traces and rendering what
 * `pab check` decided; `mcp/`, `hook/` and `audit/` the pieces of those
 * commands; `bench/` the benchmarks `pab bench` loads by name; `demo/` the
 * scripted demo.
 *
 * @example Run `pab check` on a trace, with output collected in memory
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryIo, runCli } from "./mod.ts";
 * const memory = memoryIo({
 *   files: {
 *     "p.yaml": "version: 1\ntools:\n  read_inbox: {output: untrusted}\n",
 *     "t.jsonl": '{"pab":"trace","schemaVersion":1,"id":"t"}\n{"type":"call","id":"c1","tool":"read_inbox","args":{}}\n',
 *   },
 * });
 * assert.equal(await runCli(["check", "--policy", "p.yaml", "t.jsonl"], memory.io, { version: "0.1.0" }), 0);
 * assert.match(memory.stdout(), /^ALLOW {3}t#c1 read_inbox\(\)\n/);
 * ```
 *
 * @module
 */
export type { Bench } from "./bench/benchmark.ts";
export { benchCommand, BENCHES, runBench } from "./commands/bench.ts";
export {
  CLI_ERROR_CODES,
  type CliErrorCode,
  DependencyError,
  EncodingError,
  InputTooLargeError,
  IoError,
  PermissionError,
  UnsafePathError,
  UsageError,
} from "./shell/cli_error.ts";
export type { Command } from "./shell/command.ts";
export {
  type ArgumentsDef,
  type CommandDef,
  type CommandInput,
  defineCommand,
  helpText,
  type OptionDef,
} from "./shell/define_command.ts";
export { escapeControl } from "./io/escape_text.ts";
export { denoIo, fileProblem, type Io, isStdin, type TextWriter } from "./io/io.ts";
export type { LintIssue, LintResult } from "./policy/lint_policy.ts";
export { type MemoryIo, memoryIo, type MemoryIoOptions } from "./io/memory_io.ts";
export { type OptionSpec, parseArgs, type ParsedArgs } from "./shell/parse_args.ts";
export { DEFAULT_MAX_BYTES, expandInputs, readInputChunks, readInputText } from "./io/read_input.ts";
export { reportError } from "./shell/report_error.ts";
export { type CliInfo, type CommandEntry, COMMANDS, runCli } from "./shell/run_cli.ts";
export { type Style, styleFor } from "./io/style.ts";
