/**
 * Check a hook's KV store file before Deno KV opens it. Deno KV panics (exit
 * 1, which Claude Code lets a call through on) when its `-shm` or `-wal`
 * companion cannot be written; checked first, the same fault is a coded
 * error and the hook exits 2. Links are refused too: a link planted where the
 * store goes would make pab write elsewhere.
 *
 * @module
 */
import { errorText } from "../../../core/mod.ts";
import { StoreError } from "../../store/mod.ts";

/**
 * Throw `StoreError` (`ERR_STORE_OPEN`) when the store file at `location`, or
 * its `-shm`, `-wal` or `-journal` companion, is a link, not a regular file,
 * or cannot be opened for reading and writing. Remote stores and `:memory:`
 * pass unchecked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkHookStore } from "./hook_store.ts";
 * const dir = await Deno.makeTempDir();
 * await checkHookStore(`${dir}/hooks.kv`); // nothing there yet: fine
 * await Deno.mkdir(`${dir}/hooks.kv-shm`);
 * await assert.rejects(checkHookStore(`${dir}/hooks.kv`), { code: "ERR_STORE_OPEN" });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function checkHookStore(location: string): Promise<void> {
  if (location === ":memory:" || /^https?:\/\//i.test(location)) return;
  for (const path of [location, `${location}-shm`, `${location}-wal`, `${location}-journal`]) {
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      throw refused(location, path, errorText(error));
    }
    if (info.isSymlink) {
      throw refused(location, path, "it is a symbolic link, and pab does not open stores through links");
    }
    if (!info.isFile) throw refused(location, path, "it is not a regular file");
    try {
      (await Deno.open(path, { read: true, write: true })).close();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue; // the last connection of another hook removed it
      throw refused(
        location,
        path,
        `it cannot be opened for writing (${errorText(error)})`,
      );
    }
  }
}

function refused(location: string, path: string, problem: string): StoreError {
  return new StoreError(
    "ERR_STORE_OPEN",
    `Cannot open store "${location}": "${path}" is unusable: ${problem} (remove it, or give --store another path)`,
  );
}
