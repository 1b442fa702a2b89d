/**
 * The `pab` command line: find the subcommand and run it.
 *
 * @module
 */
import { closestWord } from "../../../core/mod.ts";
import { UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import type { Io } from "../io/io.ts";
import { reportError } from "./report_error.ts";

/**
 * A subcommand as the registry knows it before it is loaded: its one-line
 * summary for `pab --help`, and how to load the module that declares it. Only
 * the command being run is loaded, so `pab check` does not pay for the MCP
 * SDK, the playground or the HTTP server. `load` imports its module with a
 * literal specifier (`import("../commands/check.ts")`), so `deno compile` embeds it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { CommandEntry } from "./run_cli.ts";
 * const entry: CommandEntry = {
 *   summary: "Say hello",
 *   load: () => Promise.resolve({ name: "hello", summary: "Say hello", help: "Usage: pab hello\n", run: () => Promise.resolve(0) }),
 * };
 * assert.equal((await entry.load()).summary, entry.summary);
 * ```
 */
export interface CommandEntry {
  /** One line for `pab --help`: the loaded command's own `summary` (a test keeps them equal). */
  readonly summary: string;
  /** Import the command's module and return the command. */
  load(): Promise<Command>;
}

/**
 * pab's subcommands, by name, each loaded only when it runs. To register one,
 * add an entry with its summary and a literal `import()` of its module.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMANDS } from "./run_cli.ts";
 * assert.ok(["check", "lint", "demo", "bench", "generate"].every((name) => Object.hasOwn(COMMANDS, name)));
 * assert.equal((await COMMANDS.lint.load()).name, "lint");
 * ```
 */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = Object.freeze({
  check: {
    summary: "Replay traces through a policy and print the decision for every tool call",
    load: async () => (await import("../commands/check.ts")).checkCommand,
  },
  lint: {
    summary: "Check policy files and report every problem with its path and a hint",
    load: async () => (await import("../commands/lint.ts")).lintCommand,
  },
  demo: {
    summary: "Run the e-mail hijack against a mock inbox and web page, without and with pab",
    load: async () => (await import("../commands/demo.ts")).demoCommand,
  },
  bench: {
    summary: "Run a benchmark (pab bench --help lists them)",
    load: async () => (await import("../commands/bench.ts")).benchCommand,
  },
  generate: {
    summary: "Draft a policy from tool definitions (MCP tools/list, OpenAI tools, an AgentDojo suite)",
    load: async () => (await import("../commands/generate.ts")).generateCommand,
  },
  mcp: {
    summary: "Guard an MCP server: decide every tool call before the server sees it",
    load: async () => (await import("../commands/mcp.ts")).mcpCommand,
  },
  playground: {
    summary: "Serve a page on localhost to try policies and conversations, and apply rulings",
    load: async () => (await import("../commands/playground.ts")).playgroundCommand,
  },
  serve: {
    summary: "Serve the guard over an HTTP JSON API on localhost",
    load: async () => (await import("../commands/serve.ts")).serveCommand,
  },
  audit: {
    summary: "Verify, show or export the tamper-evident audit log",
    load: async () => (await import("../commands/audit.ts")).auditCommand,
  },
  hook: {
    summary: "Answer Claude Code hooks (pab hook claude-code)",
    load: async () => (await import("../commands/hook.ts")).hookCommand,
  },
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
 * import { memoryIo } from "../io/memory_io.ts";
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
      await io.stdout.write((await commandFor(topic)).help);
      return 0;
    }
    if (first.startsWith("-")) {
      const guess = closestWord(first, MAIN_OPTIONS);
      throw new UsageError(
        `unknown option ${first}${guess ? ` (did you mean ${guess}?)` : "; put options after the command"}`,
      );
    }
    return await (await commandFor(first)).run(rest, io);
  } catch (error) {
    return await reportError(error, io);
  }
}

const MAIN_OPTIONS = ["--help", "--version", "-h", "-V"];

async function commandFor(name: string): Promise<Command> {
  if (Object.hasOwn(COMMANDS, name)) return await COMMANDS[name].load();
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
