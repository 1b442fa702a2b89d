/**
 * Errors a command reports and exits 2 for: bad usage, or input it cannot
 * read or output it cannot write. They are local to the CLI; the message is
 * ready to print.
 *
 * @module
 */
import { PabError } from "../../../core/mod.ts";

/** Every code the CLI's errors carry (a closed list), one class of this file each. */
export const CLI_ERROR_CODES = [
  "ERR_CLI_USAGE",
  "ERR_CLI_IO",
  "ERR_CLI_ENCODING",
  "ERR_CLI_TOO_LARGE",
  "ERR_CLI_UNSAFE_PATH",
  "ERR_CLI_DEPENDENCY",
  "ERR_CLI_PERMISSION",
] as const;

/** A code of {@linkcode CLI_ERROR_CODES}. */
export type CliErrorCode = typeof CLI_ERROR_CODES[number];

/**
 * A command was used wrongly: an unknown option, a missing argument.
 * The CLI prints the message and where to find the usage, and exits 2.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UsageError } from "./cli_error.ts";
 * const error = new UsageError("missing --policy FILE", "check");
 * assert.deepEqual([error.code, error.command], ["ERR_CLI_USAGE", "check"]);
 * ```
 */
export class UsageError extends PabError<CliErrorCode> {
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
 * import assert from "node:assert/strict";
 * import { IoError } from "./cli_error.ts";
 * const error = new IoError('Cannot read policy "p.yaml": no such file or directory (check the path)');
 * assert.equal(error.code, "ERR_CLI_IO");
 * ```
 */
export class IoError extends PabError<CliErrorCode> {
  /** Make an I/O error. */
  constructor(message: string) {
    super("ERR_CLI_IO", message);
    this.name = "IoError";
  }
}

/**
 * An input is not valid UTF-8 text. The message names the file and the byte
 * offset, and never echoes the bytes themselves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EncodingError } from "./cli_error.ts";
 * assert.equal(new EncodingError('Cannot read trace "t.jsonl": not valid UTF-8').code, "ERR_CLI_ENCODING");
 * ```
 */
export class EncodingError extends PabError<CliErrorCode> {
  /** Make an encoding error. */
  constructor(message: string) {
    super("ERR_CLI_ENCODING", message);
    this.name = "EncodingError";
  }
}

/**
 * An input is larger than `--max-bytes` allows. Reading stops at the limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { InputTooLargeError } from "./cli_error.ts";
 * assert.equal(new InputTooLargeError('Cannot read trace "big.jsonl": more than 10 bytes').code, "ERR_CLI_TOO_LARGE");
 * ```
 */
export class InputTooLargeError extends PabError<CliErrorCode> {
  /** Make a too-large error. */
  constructor(message: string) {
    super("ERR_CLI_TOO_LARGE", message);
    this.name = "InputTooLargeError";
  }
}

/**
 * A write was refused because its path goes through a symbolic link, or the
 * file already exists: pab creates output files only anew, and never follows
 * a link someone may have planted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { UnsafePathError } from "./cli_error.ts";
 * assert.equal(new UnsafePathError('Cannot write "/tmp/pab/x": "/tmp/pab" is a symbolic link').code, "ERR_CLI_UNSAFE_PATH");
 * ```
 */
export class UnsafePathError extends PabError<CliErrorCode> {
  /** Make an unsafe-path error. */
  constructor(message: string) {
    super("ERR_CLI_UNSAFE_PATH", message);
    this.name = "UnsafePathError";
  }
}

/**
 * A command needs a package that the lock file it runs under does not pin:
 * `pab mcp` and `pab generate --server` need the MCP SDK, which `deno.lock`
 * leaves out (so that `deno task start` does not download it) and `adapters/mcp/deno.lock`
 * pins.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DependencyError } from "./cli_error.ts";
 * assert.equal(new DependencyError("Cannot load the MCP SDK: deno.lock does not pin it").code, "ERR_CLI_DEPENDENCY");
 * ```
 */
export class DependencyError extends PabError<CliErrorCode> {
  /** Make a dependency error. */
  constructor(message: string) {
    super("ERR_CLI_DEPENDENCY", message);
    this.name = "DependencyError";
  }
}

/**
 * Deno's sandbox does not grant what a command needs: `pab mcp` starting its
 * server (`--allow-run`) or reaching a server's URL (`--allow-net`). Asked
 * before anything starts, never prompted for (stdin may belong to an MCP
 * client). The message names the flag, or what to do where it cannot be
 * granted (a compiled binary's sandbox is fixed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PermissionError } from "./cli_error.ts";
 * assert.equal(new PermissionError('Cannot start MCP server "npx": pab mcp needs --allow-run').code, "ERR_CLI_PERMISSION");
 * ```
 */
export class PermissionError extends PabError<CliErrorCode> {
  /** Make a permission error. */
  constructor(message: string) {
    super("ERR_CLI_PERMISSION", message);
    this.name = "PermissionError";
  }
}
