/**
 * Write a file a command was asked to produce (`--out`, `--html`) through the
 * Io's safe, exclusive write, with errors that say how to fix them.
 *
 * @module
 */
import { IoError } from "../shell/cli_error.ts";
import { fileProblem, type Io } from "./io.ts";

/**
 * Create `path` with `text` through `io.writeTextFile` (which refuses symbolic
 * links and existing files with `UnsafePathError`, rethrown as it is). A write
 * the permission sandbox refuses becomes an `IoError` naming `what` and the
 * sandbox's one writable folder, `/tmp/pab`; any other failure an `IoError`
 * with the runtime's reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { writeOutputFile } from "./write_output.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({ files: { "/tmp/pab/report.html": "old" } });
 * await writeOutputFile("/tmp/pab/new.html", "<p>hi</p>", memory.io, { what: "the report", example: "--html /tmp/pab/report.html" });
 * assert.equal(memory.files.get("/tmp/pab/new.html"), "<p>hi</p>");
 * await assert.rejects(
 *   writeOutputFile("/tmp/pab/report.html", "x", memory.io, { what: "the report", example: "--html /tmp/pab/r.html" }),
 *   { code: "ERR_CLI_UNSAFE_PATH" },
 * );
 * ```
 */
export async function writeOutputFile(
  path: string,
  text: string,
  io: Pick<Io, "writeTextFile">,
  options: { readonly what: string; readonly example: string; readonly alternative?: string },
): Promise<void> {
  try {
    await io.writeTextFile(path, text);
  } catch (error) {
    if (error instanceof Error && error.name === "UnsafePathError") throw error;
    if (error instanceof Error && error.name === "NotCapable") {
      throw new IoError(
        `Cannot write ${options.what} to "${path}": ${fileProblem(error)} ` +
          `(deno task pab writes only under /tmp/pab, never inside the repository: use ${options.example}` +
          `${options.alternative ? `, or ${options.alternative}` : ""})`,
      );
    }
    throw new IoError(`Cannot write ${options.what} to "${path}": ${fileProblem(error)} (check the path)`);
  }
}
