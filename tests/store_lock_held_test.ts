/**
 * A store file whose lock another process holds: every call still ends at
 * its deadline with `ERR_STORE_TIMEOUT`, and closing the store does not
 * freeze the process. (Closing a Deno KV handle blocks the thread until the
 * calls it runs are done, and a write waiting on another process's lock runs
 * as long as that process keeps it.)
 */
import assert from "node:assert/strict";
import { KvStore, openStore, StoreError } from "../adapters/store/mod.ts";
import { holdLock } from "./_store_lock.ts";

Deno.test("openStore() on a file another process keeps locked fails ERR_STORE_TIMEOUT at its deadline, without freezing the thread", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_store_lock_" });
  const path = `${dir}/locked.kv`;
  (await openStore(path)).close();
  const lock = await holdLock(path);
  // A thread frozen by a close shows as a gap between ticks.
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 20);
  try {
    const started = performance.now();
    await assert.rejects(openStore(path, { deadline: 800 }), (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(error.code, "ERR_STORE_TIMEOUT");
      assert.match(error.message, /took longer than 800 ms \(another process may hold the file's lock; retry\)/);
      return true;
    });
    const took = performance.now() - started;
    assert.ok(took < 3_000, `rejected after ${Math.round(took)} ms`);
    assert.ok(longestGap < 1_500, `the thread froze for ${Math.round(longestGap)} ms`);
  } finally {
    clearInterval(ticker);
    await lock.release();
  }
  // Once the lock is let go, the store opens and works.
  const store = await openStore(path);
  assert.equal((await store.probe()).ok, true);
  store.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("KvStore.close() returns at once while a call past its deadline still waits on another process's lock", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_store_lock_" });
  const path = `${dir}/locked.kv`;
  (await openStore(path)).close();
  const lock = await holdLock(path);
  try {
    // A handle's first call waits for the lock inside Deno KV's thread (later calls are refused as busy and retried).
    const store = new KvStore(await Deno.openKv(path), path, { deadline: 500 });
    await assert.rejects(store.createSession({ id: "s", ledger: "s", created: "2026-12-02T00:00:00.000Z" }), {
      code: "ERR_STORE_TIMEOUT",
    });
    const started = performance.now();
    store.close();
    const took = performance.now() - started;
    assert.ok(took < 200, `close() took ${Math.round(took)} ms`);
    await assert.rejects(store.session("s"), { code: "ERR_STORE_CLOSED" });
  } finally {
    await lock.release();
  }
  await Deno.remove(dir, { recursive: true });
});
