/**
 * What a CLI command may touch: two text writers, whether colour is wanted,
 * and reading and writing text files. Commands take an {@linkcode Io} so
 * tests can hand them a {@linkcode memoryIo} instead of the real one.
 *
 * @module
 */

/**
 * Where a command writes text.
 *
 * @example
 * ```ts
 * import type { TextWriter } from "./io.ts";
 * let text = "";
 * const writer: TextWriter = { write: (chunk) => Promise.resolve(void (text += chunk)) };
 * ```
 */
export interface TextWriter {
  /** Write `text` as is (add the newline yourself). */
  write(text: string): Promise<void>;
}

/**
 * Everything a command may touch.
 *
 * @example
 * ```ts
 * import type { Io } from "./io.ts";
 * async function hello(io: Io): Promise<number> {
 *   await io.stdout.write("hello\n");
 *   return 0;
 * }
 * ```
 */
export interface Io {
  /** Data: what the command produces. */
  readonly stdout: TextWriter;
  /** Diagnostics: errors, warnings, usage. */
  readonly stderr: TextWriter;
  /** Whether stdout is a terminal (colour is used only then). */
  readonly isTerminal: boolean;
  /** Whether `NO_COLOR` is set (colour is never used then). */
  readonly noColor: boolean;
  /** Read a UTF-8 text file. Rejects with the runtime's error (such as `Deno.errors.NotFound`). */
  readTextFile(path: string): Promise<string>;
  /** Write a UTF-8 text file, creating its folder if needed. Rejects with the runtime's error (such as `Deno.errors.NotCapable`). */
  writeTextFile(path: string, text: string): Promise<void>;
}

/**
 * The real Io: Deno's stdout, stderr and file system. Asking whether stdout is
 * a terminal and whether `NO_COLOR` is set needs no permission.
 *
 * @example
 * ```ts
 * import { denoIo } from "./io.ts";
 * const io = denoIo();
 * await io.stdout.write("hello\n");
 * ```
 */
export function denoIo(): Io {
  return {
    stdout: writerFor(Deno.stdout),
    stderr: writerFor(Deno.stderr),
    isTerminal: Deno.stdout.isTerminal(),
    noColor: Deno.noColor,
    readTextFile: (path) => Deno.readTextFile(path),
    async writeTextFile(path, text) {
      const folder = path.replace(/[^/]*$/, "");
      if (folder) await Deno.mkdir(folder, { recursive: true }).catch(() => {}); // the write says what went wrong
      await Deno.writeTextFile(path, text);
    },
  };
}

/**
 * Say in a few words why reading or writing a file failed, from the error the
 * runtime raised.
 *
 * @example
 * ```ts
 * import { fileProblem } from "./io.ts";
 * console.log(fileProblem(new Deno.errors.NotFound("x"))); // "no such file or directory"
 * ```
 */
export function fileProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  switch (name) {
    case "NotFound":
      return "no such file or directory";
    case "NotCapable":
      return "Deno's permission sandbox refused it";
    case "PermissionDenied":
      return "the operating system denied permission";
    case "IsADirectory":
      return "it is a directory";
    case "InvalidData":
      return "it is not valid UTF-8 text";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

function writerFor(stream: { write(bytes: Uint8Array): Promise<number> }): TextWriter {
  const encoder = new TextEncoder();
  return {
    async write(text: string): Promise<void> {
      let bytes = encoder.encode(text);
      while (bytes.length) bytes = bytes.subarray(await stream.write(bytes));
    },
  };
}
