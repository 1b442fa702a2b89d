/**
 * Errors a command reports and exits 2 for: bad usage, or input it cannot
 * read. They are local to the CLI; the message is ready to print.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";

/**
 * A command was used wrongly: an unknown option, a missing argument.
 * The CLI prints the message and where to find the usage, and exits 2.
 *
 * @example
 * ```ts
 * import { UsageError } from "./cli_error.ts";
 * const error = new UsageError("missing --policy FILE", "check");
 * console.log(error.code, error.command); // "ERR_CLI_USAGE" "check"
 * ```
 */
export class UsageError extends PabError {
  /** The command whose usage to point at (empty for pab itself). */
  readonly command: string;

  /** Make a usage error. */
  constructor(message: string, command = "") {
    super("ERR_CLI_USAGE", message);
    this.name = "UsageError";
    this.command = command;
  }
}

/**
 * A file could not be read or written, or a server could not start. The
 * message says what, where, and how to fix it.
 *
 * @example
 * ```ts
 * import { IoError } from "./cli_error.ts";
 * const error = new IoError('Cannot read policy "p.yaml": no such file or directory (check the path)');
 * console.log(error.code); // "ERR_CLI_IO"
 * ```
 */
export class IoError extends PabError {
  /** Make an I/O error. */
  constructor(message: string) {
    super("ERR_CLI_IO", message);
    this.name = "IoError";
  }
}
