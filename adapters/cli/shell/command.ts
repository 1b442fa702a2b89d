/**
 * The shape of a pab subcommand.
 *
 * @module
 */
import type { Io } from "../io/io.ts";

/**
 * A subcommand: its one-line summary, its `--help` text, and the function that
 * runs it. `run` returns the exit code: 0 ok, 1 something was blocked or a
 * check failed, 2 a usage, configuration or I/O error.
 *
 * @example
 * ```ts
 * import type { Command } from "./command.ts";
 * const hello: Command = {
 *   name: "hello",
 *   summary: "Say hello",
 *   help: "Usage: pab hello\n",
 *   run: async (_args, io) => {
 *     await io.stdout.write("hello\n");
 *     return 0;
 *   },
 * };
 * ```
 */
export interface Command {
  /** The word that runs it: `pab NAME`. */
  readonly name: string;
  /** One line for `pab --help`. */
  readonly summary: string;
  /** The full text of `pab NAME --help`, ending with a newline. */
  readonly help: string;
  /** Run the command with the words after its name. */
  run(args: string[], io: Io): Promise<number>;
}
