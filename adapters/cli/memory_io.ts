/**
 * An in-memory {@linkcode Io} for tests: files in a map, output collected.
 *
 * @module
 */
import type { Io } from "./io.ts";

/**
 * A memory Io and what was written to it.
 *
 * @example
 * ```ts
 * import { type MemoryIo, memoryIo } from "./memory_io.ts";
 * const memory: MemoryIo = memoryIo();
 * await memory.io.stderr.write("oops\n");
 * console.log(memory.stderr()); // "oops\n"
 * ```
 */
export interface MemoryIo {
  /** The Io to hand to a command. */
  readonly io: Io;
  /** The files, by path; writes land here. */
  readonly files: Map<string, string>;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/**
 * Options for {@linkcode memoryIo}.
 *
 * @example
 * ```ts
 * import type { MemoryIoOptions } from "./memory_io.ts";
 * const options: MemoryIoOptions = { files: { "p.yaml": "version: 1\n" }, isTerminal: true, readOnly: ["traces/"] };
 * ```
 */
export interface MemoryIoOptions {
  /** Files that exist, by path. */
  readonly files?: Readonly<Record<string, string>>;
  /** Pretend stdout is a terminal (default `false`). */
  readonly isTerminal?: boolean;
  /** Pretend `NO_COLOR` is set (default `false`). */
  readonly noColor?: boolean;
  /** Paths (or path prefixes ending in `/`) whose writes are refused as Deno's sandbox would refuse them. */
  readonly readOnly?: readonly string[];
}

/**
 * Make an Io that reads and writes a map of files and collects output.
 * Reading a missing file rejects with `Deno.errors.NotFound`; writing a
 * read-only path rejects with `Deno.errors.NotCapable`.
 *
 * @example
 * ```ts
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({ files: { "policy.yaml": "version: 1\n" } });
 * await memory.io.stdout.write("ok\n");
 * console.log(memory.stdout(), await memory.io.readTextFile("policy.yaml")); // "ok\n" "version: 1\n"
 * ```
 */
export function memoryIo(options: MemoryIoOptions = {}): MemoryIo {
  const files = new Map(Object.entries(options.files ?? {}));
  let out = "";
  let err = "";
  const readOnly = options.readOnly ?? [];
  const io: Io = {
    stdout: { write: (text) => Promise.resolve(void (out += text)) },
    stderr: { write: (text) => Promise.resolve(void (err += text)) },
    isTerminal: options.isTerminal ?? false,
    noColor: options.noColor ?? false,
    readTextFile(path) {
      const text = files.get(path);
      return text === undefined
        ? Promise.reject(new Deno.errors.NotFound(`No such file or directory (os error 2): readfile '${path}'`))
        : Promise.resolve(text);
    },
    writeTextFile(path, text) {
      if (readOnly.some((entry) => entry.endsWith("/") ? path.startsWith(entry) : path === entry)) {
        return Promise.reject(new Deno.errors.NotCapable(`Requires write access to "${path}"`));
      }
      files.set(path, text);
      return Promise.resolve();
    },
  };
  return { io, files, stdout: () => out, stderr: () => err };
}
