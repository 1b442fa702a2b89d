/**
 * What a CLI command may touch: two text writers, whether colour is wanted,
 * reading inputs (files, folders, standard input) and creating output files.
 * Commands take an {@linkcode Io} so tests can hand them a `memoryIo()`
 * instead of the real one.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { createFileExclusively } from "./create_file.ts";

/**
 * Where a command writes text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { TextWriter } from "./io.ts";
 * let text = "";
 * const writer: TextWriter = { write: (chunk) => Promise.resolve(void (text += chunk)) };
 * await writer.write("hi\n");
 * assert.equal(text, "hi\n");
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
 * import assert from "node:assert/strict";
 * import type { Io } from "./io.ts";
 * import { memoryIo } from "./memory_io.ts";
 * async function hello(io: Io): Promise<number> {
 *   await io.stdout.write("hello\n");
 *   return 0;
 * }
 * const memory = memoryIo();
 * assert.equal(await hello(memory.io), 0);
 * assert.equal(memory.stdout(), "hello\n");
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
  /** Read a file as strict UTF-8 text. Rejects with the runtime's error (such as `Deno.errors.NotFound`). */
  readTextFile(path: string): Promise<string>;
  /**
   * Open a file as a stream of bytes; `-` and `/dev/stdin` are standard input.
   * Rejects with the runtime's error (such as `Deno.errors.NotFound`).
   * Optional, so that an Io written before it existed still works: without
   * it, inputs are read with `readTextFile` and standard input is unavailable.
   */
  openFile?(path: string): Promise<ReadableStream<Uint8Array>>;
  /**
   * Every file under `path`, recursively and sorted, or `undefined` when
   * `path` is not a folder. Optional: without it, no argument is a folder.
   */
  listFiles?(path: string): Promise<readonly string[] | undefined>;
  /**
   * Create a new UTF-8 text file and its missing folders. Refuses a path that
   * goes through a symbolic link and a file that already exists
   * (`UnsafePathError`); otherwise rejects with the runtime's error (such as
   * `Deno.errors.NotCapable`).
   */
  writeTextFile(path: string, text: string): Promise<void>;
}

/**
 * The real Io: Deno's stdout, stderr, stdin and file system. Asking whether
 * stdout is a terminal and whether `NO_COLOR` is set needs no permission.
 * Output to a pipe that was closed (`pab check ... | head -1`) is dropped
 * quietly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { denoIo } from "./io.ts";
 * const io = denoIo();
 * assert.equal(typeof io.isTerminal, "boolean");
 * ```
 */
export function denoIo(): Io {
  return {
    stdout: writerFor(Deno.stdout),
    stderr: writerFor(Deno.stderr),
    isTerminal: Deno.stdout.isTerminal(),
    noColor: Deno.noColor,
    async readTextFile(path) {
      return new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
    },
    async openFile(path) {
      if (isStdin(path)) return Deno.stdin.readable;
      const file = await Deno.open(path, { read: true });
      const info = await file.stat().catch(() => undefined);
      if (info?.isDirectory) {
        file.close();
        throw new Deno.errors.IsADirectory(`Is a directory: '${path}'`);
      }
      return file.readable;
    },
    async listFiles(path) {
      if (isStdin(path)) return undefined;
      const info = await Deno.stat(path).catch(() => undefined);
      if (!info?.isDirectory) return undefined;
      const found: string[] = [];
      await walk(path.replace(/\/+$/, ""), found);
      return found.sort();
    },
    writeTextFile: createFileExclusively,
  };
}

/**
 * Whether `path` names standard input: `-` or `/dev/stdin`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isStdin } from "./io.ts";
 * assert.deepEqual([isStdin("-"), isStdin("/dev/stdin"), isStdin("t.jsonl")], [true, true, false]);
 * ```
 */
export function isStdin(path: string): boolean {
  return path === "-" || path === "/dev/stdin";
}

/**
 * Say in a few words why reading or writing a file failed, from the error the
 * runtime raised.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileProblem } from "./io.ts";
 * assert.equal(fileProblem(new Deno.errors.NotFound("x")), "no such file or directory");
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
    case "AlreadyExists":
      return "the file already exists";
    case "InvalidData":
    case "TypeError":
      return "it is not valid UTF-8 text";
    default:
      return errorText(error);
  }
}

async function walk(folder: string, found: string[]): Promise<void> {
  for await (const entry of Deno.readDir(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory) await walk(path, found);
    else if (entry.isFile) found.push(path);
  }
}

function writerFor(stream: { write(bytes: Uint8Array): Promise<number> }): TextWriter {
  const encoder = new TextEncoder();
  let closed = false;
  return {
    async write(text: string): Promise<void> {
      let bytes = encoder.encode(text);
      try {
        while (bytes.length && !closed) bytes = bytes.subarray(await stream.write(bytes));
      } catch (error) {
        // The reader went away (`pab check ... | head -1`): what is left has nobody to read it.
        if (error instanceof Error && error.name === "BrokenPipe") closed = true;
        else throw error;
      }
    },
  };
}
