/**
 * Declare a command once (its options, arguments and texts) and get its
 * parser, its `--help`, its "did you mean" and its error handling from that.
 *
 * @module
 */
import { UsageError } from "./cli_error.ts";
import type { Command } from "./command.ts";
import type { Io, TextWriter } from "../io/io.ts";
import { type OptionSpec, parseArgs } from "./parse_args.ts";
import { reportError } from "./report_error.ts";

/**
 * One option, declared: how it parses and how `--help` shows it.
 *
 * @example
 * ```ts
 * import type { OptionDef } from "./define_command.ts";
 * const policy: OptionDef = { type: "string", short: "p", value: "FILE", required: true, description: "The policy" };
 * ```
 */
export interface OptionDef extends OptionSpec {
  /** What it does; a `\n` starts a continuation line in `--help`. */
  readonly description: string;
  /** The placeholder for its value in `--help`, such as `FILE` (default `VALUE`, or `N` for integers). */
  readonly value?: string;
  /** Whether the command cannot run without it. */
  readonly required?: boolean;
  /** The value when it is not given. */
  readonly default?: string | number;
}

/**
 * The words after the options, declared.
 *
 * @example
 * ```ts
 * import type { ArgumentsDef } from "./define_command.ts";
 * const traces: ArgumentsDef = { name: "TRACE", min: 1, max: Infinity, missing: "name at least one trace file" };
 * ```
 */
export interface ArgumentsDef {
  /** The placeholder in the usage line, such as `TRACE`. */
  readonly name: string;
  /** How many are needed (default 0). */
  readonly min?: number;
  /** How many are allowed (default 0; `Infinity` for any number, shown as `NAME...`). */
  readonly max?: number;
  /** The usage error when fewer than `min` are given. */
  readonly missing?: string;
  /** Keep everything from the first argument on unparsed (for a command that dispatches, such as `pab bench`). */
  readonly rest?: boolean;
}

/**
 * What a declared command's `run` gets: the checked options and arguments.
 *
 * @example
 * ```ts
 * import type { CommandInput } from "./define_command.ts";
 * function policyOf(input: CommandInput): string {
 *   return input.string("policy") ?? "policy.yaml";
 * }
 * ```
 */
export interface CommandInput {
  /** The arguments after the options. */
  readonly positionals: readonly string[];
  /** A string option's value (or its default). */
  string(name: string): string | undefined;
  /** Whether a flag was given. */
  flag(name: string): boolean;
  /** An integer option's value (or its default). */
  integer(name: string): number | undefined;
}

/**
 * A command, declared once.
 *
 * @example
 * ```ts
 * import type { CommandDef } from "./define_command.ts";
 * const hello: CommandDef = {
 *   name: "hello",
 *   summary: "Say hello",
 *   description: "Say hello to NAME.",
 *   options: {},
 *   arguments: { name: "NAME", min: 1, max: 1, missing: "name someone" },
 *   exitCodes: "0 ok; 2 bad usage.",
 *   run: async (input, io) => (await io.stdout.write(`hello ${input.positionals[0]}\n`), 0),
 * };
 * ```
 */
export interface CommandDef {
  /** The words that run it after `pab`, such as `check` or `bench office`. */
  readonly name: string;
  /** One line for lists of commands. */
  readonly summary: string;
  /** The paragraphs of `--help` between the usage line and the options. */
  readonly description: string;
  /** Its options by long name (`--help` and `--quiet` are added). */
  readonly options: Readonly<Record<string, OptionDef>>;
  /** Its arguments (none when left out). */
  readonly arguments?: ArgumentsDef;
  /** Paragraphs of `--help` after the options. */
  readonly notes?: string;
  /** The exit codes, for the last line of `--help`. */
  readonly exitCodes: string;
  /** Run it; returns the exit code. Thrown errors are reported and exit 2. */
  run(input: CommandInput, io: Io): Promise<number>;
}

const COMMON: Readonly<Record<string, OptionDef>> = {
  quiet: { type: "boolean", short: "q", description: "Print nothing on stdout: only the exit code and errors" },
  help: { type: "boolean", short: "h", description: "Show this help" },
};

/**
 * Build a {@linkcode Command} from its declaration: parsing (an unknown option
 * gets "did you mean"), required options and argument counts checked,
 * `--help` printed on stdout, `--quiet` silencing stdout, and every error
 * reported on stderr with exit code 2.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineCommand } from "./define_command.ts";
 * import { memoryIo } from "../io/memory_io.ts";
 * const hello = defineCommand({
 *   name: "hello",
 *   summary: "Say hello",
 *   description: "Say hello to NAME.",
 *   options: { shout: { type: "boolean", description: "In capitals" } },
 *   arguments: { name: "NAME", min: 1, max: 1, missing: "name someone" },
 *   exitCodes: "0 ok; 2 bad usage.",
 *   run: async (input, io) => {
 *     const text = `hello ${input.positionals[0]}`;
 *     await io.stdout.write(`${input.flag("shout") ? text.toUpperCase() : text}\n`);
 *     return 0;
 *   },
 * });
 * const memory = memoryIo();
 * assert.equal(await hello.run(["--shout", "bob"], memory.io), 0);
 * assert.equal(memory.stdout(), "HELLO BOB\n");
 * assert.equal(await hello.run(["--shot", "bob"], memory.io), 2);
 * assert.match(memory.stderr(), /unknown option --shot \(did you mean --shout\?\)/);
 * assert.match(hello.help, /^Usage: pab hello \[OPTIONS\] NAME\n/);
 * ```
 */
export function defineCommand(def: CommandDef): Command {
  return {
    name: def.name,
    summary: def.summary,
    get help() {
      return helpText(def);
    },
    run: (args, io) => runDeclared(def, args, io),
  };
}

async function runDeclared(def: CommandDef, args: readonly string[], io: Io): Promise<number> {
  try {
    const options = { ...def.options, ...COMMON };
    const { values, positionals } = parseArgs(args, options, def.name, def.arguments?.rest ?? false);
    if (values.help) {
      await io.stdout.write(helpText(def));
      return 0;
    }
    for (const [name, option] of Object.entries(def.options)) {
      if (option.required && values[name] === undefined) {
        throw new UsageError(`missing --${name} ${placeholder(option)}`, def.name);
      }
    }
    const min = def.arguments?.min ?? 0;
    const max = def.arguments?.max ?? 0;
    if (positionals.length < min) {
      throw new UsageError(def.arguments?.missing ?? `missing ${def.arguments?.name}`, def.name);
    }
    if (positionals.length > max && !def.arguments?.rest) {
      throw new UsageError(`unexpected argument "${positionals[max]}"`, def.name);
    }
    const value = (name: string) => values[name] ?? def.options[name]?.default;
    const input: CommandInput = {
      positionals,
      string: (name) => typeof value(name) === "string" ? value(name) as string : undefined,
      flag: (name) => value(name) === true,
      integer: (name) => typeof value(name) === "number" ? value(name) as number : undefined,
    };
    return await def.run(input, values.quiet ? { ...io, stdout: SILENT } : io);
  } catch (error) {
    return await reportError(error, io);
  }
}

const SILENT: TextWriter = { write: () => Promise.resolve() };

/**
 * The `--help` text of a declared command.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { helpText } from "./define_command.ts";
 * const text = helpText({
 *   name: "lint", summary: "", description: "Check policies.", options: {},
 *   arguments: { name: "POLICY", min: 1, max: Infinity }, exitCodes: "0 ok.", run: () => Promise.resolve(0),
 * });
 * assert.match(text, /^Usage: pab lint \[OPTIONS\] POLICY\.\.\.\n\nCheck policies\.\n\nOptions:\n {2}-q, --quiet/);
 * ```
 */
export function helpText(def: CommandDef): string {
  const options = { ...def.options, ...COMMON };
  const required = Object.entries(def.options).filter(([, option]) => option.required)
    .map(([name, option]) => `--${name} ${placeholder(option)}`);
  const args = def.arguments;
  const argWords = !args || (args.max ?? 0) === 0
    ? ""
    : (args.max ?? 0) > 1 || args.rest
    ? `${args.name}...`
    : args.name;
  const shownArgs = args && (args.min ?? 0) === 0 && argWords ? `[${argWords}]` : argWords;
  const usage = ["Usage: pab", def.name, ...required, "[OPTIONS]", shownArgs].filter(Boolean).join(" ");
  const rows = Object.entries(options).map(([name, option]) => {
    const value = option.type === "boolean" ? "" : ` ${placeholder(option)}`;
    return [`${option.short ? `-${option.short}, ` : "    "}--${name}${value}`, describeOption(option)] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = rows.map(([left, text]) =>
    `  ${left.padEnd(width)}  ${text.split("\n").join(`\n  ${" ".repeat(width)}  `)}`
  );
  const notes = def.notes ? `\n${def.notes.trimEnd()}\n` : "";
  return `${usage}\n\n${def.description.trimEnd()}\n\nOptions:\n${
    lines.join("\n")
  }\n${notes}\nExit codes: ${def.exitCodes.trimEnd()}\n`;
}

function placeholder(option: OptionDef): string {
  return option.value ?? (option.type === "integer" ? "N" : "VALUE");
}

function describeOption(option: OptionDef): string {
  if (option.required) return `${option.description}; required`;
  if (option.default !== undefined) return `${option.description} (default: ${option.default})`;
  return option.description;
}
