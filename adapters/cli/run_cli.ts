/**
 * The `pab` command line: find the subcommand and run it.
 *
 * @module
 */
import { closestWord } from "../../core/mod.ts";
import { auditCommand } from "./audit.ts";
import { benchCommand } from "./bench.ts";
import { checkCommand } from "./check.ts";
import { UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import { demoCommand } from "./demo.ts";
import { generateCommand } from "./generate.ts";
import { hookCommand } from "./hook.ts";
import type { Io } from "./io.ts";
import { lintCommand } from "./lint.ts";
import { mcpCommand } from "./mcp.ts";
import { playgroundCommand } from "./playground.ts";
import { reportError } from "./report_error.ts";
import { serveCommand } from "./serve.ts";

/**
 * pab's subcommands, by name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMANDS } from "./run_cli.ts";
 * assert.ok(["check", "lint", "demo", "bench", "generate"].every((name) => Object.hasOwn(COMMANDS, name)));
 * ```
 */
export const COMMANDS: Readonly<Record<string, Command>> = Object.freeze({
  check: checkCommand,
  lint: lintCommand,
  demo: demoCommand,
  bench: benchCommand,
  generate: generateCommand,
  mcp: mcpCommand,
  playground: playgroundCommand,
  serve: serveCommand,
  audit: auditCommand,
  hook: hookCommand,
});

/**
 * What `pab --version` prints.
 *
 * @example
 * ```ts
 * import type { CliInfo } from "./run_cli.ts";
 * const info: CliInfo = { version: "0.1.0" };
 * ```
 */
export interface CliInfo {
  /** pab's version, from deno.json. */
  readonly version: string;
}

/**
 * Run `pab` with its arguments and return the exit code: 0 ok, 1 something
 * was blocked or a check failed, 2 a usage, configuration or I/O error.
 *
 * @example
 * ```ts
 * import { runCli } from "./run_cli.ts";
 * import { memoryIo } from "./memory_io.ts";
 * import assert from "node:assert/strict";
 * const memory = memoryIo();
 * assert.equal(await runCli(["--version"], memory.io, { version: "0.1.0" }), 0);
 * assert.equal(memory.stdout(), "pab 0.1.0\n");
 * ```
 */
export async function runCli(args: readonly string[], io: Io, info: CliInfo): Promise<number> {
  const [first, ...rest] = args;
  try {
    if (first === "--help" || first === "-h") {
      await io.stdout.write(mainHelp());
      return 0;
    }
    if (first === "--version" || first === "-V") {
      await io.stdout.write(`pab ${info.version}\n`);
      return 0;
    }
    if (first === undefined) {
      await io.stderr.write(mainHelp());
      return 2;
    }
    if (first === "help") {
      const topic = rest[0];
      if (topic === undefined) {
        await io.stdout.write(mainHelp());
        return 0;
      }
      await io.stdout.write(commandFor(topic).help);
      return 0;
    }
    if (first.startsWith("-")) {
      const guess = closestWord(first, MAIN_OPTIONS);
      throw new UsageError(
        `unknown option ${first}${guess ? ` (did you mean ${guess}?)` : "; put options after the command"}`,
      );
    }
    return await commandFor(first).run(rest, io);
  } catch (error) {
    return await reportError(error, io);
  }
}

const MAIN_OPTIONS = ["--help", "--version", "-h", "-V"];

function commandFor(name: string): Command {
  if (Object.hasOwn(COMMANDS, name)) return COMMANDS[name];
  const guess = closestWord(name, Object.keys(COMMANDS));
  throw new UsageError(`unknown command "${name}"${guess ? ` (did you mean "${guess}"?)` : ""}`);
}

function mainHelp(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((name) => name.length));
  const list = names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`).join("\n");
  return `pab: a guard between an LLM agent and its tools that decides each call from
where its arguments came from, and says how to get to yes.

Usage: pab COMMAND [OPTIONS]

Commands:
${list}

Options:
  -h, --help     Show this help; pab COMMAND --help shows a command's
  -V, --version  Show pab's version

Exit codes: 0 ok; 1 a call was blocked or needs confirmation, or a check
failed; 2 bad usage, configuration or I/O.
`;
}
