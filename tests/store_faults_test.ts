/**
 * Store faults say what they are: each kind (disk full, I/O error, read-only,
 * corrupted, deleted or replaced file, unreachable server, deadline, closed)
 * raises a StoreError with its own stable code and a retry hint, within the
 * deadline, and probe() reports it.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { isStoreErrorCode, KvStore, openStore, StoreError, type StoreErrorCode } from "../adapters/store/mod.ts";

/** A Deno.Kv whose every call fails with `error` (or never answers when `error` is undefined). */
function failingKv(error?: Error): Deno.Kv {
  const fail = () => error ? Promise.reject(error) : new Promise<never>(() => {});
  const operation = { check: () => operation, set: () => operation, delete: () => operation, commit: fail };
  return {
    get: fail,
    getMany: fail,
    set: fail,
    delete: fail,
    atomic: () => operation,
    list: () => ({ [Symbol.asyncIterator]: () => ({ next: fail }) }),
    close: () => {},
  } as unknown as Deno.Kv;
}

const FAULTS: readonly [string, Error, boolean, StoreErrorCode][] = [
  ["disk full", new TypeError("database or disk is full"), false, "ERR_STORE_FULL"],
  ["I/O error", new Error("disk I/O error"), false, "ERR_STORE_IO"],
  ["read-only", new Error("attempt to write a readonly database"), false, "ERR_STORE_READONLY"],
  ["corrupted", new Error("database disk image is malformed"), false, "ERR_STORE_CORRUPT"],
  ["not a database", new Error("file is not a database"), false, "ERR_STORE_CORRUPT"],
  ["too large", new TypeError("Total mutation size too large (max 819200 bytes)"), false, "ERR_STORE_LIMIT"],
  ["closed", new Error("Bad resource ID"), false, "ERR_STORE_CLOSED"],
  ["server down", new TypeError("error sending request: connection refused"), true, "ERR_STORE_UNREACHABLE"],
  ["unknown local", new Error("something odd"), false, "ERR_STORE_IO"],
];

for (const [name, error, remote, code] of FAULTS) {
  Deno.test(`KvStore turns a ${name} fault into ${code} with a retry hint, in every call and in probe()`, async () => {
    const store = new KvStore(failingKv(error), "fake.kv", { remote, deadline: 1000 });
    for (const call of [() => store.session("s"), () => store.appendInput("s", 0, { kind: "user", text: "x" })]) {
      await assert.rejects(call(), (thrown: unknown) => {
        assert.ok(thrown instanceof StoreError);
        assert.equal(thrown.code, code);
        assert.match(thrown.message, /^Cannot [a-z ]+ in store "fake\.kv": .+ \(.+\)$/);
        assert.equal(thrown.retryAfter === null || thrown.retryAfter > 0, true);
        return true;
      });
    }
    const health = await store.probe();
    assert.equal(health.ok, false);
    if (!health.ok) assert.equal(health.code, code);
    store.close();
  });
}

Deno.test("a fault's words anywhere in a KV error message decide its code; nothing else is invented", async () => {
  const words: [string, StoreErrorCode][] = [
    ["database or disk is full", "ERR_STORE_FULL"],
    ["SQLITE_IOERR", "ERR_STORE_IO"],
    ["read-only file system", "ERR_STORE_READONLY"],
    ["SQLITE_CORRUPT", "ERR_STORE_CORRUPT"],
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...words),
      fc.stringMatching(/^[a-z ]{0,20}$/),
      async ([phrase, code], noise) => {
        const store = new KvStore(failingKv(new Error(`${noise}: ${phrase} ${noise}`)), "fake.kv", { deadline: 500 });
        const thrown = await store.session("s").catch((error) => error);
        store.close();
        assert.ok(thrown instanceof StoreError && isStoreErrorCode(thrown.code));
        assert.equal(thrown.code, code);
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("a store call that never answers fails at its deadline: ERR_STORE_TIMEOUT locally, ERR_STORE_UNREACHABLE remotely", async () => {
  for (const [remote, code] of [[false, "ERR_STORE_TIMEOUT"], [true, "ERR_STORE_UNREACHABLE"]] as const) {
    const store = new KvStore(failingKv(), "hung", { remote, deadline: 50 });
    const started = performance.now();
    await assert.rejects(store.inputs("s", 0), { code });
    const health = await store.probe();
    assert.equal(health.ok ? "ok" : health.code, code);
    assert.ok(performance.now() - started < 2000, "the deadline bounds the wait");
    store.close();
  }
});

Deno.test("a deleted or replaced store file fails ERR_STORE_GONE instead of writing into nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_faults_" });
  try {
    const deleted = await openStore(`${dir}/a.kv`);
    assert.equal(await deleted.createSession({ id: "s", ledger: "s", created: "t" }), true);
    await Deno.remove(`${dir}/a.kv`);
    await assert.rejects(deleted.appendInput("s", 0, { kind: "user", text: "lost?" }), { code: "ERR_STORE_GONE" });
    const health = await deleted.probe();
    assert.equal(health.ok ? "ok" : health.code, "ERR_STORE_GONE");
    deleted.close();

    const replaced = await openStore(`${dir}/b.kv`);
    await Deno.writeTextFile(`${dir}/other`, "");
    await Deno.rename(`${dir}/other`, `${dir}/b.kv`);
    await assert.rejects(replaced.session("s"), (error: StoreError) => {
      assert.equal(error.code, "ERR_STORE_GONE");
      assert.match(error.message, /was replaced while pab had it open/);
      assert.equal(error.retryAfter, null);
      return true;
    });
    replaced.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() refuses a corrupted or foreign file with ERR_STORE_CORRUPT before Deno KV can crash on it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_faults_" });
  try {
    await Deno.writeFile(`${dir}/garbage.kv`, crypto.getRandomValues(new Uint8Array(8192)));
    await assert.rejects(openStore(`${dir}/garbage.kv`), { code: "ERR_STORE_CORRUPT" });
    const store = await openStore(`${dir}/damaged.kv`);
    for (let i = 0; i < 40; i++) await store.appendInput("s", i, { kind: "user", text: "y".repeat(3000) });
    store.close();
    const file = await Deno.open(`${dir}/damaged.kv`, { write: true });
    await file.seek(8192, Deno.SeekMode.Start);
    await file.write(crypto.getRandomValues(new Uint8Array(40_000)));
    file.close();
    await assert.rejects(openStore(`${dir}/damaged.kv`), (error: StoreError) => {
      assert.equal(error.code, "ERR_STORE_CORRUPT");
      assert.match(error.message, /restore it from a backup/);
      return true;
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a closed store fails ERR_STORE_CLOSED", async () => {
  const store = new KvStore(await Deno.openKv(":memory:"), "memory kv");
  store.close();
  await assert.rejects(store.session("s"), { code: "ERR_STORE_CLOSED" });
});

/** Whether this machine lets the test mount a small tmpfs (root in a container or VM). */
async function canMount(): Promise<boolean> {
  const dir = await Deno.makeTempDir({ prefix: "pab_mount_" });
  try {
    const mounted = await new Deno.Command("mount", { args: ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir] })
      .output().catch(() => undefined);
    if (mounted?.code !== 0) return false;
    await new Deno.Command("umount", { args: [dir] }).output();
    return true;
  } finally {
    await Deno.remove(dir).catch(() => {});
  }
}

Deno.test({
  name: "a store on a read-only file system fails ERR_STORE_READONLY at open (a tmpfs remounted read-only)",
  ignore: !(await canMount()),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "pab_ro_" });
    await new Deno.Command("mount", { args: ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir] }).output();
    try {
      const store = await openStore(`${dir}/s.kv`);
      await store.createSession({ id: "s", ledger: "s", created: "t" });
      store.close();
      await new Deno.Command("mount", { args: ["-o", "remount,ro", dir] }).output();
      await assert.rejects(openStore(`${dir}/s.kv`), (error: StoreError) => {
        assert.equal(error.code, "ERR_STORE_READONLY");
        assert.match(error.message, /make the store file and its folder writable/);
        return true;
      });
    } finally {
      await new Deno.Command("umount", { args: [dir] }).output();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a full disk fails ERR_STORE_FULL with no retry hint (a 256 KiB tmpfs)",
  ignore: !(await canMount()),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "pab_full_" });
    await new Deno.Command("mount", { args: ["-t", "tmpfs", "-o", "size=256k", "tmpfs", dir] }).output();
    try {
      const store = await openStore(`${dir}/s.kv`);
      const thrown = await (async () => {
        for (let i = 0; i < 100; i++) await store.appendInput("s", i, { kind: "user", text: "z".repeat(50_000) });
      })().catch((error) => error);
      assert.ok(thrown instanceof StoreError, String(thrown));
      assert.equal(thrown.code, "ERR_STORE_FULL");
      assert.equal(thrown.retryAfter, null);
      store.close();
    } finally {
      await new Deno.Command("umount", { args: [dir] }).output();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
