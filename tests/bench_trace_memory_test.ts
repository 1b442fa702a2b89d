/**
 * `pab bench trace-memory --emails` (issue 19, item 7): the trace the issue
 * asks about, an inbox of e-mails from many distinct addresses with sends to
 * addresses read earlier, is written and replayed like the default one.
 */
import assert from "node:assert/strict";
import { BENCHES, memoryIo } from "../adapters/cli/mod.ts";

Deno.test("pab bench trace-memory --emails replays an inbox trace and reports its peak memory", async () => {
  await Deno.mkdir("/tmp/pab", { recursive: true });
  const memory = memoryIo();
  const code = await BENCHES["trace-memory"].run(["--mb", "1", "--emails", "--json"], memory.io);
  assert.ok(code === 0 || code === 1, `exit ${code}: ${memory.stderr()}`);
  const json = JSON.parse(memory.stdout());
  assert.equal(json.schemaVersion, 1);
  // About 6 KB a page: fewer calls than the default trace's 5 KB pages, and sends besides.
  assert.ok(json.traceBytes >= 1e6 && json.calls > 100 && json.calls < 200, memory.stdout());
  assert.ok(json.peakRssBytes > 0);
});
