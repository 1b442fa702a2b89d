/**
 * Create an output file the safe way: never through a symbolic link, never
 * over an existing file.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { UnsafePathError } from "../shell/cli_error.ts";

/**
 * Write `text` to a new file at `path`, creating missing folders one at a
 * time. Every folder on the way is checked with `lstat`: a symbolic link
 * (such as one planted in a world-writable `/tmp/pab`) is refused with
 * {@linkcode UnsafePathError}, except a top-level entry of the file system
 * root (macOS's `/tmp` is a link to `/private/tmp`; only an administrator can
 * place one there). The file is opened with `createNew` (`O_CREAT|O_EXCL`),
 * which fails on an existing file or link instead of following it; that
 * failure is reported as {@linkcode UnsafePathError} too. Other failures
 * reject with the runtime's error (such as `Deno.errors.NotCapable`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createFileExclusively } from "./create_file.ts";
 * const path = `${await Deno.makeTempDir()}/out/draft.yaml`;
 * await createFileExclusively(path, "version: 1\n");
 * assert.equal(await Deno.readTextFile(path), "version: 1\n");
 * await assert.rejects(createFileExclusively(path, "again"), { code: "ERR_CLI_UNSAFE_PATH" });
 * ```
 */
export async function createFileExclusively(path: string, text: string): Promise<void> {
  const absolute = resolve(path);
  const folders: string[] = [];
  for (let folder = dirname(absolute); dirname(folder) !== folder; folder = dirname(folder)) folders.unshift(folder);
  for (const folder of folders) {
    let info = await Deno.lstat(folder).catch((error) => {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    });
    if (!info) {
      await Deno.mkdir(folder).catch((error) => {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      });
      info = await Deno.lstat(folder);
    }
    const topLevel = dirname(dirname(folder)) === dirname(folder);
    if (info.isSymlink && !topLevel) {
      throw new UnsafePathError(
        `Cannot write "${path}": "${folder}" is a symbolic link, and pab does not write through links ` +
          `(someone may have planted it; remove it, or write somewhere else)`,
      );
    }
  }
  let file: Deno.FsFile;
  try {
    file = await Deno.open(absolute, { write: true, createNew: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new UnsafePathError(
        `Cannot write "${path}": it already exists, and pab only creates new files (remove it, or choose another name)`,
      );
    }
    throw error;
  }
  try {
    let bytes = new TextEncoder().encode(text);
    while (bytes.length) bytes = bytes.subarray(await file.write(bytes));
  } finally {
    file.close();
  }
}
