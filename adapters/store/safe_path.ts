/**
 * Store files opened the sandbox-safe way: never through a symbolic link,
 * never in a folder other users can rewrite, new files created exclusively
 * (`O_CREAT|O_EXCL`) and private (`0600`), and SQLite's `-wal`, `-shm` and
 * `-journal` siblings checked and made the same way before SQLite opens them.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import { StoreError } from "./store_error.ts";

/** The identity of an opened store file, to notice later that it was deleted or replaced. */
export interface FileIdentity {
  /** The absolute path. */
  readonly path: string;
  /** The device. */
  readonly dev: number;
  /** The inode (null where the system has none to report, as on Windows). */
  readonly ino: number | null;
}

/** SQLite's files next to a KV file at `path`. */
const SIBLINGS = ["-wal", "-shm", "-journal"];

/**
 * Make a KV file at `path` safe to open (see the module doc) and return its
 * identity. Throws {@linkcode StoreError} `ERR_STORE_UNSAFE_PATH` for a
 * symbolic link, a folder others may rewrite, or a file someone else owns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareStoreFile } from "./safe_path.ts";
 * const dir = await Deno.makeTempDir();
 * const identity = await prepareStoreFile(`${dir}/state/s.kv`);
 * assert.equal((await Deno.lstat(`${dir}/state/s.kv`)).ino, identity.ino);
 * await assert.rejects(prepareStoreFile(`${dir}/state/s.kv/inner.kv`), { code: "ERR_STORE_OPEN" });
 * ```
 */
export async function prepareStoreFile(path: string): Promise<FileIdentity> {
  const absolute = resolve(path);
  const folders: string[] = [];
  for (let folder = dirname(absolute); dirname(folder) !== folder; folder = dirname(folder)) folders.unshift(folder);
  for (const folder of folders) {
    const info = await lstatOrMake(folder, path);
    if (!info.isDirectory) {
      throw new StoreError(
        "ERR_STORE_OPEN",
        `Cannot open store "${path}": "${folder}" is not a folder (check the path)`,
      );
    }
    // A shared folder that is not sticky lets other users swap what is in it.
    if ((info.mode ?? 0) & 0o022 && !((info.mode ?? 0) & 0o1000)) {
      unsafe(path, `other users may rename or replace files in "${folder}" (it is writable by them and not sticky)`);
    }
  }
  const uid = await currentUid(dirname(absolute));
  const parent = await Deno.lstat(dirname(absolute));
  if (!ownedBy(parent, uid)) unsafe(path, `"${dirname(absolute)}" belongs to another user`);
  const sticky = ((parent.mode ?? 0) & 0o1000) !== 0;
  for (const file of [absolute, ...SIBLINGS.map((suffix) => absolute + suffix)]) {
    let existing = await lstatOrUndefined(file);
    // In a shared sticky folder (such as /tmp) SQLite's own files are made first, so nobody can plant them.
    const make = !existing && (file === absolute || (sticky && !file.endsWith("-journal")));
    // A file that appears while it is made (another pab of this user opening the same store) is judged as one that
    // was there: a plain file owned by this user (or root) is used, anything else refused.
    if (make && !(await createNew(file))) existing = await Deno.lstat(file);
    if (existing) {
      if (!existing.isFile) unsafe(path, `"${file}" is ${existing.isSymlink ? "a symbolic link" : "not a file"}`);
      if (!ownedBy(existing, uid)) unsafe(path, `"${file}" belongs to another user`);
    }
  }
  const info = await Deno.lstat(absolute);
  return { path: absolute, dev: info.dev, ino: info.ino ?? null };
}

/**
 * The default place of a store named `file` for one user: `/tmp/pab/UID/FILE`,
 * in a folder only that user may enter (`0700`, owned by them). `/tmp/pab` is
 * made sticky and shared like `/tmp`; if it or the user's folder belongs to
 * someone else, or is a symbolic link, it throws `ERR_STORE_UNSAFE_PATH`
 * rather than use it. Pass the result to {@linkcode openStore}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultStorePath } from "./safe_path.ts";
 * const root = `${await Deno.makeTempDir()}/pab`; // the default root is /tmp/pab
 * const path = await defaultStorePath("hooks.kv", root);
 * assert.match(path, /\/pab\/\d+\/hooks\.kv$/);
 * assert.equal((await Deno.stat(path.slice(0, -"/hooks.kv".length))).mode! & 0o777, 0o700);
 * ```
 */
export async function defaultStorePath(file = "hooks.kv", root = "/tmp/pab"): Promise<string> {
  const made = await Deno.mkdir(root).then(() => true, (error) => {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  });
  const uid = await currentUid(root);
  if (uid === null) {
    throw new StoreError(
      "ERR_STORE_UNSAFE_PATH",
      `Cannot choose a private store folder under "${root}": pab cannot tell which user runs it ` +
        `(run with --allow-sys=uid, or pass --store with a path in a folder of your own)`,
    );
  }
  if (made) await Deno.chmod(root, 0o1777);
  const shared = await privateFolder(root, 0o1777, (info) => info.uid === 0 || info.uid === uid, file);
  const mine = await privateFolder(join(shared, String(uid)), 0o700, (info) => info.uid === uid, file);
  if (((await Deno.lstat(mine)).mode ?? 0) & 0o077) await Deno.chmod(mine, 0o700);
  return join(mine, file);
}

async function privateFolder(
  folder: string,
  mode: number,
  owned: (info: Deno.FileInfo) => boolean,
  file: string,
): Promise<string> {
  let info = await lstatOrUndefined(folder);
  if (!info) {
    await Deno.mkdir(folder).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
    info = await Deno.lstat(folder);
    if (info.isDirectory && owned(info) && !info.isSymlink) await Deno.chmod(folder, mode);
  }
  if (info.isSymlink || !info.isDirectory) unsafe(join(folder, file), `"${folder}" is not a plain folder`);
  if (!owned(info)) unsafe(join(folder, file), `"${folder}" belongs to another user`);
  if ((info.mode ?? 0) & 0o022 && !((info.mode ?? 0) & 0o1000)) {
    unsafe(join(folder, file), `other users may rename or replace files in "${folder}" (it is not sticky)`);
  }
  return folder;
}

/**
 * The user this process runs as: `Deno.uid()`, or without `--allow-sys=uid`
 * the owner of a file it makes (and removes) in `folder`; null when neither
 * is allowed (then the folder is not writable to it either).
 */
async function currentUid(folder: string): Promise<number | null> {
  try {
    return Deno.uid();
  } catch {
    try {
      const probe = await Deno.makeTempFile({ dir: folder, prefix: ".pab-uid-" });
      try {
        return (await Deno.lstat(probe)).uid;
      } finally {
        await Deno.remove(probe);
      }
    } catch {
      return null;
    }
  }
}

/** Owned by root, by this user, or (when the user cannot be told) not checked: the OS then refuses writes anyway. */
function ownedBy(info: Deno.FileInfo, uid: number | null): boolean {
  return info.uid === null || uid === null || info.uid === 0 || info.uid === uid;
}

async function lstatOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function lstatOrMake(folder: string, path: string): Promise<Deno.FileInfo> {
  let info = await lstatOrUndefined(folder);
  if (!info) {
    await Deno.mkdir(folder, { mode: 0o700 }).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
    info = await Deno.lstat(folder);
  }
  // A top-level link (macOS's /tmp -> /private/tmp) can only be placed by an administrator.
  const topLevel = dirname(dirname(folder)) === dirname(folder);
  if (info.isSymlink && !topLevel) unsafe(path, `"${folder}" is a symbolic link`);
  return info.isSymlink ? await Deno.stat(folder) : info;
}

/** Make `file` (mode 0600) if nothing is there; false if something appeared there first. */
async function createNew(file: string): Promise<boolean> {
  try {
    (await Deno.open(file, { write: true, createNew: true, mode: 0o600 })).close();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw error;
  }
}

function unsafe(path: string, why: string): never {
  throw new StoreError(
    "ERR_STORE_UNSAFE_PATH",
    `Cannot open store "${path}": ${why}, and pab does not open stores through links or shared folders ` +
      `(someone may have planted it; remove it, or choose a path in a folder of your own)`,
  );
}
