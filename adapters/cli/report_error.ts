/**
 * Turn any error a command meets into a message on stderr and exit code 2,
 * never a stack trace.
 *
 * @module
 */
import { PabError } from "../../core/mod.ts";
import { UsageError } from "./cli_error.ts";
import type { Io } from "./io.ts";

/**
 * Print `error` on stderr the way pab reports problems and return exit code 2.
 * A usage error also says where the usage is; an error pab did not expect
 * says so, with its message only.
 *
 * @example
 * ```ts
 * import { reportError } from "./report_error.ts";
 * import { UsageError } from "./cli_error.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo();
 * console.log(await reportError(new UsageError("missing --policy FILE", "check"), memory.io)); // 2
 * console.log(memory.stderr()); // 'error: missing --policy FILE\nRun "pab check --help" for usage.\n'
 * ```
 */
export async function reportError(error: unknown, io: Pick<Io, "stderr">): Promise<number> {
  if (error instanceof UsageError) {
    const help = error.command ? `pab ${error.command} --help` : "pab --help";
    await io.stderr.write(`error: ${error.message}\nRun "${help}" for usage.\n`);
  } else if (error instanceof PabError) {
    await io.stderr.write(`error: ${error.message}\n`);
  } else {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    await io.stderr.write(`error: pab failed unexpectedly: ${message} (please report this)\n`);
  }
  return 2;
}
