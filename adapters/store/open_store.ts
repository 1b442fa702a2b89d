/**
 * Open pab's store from what a user types: nothing or `:memory:` (in this
 * process's memory, plain JavaScript), a file path (a Deno KV file, checked
 * and created the sandbox-safe way), or an `http(s)://` URL (a remote Deno
 * KV: a `denokv` server or Deno Deploy, with `DENO_KV_ACCESS_TOKEN` in the
 * environment).
 *
 * @module
 */
import { errorText } from "../../core/mod.ts";
import { KvGate } from "./_kv_gate.ts";
import { KvStore } from "./kv_store.ts";
import { MemoryStore } from "./memory_store.ts";
import type { PabStore } from "./pab_store.ts";
import { prepareStoreFile } from "./safe_path.ts";
import { StoreError } from "./store_error.ts";

/** Options of {@linkcode openStore}. */
export interface OpenStoreOptions {
  /** The most one store call may take, in milliseconds (default 10,000). */
  readonly deadline?: number;
  /** Check a local file's pages before Deno KV reads them (SQLite's `quick_check`; default true). */
  readonly checkIntegrity?: boolean;
  /** Release holds of crashed processes at open (see {@linkcode KvStore.repair}; default true). */
  readonly repair?: boolean;
  /** How old a hold must be before the repair releases it, in milliseconds (default 10 minutes). */
  readonly holdGrace?: number;
}

/** The default deadline of one store call. */
export const DEFAULT_DEADLINE = 10_000;

/**
 * Open a store. A file is refused if it, its folder or SQLite's `-wal`/`-shm`
 * files are symbolic links or belong to another user (`ERR_STORE_UNSAFE_PATH`),
 * and its pages are checked first (`ERR_STORE_CORRUPT`: Deno KV would crash
 * on a damaged file). Other failures throw {@linkcode StoreError}
 * (`ERR_STORE_OPEN`, `ERR_STORE_UNREACHABLE`, ...) with the cause and a fix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openStore } from "./open_store.ts";
 * const store = await openStore(":memory:");
 * assert.equal(store.description, "memory");
 * assert.equal((await store.probe()).ok, true);
 * store.close();
 * ```
 */
export async function openStore(location = ":memory:", options: OpenStoreOptions = {}): Promise<PabStore> {
  if (location === ":memory:") return new MemoryStore();
  const remote = /^https?:\/\//i.test(location);
  const description = remote ? withoutCredentials(location) : location;
  const deadline = options.deadline ?? DEFAULT_DEADLINE;
  const opening = new KvGate(description, { deadline, remote });
  let kv: Deno.Kv | undefined;
  let pending: Promise<Deno.Kv> | undefined;
  let store: KvStore | undefined;
  try {
    const identity = remote ? undefined : await prepareStoreFile(location);
    if (identity) await sizePages(identity.path);
    if (identity && options.checkIntegrity !== false) await checkIntegrity(identity.path, description);
    kv = await opening.run("open the store", () => pending = Deno.openKv(location));
    store = new KvStore(kv, description, {
      deadline,
      remote,
      ...(identity ? { identity, farExpiry: true } : {}),
      ...(options.holdGrace !== undefined ? { holdGrace: options.holdGrace } : {}),
    });
    await store.stamp();
    if (options.repair !== false) await store.repair();
    return store;
  } catch (error) {
    if (store) store.close();
    else if (kv) kv.close();
    // An open that finishes after its deadline is closed when it does.
    else pending?.then((late) => late.close(), () => {});
    // A fault with a code of its own keeps it (a read-only disk, a damaged file); the rest cannot open.
    const fault = opening.fault("open the store", error);
    if (fault.code !== "ERR_STORE_IO" && fault.code !== "ERR_STORE_OPEN") throw fault;
    throw new StoreError(
      "ERR_STORE_OPEN",
      `Cannot open store "${description}": ${problem(error)} (${hint(error, remote)})`,
      { cause: error },
    );
  }
}

/**
 * SQLite's page size for a new store file. Deno KV keeps its rows in a table
 * without rowids, where a row over about a quarter of a page spills into
 * overflow pages: at SQLite's default 4 KiB, a step's row (a 3 KB tool output
 * with its audit record) took two pages, and SQLite's thread read and wrote
 * several times the pages it does at 16 KiB.
 */
const STORE_PAGE_SIZE = 16_384;

/** Give a store file pab has just made (still empty) SQLite pages of {@linkcode STORE_PAGE_SIZE}; an existing store keeps its own. */
async function sizePages(path: string): Promise<void> {
  if ((await Deno.lstat(path)).size !== 0) return;
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path);
    try {
      db.exec(`PRAGMA page_size = ${STORE_PAGE_SIZE}; PRAGMA journal_mode = WAL;`);
    } finally {
      db.close();
    }
  } catch {
    // Refused (a sandbox without write access to the file for node:sqlite, another process opening it meanwhile): the
    // store works the same at SQLite's default page size.
  }
}

async function checkIntegrity(path: string, description: string): Promise<void> {
  let verdict: string;
  try {
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const rows = db.prepare("PRAGMA quick_check(1)").all() as { quick_check?: unknown }[];
      verdict = String(rows[0]?.quick_check ?? "ok");
    } finally {
      db.close();
    }
  } catch (error) {
    const message = errorText(error);
    if (!/not a database|malformed|corrupt/i.test(message)) return;
    verdict = message;
  }
  if (verdict !== "ok") {
    throw new StoreError(
      "ERR_STORE_CORRUPT",
      `Cannot open store "${description}": the file is damaged or is not a Deno KV file (${
        verdict.split("\n").slice(0, 2).join(" ")
      }; restore it from a backup, or move it away and start a new one)`,
    );
  }
}

function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return url;
  }
}

function problem(error: unknown): string {
  if (error instanceof Error && error.name === "NotCapable") return "Deno's permission sandbox refused it";
  if (error instanceof StoreError && error.cause instanceof Error) return problem(error.cause);
  return errorText(error).split("\n")[0];
}

function hint(error: unknown, remote: boolean): string {
  const cause = error instanceof StoreError && error.cause ? error.cause : error;
  if (cause instanceof Error && cause.name === "NotCapable") {
    return remote
      ? "run with --allow-net=HOST and --allow-env=DENO_KV_ACCESS_TOKEN"
      : "run with --allow-read and --allow-write for the store's folder";
  }
  if (cause instanceof TypeError && /openKv/.test(String(cause))) return "run with --unstable-kv";
  return remote ? "check the URL, that the server runs, and DENO_KV_ACCESS_TOKEN" : "check the path";
}
