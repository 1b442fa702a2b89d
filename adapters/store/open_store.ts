/**
 * Open pab's store from what a user types: nothing or `:memory:` (in this
 * process's memory, plain JavaScript),
 * a file path (a Deno KV file, its folder made if missing), or an
 * `http(s)://` URL (a remote Deno KV: a `denokv` server or Deno Deploy, with
 * `DENO_KV_ACCESS_TOKEN` in the environment).
 *
 * @module
 */
import { dirname } from "node:path";
import { KvStore } from "./kv_store.ts";
import { MemoryStore } from "./memory_store.ts";
import type { PabStore } from "./pab_store.ts";
import { StoreError } from "./store_error.ts";

/**
 * Open a store. Throws {@linkcode StoreError} (`ERR_STORE_OPEN`) with the
 * cause and a fix when it cannot be opened or read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openStore } from "./open_store.ts";
 * const store = await openStore(":memory:");
 * assert.equal(store.description, "memory");
 * store.close();
 * ```
 */
export async function openStore(location = ":memory:"): Promise<PabStore> {
  if (location === ":memory:") return new MemoryStore();
  const remote = /^https?:\/\//i.test(location);
  const description = remote ? withoutCredentials(location) : location;
  let kv: Deno.Kv | undefined;
  try {
    if (!remote) await Deno.mkdir(dirname(location), { recursive: true }).catch(() => {});
    kv = await Deno.openKv(location);
    await kv.get(["pab", "probe"]);
  } catch (error) {
    kv?.close();
    throw new StoreError(
      "ERR_STORE_OPEN",
      `Cannot open store "${description}": ${problem(error)} (${hint(error, remote)})`,
      {
        cause: error,
      },
    );
  }
  return new KvStore(kv, description);
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
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

function hint(error: unknown, remote: boolean): string {
  if (error instanceof Error && error.name === "NotCapable") {
    return remote
      ? "run with --allow-net=HOST and --allow-env=DENO_KV_ACCESS_TOKEN"
      : "run with --allow-read and --allow-write for the store's folder";
  }
  if (error instanceof TypeError && /openKv/.test(String(error))) return "run with --unstable-kv";
  return remote ? "check the URL, that the server runs, and DENO_KV_ACCESS_TOKEN" : "check the path";
}
