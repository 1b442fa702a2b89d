/**
 * The serve bench's warm-up: it runs on sessions of its own, which are deleted before the timed sessions are made, and
 * its steps are not counted.
 */
import assert from "node:assert/strict";
import { benchPolicy, loadServer } from "../adapters/cli/bench/serve_load.ts";
import { SessionHost, startServer } from "../adapters/serve/mod.ts";
import { MemoryStore } from "../adapters/store/mod.ts";

/** A memory store that counts the sessions made and deleted. */
class CountingStore extends MemoryStore {
  made: string[] = [];
  deleted: string[] = [];
  override createSession(...args: Parameters<MemoryStore["createSession"]>) {
    this.made.push(args[0].id);
    return super.createSession(...args);
  }
  override deleteSession(id: string) {
    this.deleted.push(id);
    return super.deleteSession(id);
  }
}

for (const warmupSeconds of [0, 5]) {
  Deno.test(`the serve bench with a ${warmupSeconds} s warm-up times only its own sessions' steps`, async () => {
    const store = new CountingStore();
    const server = startServer(new SessionHost(benchPolicy(), store), { version: "b", port: 0 });
    try {
      // Two steps a session in each phase (steps bound each phase before its deadline).
      const result = await loadServer(server.url, { sessions: 3, steps: 2, seconds: 30, warmupSeconds });
      assert.equal(result.decisions, 6);
      if (warmupSeconds) {
        assert.equal(store.made.length, 6);
        // The warm-up's sessions, and only they, are deleted, before the timed ones are made.
        assert.deepEqual(store.deleted.toSorted(), store.made.slice(0, 3).toSorted());
      } else {
        assert.equal(store.made.length, 3);
        assert.deepEqual(store.deleted, []);
      }
    } finally {
      await server.shutdown();
      store.close();
    }
  });
}
