/**
 * Read what a command is given: files, folders, quoted globs and standard
 * input (`-`, `/dev/stdin`), as strict UTF-8 with a size limit.
 *
 * @module
 */
import { EncodingError, InputTooLargeError, IoError } from "../shell/cli_error.ts";
import { globBase, globToRegExp, isGlob } from "./glob.ts";
import { fileProblem, type Io, isStdin } from "./io.ts";

/**
 * The default `--max-bytes`: 64 MiB per input.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_MAX_BYTES } from "./read_input.ts";
 * assert.equal(DEFAULT_MAX_BYTES, 64 * 1024 * 1024);
 * ```
 */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Turn the paths a user named into the files to read: `-` and `/dev/stdin`
 * stay as they are (at most once); a folder becomes every file under it whose
 * name ends with one of `extensions`, recursively and sorted; a path with glob
 * characters (`*`, `?`, `[`, `{`) is expanded (quote it, so the shell leaves it
 * to pab). Throws `IoError` for a folder
 * or glob that finds nothing; `what` names the inputs in the plural.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { expandInputs } from "./read_input.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const { io } = memoryIo({ files: { "t/a.jsonl": "", "t/sub/b.json": "", "t/notes.txt": "" } });
 * assert.deepEqual(await expandInputs(["t", "-"], io, "traces", [".jsonl", ".json"]), ["t/a.jsonl", "t/sub/b.json", "-"]);
 * assert.deepEqual(await expandInputs(["t/**\/*.json"], io, "traces", [".json"]), ["t/sub/b.json"]);
 * ```
 */
export async function expandInputs(
  paths: readonly string[],
  io: Pick<Io, "listFiles">,
  what: string,
  extensions: readonly string[],
): Promise<string[]> {
  const found: string[] = [];
  let stdin = false;
  for (const path of paths) {
    if (isStdin(path)) {
      if (stdin) throw new IoError(`Cannot read standard input twice: name "-" or "/dev/stdin" once`);
      stdin = true;
      found.push(path);
      continue;
    }
    const inFolder = await io.listFiles?.(path);
    if (inFolder) {
      const matching = inFolder.filter((file) => extensions.some((extension) => file.endsWith(extension)));
      if (!matching.length) {
        throw new IoError(`Cannot read ${what} in "${path}": no file there ends with ${extensions.join(", ")}`);
      }
      found.push(...matching);
      continue;
    }
    if (isGlob(path)) {
      const base = globBase(path);
      const glob = globToRegExp(path);
      const matching = ((await io.listFiles?.(base)) ?? []).filter((file) => glob.test(file.replace(/^\.\//, "")));
      if (!matching.length) throw new IoError(`Cannot read ${what} "${path}": no file matches the pattern`);
      found.push(...matching);
      continue;
    }
    found.push(path);
  }
  return found;
}

/**
 * Read an input as strict UTF-8 text, at most `maxBytes` bytes. Throws
 * `IoError` when it cannot be read, `InputTooLargeError` as soon as it is
 * longer than the limit (the rest is never read), and `EncodingError`,
 * naming the byte offset but never echoing the bytes, when it is not UTF-8.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInputText } from "./read_input.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const { io } = memoryIo({ files: { "t.jsonl": "{}\n" }, binaryFiles: { "b.jsonl": new Uint8Array([0x7b, 0xff]) } });
 * assert.equal(await readInputText("t.jsonl", io, { what: "trace" }), "{}\n");
 * await assert.rejects(readInputText("b.jsonl", io, { what: "trace" }), { code: "ERR_CLI_ENCODING" });
 * await assert.rejects(readInputText("t.jsonl", io, { what: "trace", maxBytes: 2 }), { code: "ERR_CLI_TOO_LARGE" });
 * ```
 */
export async function readInputText(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  options: { readonly what: string; readonly maxBytes?: number },
): Promise<string> {
  // Bytes first, decoded once: the text is held once, not also as pieces and their join.
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of readInputBytes(path, io, options)) {
    chunks.push(chunk.slice()); // the reader reuses its buffer
    length += chunk.length;
  }
  const bytes = chunks.length === 1 ? chunks[0] : new Uint8Array(length);
  if (chunks.length !== 1) {
    let at = 0;
    for (const chunk of chunks.splice(0)) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8(options.what, nameOf(path), firstInvalidByte(bytes));
  }
}

/**
 * Read an input as strict UTF-8 text in pieces, so a caller can work line by
 * line with bounded memory. Throws as {@linkcode readInputText} does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInputChunks } from "./read_input.ts";
 * import { memoryIo } from "./memory_io.ts";
 * const { io } = memoryIo({ stdin: "héllo wörld" });
 * let text = "";
 * for await (const chunk of readInputChunks("-", io, { what: "trace" })) text += chunk;
 * assert.equal(text, "héllo wörld");
 * ```
 */
export async function* readInputChunks(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  options: { readonly what: string; readonly maxBytes?: number },
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let read = 0;
  for await (const chunk of readInputBytes(path, io, options)) {
    try {
      yield decoder.decode(chunk, { stream: true });
    } catch {
      throw notUtf8(options.what, nameOf(path), read + firstInvalidByte(chunk));
    }
    read += chunk.length;
  }
  try {
    yield decoder.decode();
  } catch {
    throw notUtf8(options.what, nameOf(path), read);
  }
}

/** How much a byte stream (a file, standard input) is read at a time, into one buffer. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The input's bytes, chunk by chunk, stopping with `InputTooLargeError` past
 * the limit. A byte stream is read into one buffer, reused for every chunk, so
 * reading a large file leaves no garbage buffers behind: each chunk is valid
 * only until the next one is read (copy it to keep it).
 */
async function* readInputBytes(
  path: string,
  io: Pick<Io, "openFile" | "readTextFile">,
  options: { readonly what: string; readonly maxBytes?: number },
): AsyncGenerator<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const name = nameOf(path);
  let stream: ReadableStream<Uint8Array>;
  try {
    stream = io.openFile ? await io.openFile(path) : textStream(await io.readTextFile(path));
  } catch (error) {
    throw new IoError(`Cannot read ${options.what} ${name}: ${fileProblem(error)} (${readHint(error)})`);
  }
  let read = 0;
  const reader = byteReader(stream);
  let buffer = new ArrayBuffer(CHUNK_BYTES);
  try {
    while (true) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = reader instanceof ReadableStreamBYOBReader
          ? await reader.read(new Uint8Array(buffer))
          : await reader.read();
      } catch (error) {
        throw new IoError(`Cannot read ${options.what} ${name}: ${fileProblem(error)} (${readHint(error)})`);
      }
      if (result.done) return;
      read += result.value.length;
      if (read > maxBytes) {
        throw new InputTooLargeError(
          `Cannot read ${options.what} ${name}: it is larger than --max-bytes ${maxBytes} ` +
            `(raise --max-bytes, or split the ${options.what})`,
        );
      }
      yield result.value;
      if (reader instanceof ReadableStreamBYOBReader) buffer = result.value.buffer as ArrayBuffer;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** A reader into one reused buffer when `stream` is a byte stream (files and standard input are), else its own. */
function byteReader(
  stream: ReadableStream<Uint8Array>,
): ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array> {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    return stream.getReader();
  }
}

function nameOf(path: string): string {
  return isStdin(path) ? "standard input" : `"${path}"`;
}

function notUtf8(what: string, name: string, offset: number): EncodingError {
  return new EncodingError(
    `Cannot read ${what} ${name}: it is not valid UTF-8 text (the first bad byte is near offset ${offset}; ` +
      `save it as UTF-8, or check that it is a ${what} and not a binary file)`,
  );
}

/** The offset of the first byte that cannot start or continue a UTF-8 sequence in `bytes` (0 if unsure). */
function firstInvalidByte(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const byte = bytes[i];
    const length = byte < 0x80
      ? 1
      : byte >= 0xc2 && byte < 0xe0
      ? 2
      : byte >= 0xe0 && byte < 0xf0
      ? 3
      : byte >= 0xf0 && byte < 0xf5
      ? 4
      : 0;
    if (!length) return i;
    for (let j = 1; j < length; j++) {
      if (i + j >= bytes.length) return i + j;
      if ((bytes[i + j] & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return 0;
}

/**
 * How to fix a failed read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readHint } from "./read_input.ts";
 * assert.equal(readHint(new Deno.errors.NotFound("x")), "check the path");
 * ```
 */
export function readHint(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotFound") return "check the path";
  if (name === "NotCapable") return "run with --allow-read (deno task pab grants it)";
  if (name === "IsADirectory") return "name a file, or a folder of them for commands that read folders";
  return "check the file";
}

/** A stream of the text's UTF-8 bytes, for an Io that has no `openFile`. */
function textStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
