/**
 * A new KV file gets SQLite pages of 16 KiB (a step's row, a 3 KB tool output with its audit record, then fits one
 * leaf instead of spilling to an overflow page); an existing file keeps the page size it has, and both work the same.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openStore, type SessionInput } from "../adapters/store/mod.ts";

function pageSize(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Number((db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size);
  } finally {
    db.close();
  }
}

async function roundTrip(path: string): Promise<void> {
  const store = await openStore(path);
  try {
    const input: SessionInput = { kind: "result", tool: "read", args: {}, output: "z".repeat(3000) };
    const at = (await store.inputs("s", 0)).length;
    assert.equal(await store.createSession({ id: "s", ledger: "s", created: "2026-12-01T23:00:00.000Z" }), at === 0);
    assert.equal(await store.appendInput("s", at, input, [{ kind: "result", at: "2026-12-01T23:00:00.000Z" }]), true);
    assert.deepEqual((await store.inputs("s", at))[0], input);
    assert.equal((await store.audit("s")).length, at + 1);
  } finally {
    store.close();
  }
}

Deno.test("openStore() makes a new KV file with 16 KiB pages and keeps an existing file's page size", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_page_size_" });
  try {
    await roundTrip(`${dir}/new.kv`);
    await roundTrip(`${dir}/new.kv`);
    assert.equal(pageSize(`${dir}/new.kv`), 16_384);
    // A store made before (SQLite's default pages) is opened as it is.
    const earlier = await Deno.openKv(`${dir}/earlier.kv`);
    await earlier.set(["pab", "meta", "probe"], 1);
    earlier.close();
    const before = pageSize(`${dir}/earlier.kv`);
    await roundTrip(`${dir}/earlier.kv`);
    assert.equal(pageSize(`${dir}/earlier.kv`), before);
    assert.notEqual(before, 16_384);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
