/**
 * Store files are sandbox-safe: a symbolic link at the store path, at its
 * SQLite siblings (`-wal`, `-shm`) or as its folder is refused, as are files
 * and folders other users own or may rewrite; new files are created
 * exclusively and private. The hook's default store sits in a per-user 0700
 * folder whose ownership is checked.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { defaultStorePath, openStore, prepareStoreFile } from "../adapters/store/mod.ts";

/** `ln -s` (Deno.symlink needs unscoped permissions the test task does not grant). */
async function link(target: string, path: string): Promise<void> {
  const done = await new Deno.Command("ln", { args: ["-s", target, path] }).output();
  assert.equal(done.code, 0, new TextDecoder().decode(done.stderr));
}

async function chown(path: string, uid: number): Promise<boolean> {
  return (await new Deno.Command("chown", { args: [String(uid), path] }).output()).code === 0;
}

/** This process's user (the test task grants no --allow-sys=uid: the owner of a file it makes). */
const UID = await (async () => {
  const probe = await Deno.makeTempFile();
  const uid = (await Deno.lstat(probe)).uid!;
  await Deno.remove(probe);
  return uid;
})();
const IS_ROOT = UID === 0;

Deno.test("openStore() refuses a symbolic link at the store path, at its -wal or -shm file, and as its folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_path_" });
  try {
    await Deno.mkdir(`${dir}/elsewhere`);
    const cases: [string, () => Promise<void>][] = [
      ["a.kv", () => link(`${dir}/elsewhere/a.kv`, `${dir}/a.kv`)],
      ["b.kv", () => link(`${dir}/elsewhere/b.kv-wal`, `${dir}/b.kv-wal`)],
      ["c.kv", () => link(`${dir}/elsewhere/c.kv-shm`, `${dir}/c.kv-shm`)],
      ["linked/d.kv", () => link(`${dir}/elsewhere`, `${dir}/linked`)],
    ];
    for (const [name, plant] of cases) {
      await plant();
      await assert.rejects(openStore(`${dir}/${name}`), (error: Error & { code?: string }) => {
        assert.equal(error.code, "ERR_STORE_UNSAFE_PATH", name);
        assert.match(error.message, /symbolic link.*pab does not open stores through links/, name);
        return true;
      });
    }
    // Nothing was created through the links.
    assert.deepEqual([...Deno.readDirSync(`${dir}/elsewhere`)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() creates a new store file private (0600) and opens an existing one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_path_" });
  try {
    const store = await openStore(`${dir}/new/state.kv`);
    await store.createSession({ id: "s", ledger: "s", created: "t" });
    store.close();
    assert.equal(((await Deno.stat(`${dir}/new/state.kv`)).mode ?? 0) & 0o777, 0o600);
    const again = await openStore(`${dir}/new/state.kv`);
    assert.equal((await again.session("s"))?.id, "s");
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("prepareStoreFile() lets processes of one user make the same new store at once, in a private or sticky folder", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_path_" });
  try {
    for (const [folder, mode] of [[`${dir}/private`, 0o700], [`${dir}/sticky`, 0o1777]] as const) {
      await Deno.mkdir(folder);
      await Deno.chmod(folder, mode);
      // Each call looks, finds nothing, and makes the file: all but one find it made meanwhile, by this user.
      const identities = await Promise.all(Array.from({ length: 8 }, () => prepareStoreFile(`${folder}/s.kv`)));
      assert.equal(new Set(identities.map((identity) => identity.ino)).size, 1);
      assert.equal(((await Deno.stat(`${folder}/s.kv`)).mode ?? 0) & 0o777, 0o600);
      // A link planted there is still refused, however the race goes.
      await link(`${dir}/elsewhere.kv`, `${folder}/linked.kv`);
      const planted = await Promise.allSettled(
        Array.from({ length: 4 }, () => prepareStoreFile(`${folder}/linked.kv`)),
      );
      for (const result of planted) {
        assert.equal(result.status, "rejected");
        if (result.status === "rejected") assert.equal(result.reason.code, "ERR_STORE_UNSAFE_PATH");
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() refuses a folder others may rewrite (not sticky) and a file another user owns", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_path_" });
  try {
    await Deno.mkdir(`${dir}/open`);
    await Deno.chmod(`${dir}/open`, 0o777);
    await assert.rejects(openStore(`${dir}/open/s.kv`), { code: "ERR_STORE_UNSAFE_PATH" });
    // Sticky like /tmp: allowed, and SQLite's files are made first so nobody can plant them.
    await Deno.chmod(`${dir}/open`, 0o1777);
    (await openStore(`${dir}/open/s.kv`)).close();
    if (IS_ROOT) {
      await Deno.writeFile(`${dir}/open/theirs.kv`, new Uint8Array());
      assert.ok(await chown(`${dir}/open/theirs.kv`, 65534));
      await assert.rejects(openStore(`${dir}/open/theirs.kv`), (error: Error & { code?: string }) => {
        assert.equal(error.code, "ERR_STORE_UNSAFE_PATH");
        assert.match(error.message, /belongs to another user/);
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("defaultStorePath() keeps each user's store in a 0700 folder of theirs and refuses one it cannot trust", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_path_" });
  try {
    const uid = UID;
    const path = await defaultStorePath("hooks.kv", `${dir}/pab`);
    assert.equal(path, `${dir}/pab/${uid}/hooks.kv`);
    assert.equal(((await Deno.stat(`${dir}/pab/${uid}`)).mode ?? 0) & 0o777, 0o700);
    assert.equal(((await Deno.stat(`${dir}/pab`)).mode ?? 0) & 0o7777, 0o1777);
    (await openStore(path)).close();
    // A folder left too open is tightened.
    await Deno.chmod(`${dir}/pab/${uid}`, 0o755);
    await defaultStorePath("hooks.kv", `${dir}/pab`);
    assert.equal(((await Deno.stat(`${dir}/pab/${uid}`)).mode ?? 0) & 0o777, 0o700);
    // A planted link as the user's folder is refused.
    await Deno.mkdir(`${dir}/planted`);
    await link(`${dir}/planted`, `${dir}/shared-root`);
    await Deno.mkdir(`${dir}/other`);
    await link(`${dir}/planted`, `${dir}/other/${uid}`);
    await assert.rejects(defaultStorePath("hooks.kv", `${dir}/other`), { code: "ERR_STORE_UNSAFE_PATH" });
    await assert.rejects(defaultStorePath("hooks.kv", `${dir}/shared-root`), { code: "ERR_STORE_UNSAFE_PATH" });
    if (IS_ROOT) {
      // Someone else made the user's folder first: refused, not used.
      await Deno.mkdir(`${dir}/taken`);
      await Deno.mkdir(`${dir}/taken/${uid}`);
      assert.ok(await chown(`${dir}/taken/${uid}`, 65534));
      await assert.rejects(defaultStorePath("hooks.kv", `${dir}/taken`), (error: Error & { code?: string }) => {
        assert.equal(error.code, "ERR_STORE_UNSAFE_PATH");
        assert.match(error.message, /belongs to another user/);
        return true;
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() refuses a link planted at any place of a store path, and writes nothing through it", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 3 }),
      fc.nat(),
      fc.constantFrom("", "-wal", "-shm", "-journal"),
      async (depth, pick, suffix) => {
        const dir = await Deno.makeTempDir({ prefix: "pab_path_" });
        try {
          await Deno.mkdir(`${dir}/target`);
          const folders = Array.from({ length: depth }, (_, i) => `d${i}`);
          // Which place holds the link: one of the folders, or the file (or one of its SQLite siblings).
          const at = pick % (depth + 1);
          const path = `${dir}/${[...folders, "s.kv"].join("/")}`;
          if (at < depth) {
            if (at > 0) await Deno.mkdir(`${dir}/${folders.slice(0, at).join("/")}`, { recursive: true });
            await link(`${dir}/target`, `${dir}/${folders.slice(0, at + 1).join("/")}`);
          } else {
            await Deno.mkdir(`${dir}/${folders.join("/")}`, { recursive: true });
            await link(`${dir}/target/s.kv${suffix}`, `${path}${suffix}`);
          }
          await assert.rejects(openStore(path), { code: "ERR_STORE_UNSAFE_PATH" });
          assert.deepEqual([...Deno.readDirSync(`${dir}/target`)], []);
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      },
    ),
    { numRuns: 20 },
  );
});
