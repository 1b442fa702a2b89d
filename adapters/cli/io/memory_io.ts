/**
 * An in-memory {@linkcode Io} for tests: files in a map, output collected.
 *
 * @module
 */
import { UnsafePathError } from "../shell/cli_error.ts";
import { type Io, isStdin } from "./io.ts";

/**
 * A memory Io and what was written to it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { type MemoryIo, memoryIo } from "./memory_io.ts";
 * const memory: MemoryIo = memoryIo();
 * await memory.io.stderr.write("oops\n");
 * assert.equal(memory.stderr(), "oops\n");
 * ```
 */
export interface MemoryIo {
  /** The Io to hand to a command. */
  readonly io: Io;
  /** The text files, by path; writes land here. */
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
  /** Text files that exist, by path. A folder is any path prefix ending in `/`. */
  readonly files?: Readonly<Record<string, string>>;
  /** Files given as raw bytes (such as invalid UTF-8), by path. */
  readonly binaryFiles?: Readonly<Record<string, Uint8Array>>;
  /** What standard input holds (`-` and `/dev/stdin`); empty when not given. */
  readonly stdin?: string | Uint8Array;
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
 * read-only path rejects with `Deno.errors.NotCapable`; writing over a file
 * that exists is refused as the real Io refuses it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { memoryIo } from "./memory_io.ts";
 * const memory = memoryIo({ files: { "policy.yaml": "version: 1\n" } });
 * await memory.io.stdout.write("ok\n");
 * assert.equal(memory.stdout(), "ok\n");
 * assert.equal(await memory.io.readTextFile("policy.yaml"), "version: 1\n");
 * ```
 */
export function memoryIo(options: MemoryIoOptions = {}): MemoryIo {
  const files = new Map(Object.entries(options.files ?? {}));
  const binary = new Map(Object.entries(options.binaryFiles ?? {}));
  let out = "";
  let err = "";
  const readOnly = options.readOnly ?? [];
  const bytesOf = (path: string): Uint8Array => {
    if (isStdin(path)) {
      return typeof options.stdin === "string"
        ? new TextEncoder().encode(options.stdin)
        : options.stdin ?? new Uint8Array();
    }
    const bytes = binary.get(path);
    if (bytes) return bytes;
    const text = files.get(path);
    if (text !== undefined) return new TextEncoder().encode(text);
    const folder = path.endsWith("/") ? path : `${path}/`;
    if ([...files.keys(), ...binary.keys()].some((file) => file.startsWith(folder))) {
      throw new Deno.errors.IsADirectory(`Is a directory (os error 21): '${path}'`);
    }
    throw new Deno.errors.NotFound(`No such file or directory (os error 2): readfile '${path}'`);
  };
  const io: Io = {
    stdout: { write: (text) => Promise.resolve(void (out += text)) },
    stderr: { write: (text) => Promise.resolve(void (err += text)) },
    isTerminal: options.isTerminal ?? false,
    noColor: options.noColor ?? false,
    readTextFile: (path) =>
      Promise.resolve().then(() => new TextDecoder("utf-8", { fatal: true }).decode(bytesOf(path))),
    openFile(path) {
      return Promise.resolve().then(() => {
        const bytes = bytesOf(path);
        return new ReadableStream<Uint8Array>({
          start(controller) {
            // Small chunks, so that readers meet chunk boundaries in tests.
            for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7));
            controller.close();
          },
        });
      });
    },
    listFiles(path) {
      if (isStdin(path)) return Promise.resolve(undefined);
      const folder = path.endsWith("/") ? path : `${path}/`;
      const found = [...files.keys(), ...binary.keys()].filter((file) => file.startsWith(folder)).sort();
      return Promise.resolve(found.length ? found : undefined);
    },
    writeTextFile(path, text) {
      if (readOnly.some((entry) => entry.endsWith("/") ? path.startsWith(entry) : path === entry)) {
        return Promise.reject(new Deno.errors.NotCapable(`Requires write access to "${path}"`));
      }
      if (files.has(path) || binary.has(path)) {
        return Promise.reject(
          new UnsafePathError(
            `Cannot write "${path}": it already exists, and pab only creates new files (remove it, or choose another name)`,
          ),
        );
      }
      files.set(path, text);
      return Promise.resolve();
    },
  };
  return { io, files, stdout: () => out, stderr: () => err };
}
