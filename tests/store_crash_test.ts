/**
 * Crash tests: writer processes on one KV file killed (SIGKILL) at random
 * points under load, again and again; then the store is reopened and every
 * promise checked: the chains verify and end at their heads, every stored
 * input names its audit record, no key is held without a reservation, and
 * every reservation a client was told about can still be finished by its id.
 */
import assert from "node:assert/strict";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { type AuditRecord, verifyHeads, verifyRecords } from "../adapters/audit/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { ROOT, SERVE_POLICY_YAML } from "./_serve_fixtures.ts";
import { seededRandom } from "../adapters/cli/bench/seeded_random.ts";

const ROUNDS = 6;
const WRITERS = 2;

/** Run WRITERS writers on `path`, kill each at a random moment once it is writing; return their lines. */
async function killedRound(path: string, random: () => number): Promise<string[]> {
  const lines: string[] = [];
  await Promise.all(Array.from({ length: WRITERS }, async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--unstable-kv", "--allow-read", "--allow-write=/tmp", "tests/_store_writer.ts", path],
      cwd: ROOT,
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    let killAt: number | undefined;
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
      if (killAt === undefined && text.includes("ready\n")) {
        killAt = 20 + Math.floor(random() * 400);
        setTimeout(() => child.kill("SIGKILL"), killAt);
      }
    }
    clearTimeout(timer);
    await child.status;
    // Only whole lines were answered to a client.
    lines.push(...text.split("\n").slice(0, -1).filter((line) => line !== "ready"));
  }));
  return lines;
}

Deno.test("writers killed at random points under load leave a store whose invariants hold after restart", async () => {
  const seed = Date.now() % 1_000_000;
  const dir = await Deno.makeTempDir({ prefix: "pab_crash_" });
  const path = `${dir}/state.kv`;
  try {
    const random = seededRandom(seed);
    const lines: string[] = [];
    for (let round = 0; round < ROUNDS; round++) lines.push(...await killedRound(path, random));
    const reserved = lines.filter((line) => line.startsWith("R ")).map((line) => line.split(" ").slice(1));
    const finished = new Set(lines.filter((line) => line.startsWith("C ")).map((line) => line.slice(2)));
    assert.ok(reserved.length > 0, `seed ${seed}: the writers reserved nothing`);

    // Restart: the repair at open releases the holds of the killed writers (grace 0: they are all dead).
    const store = await openStore(path, { holdGrace: 0 });
    const host = new SessionHost(parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" }), store);
    const kv = await Deno.openKv(path);
    try {
      const records = await store.audit();
      assert.deepEqual(verifyRecords(records).ok, true, `seed ${seed}: ${JSON.stringify(verifyRecords(records))}`);
      assert.equal(verifyHeads(records, await store.heads()).ok, true, `seed ${seed}: heads`);

      // Every stored input names its audit record, and every input-carrying audit record names a stored input.
      const sessions = new Set<string>();
      for await (const entry of kv.list({ prefix: ["pab", "session"] })) sessions.add(String(entry.key[2]));
      for (const session of sessions) {
        const inputs = (await store.inputs(session, 0)).length;
        const named = records.filter((record: AuditRecord) => record.stream === session && "input" in record.event)
          .map((record) => record.event.input).sort((a, b) => Number(a) - Number(b));
        assert.deepEqual(named, Array.from({ length: inputs }, (_, i) => i), `seed ${seed}: session ${session}`);
      }

      // No hold survives the repair, and every reserved key belongs to a reservation record.
      for await (const _ of kv.list({ prefix: ["pab", "hold"] })) assert.fail(`seed ${seed}: a hold survived`);
      const holders = new Set<string>();
      for await (const entry of kv.list<{ text: string }>({ prefix: ["pab", "res"] })) {
        holders.add(JSON.parse(entry.value.text).holder);
      }
      for await (const entry of kv.list<{ state: string; holder: string }>({ prefix: ["pab", "fx"] })) {
        if (entry.value.state === "reserved") {
          assert.ok(holders.has(entry.value.holder), `seed ${seed}: ${String(entry.key[3])} held by nobody`);
        }
      }

      // Every reservation a client was told about is finished, or still open and listed.
      const open = new Map<string, string>();
      for (const session of sessions) {
        for (const record of await store.openReservations(session)) open.set(record.id, session);
      }
      for (const [session, reservation] of reserved) {
        if (open.has(reservation)) continue;
        const ended = (await store.audit(session)).some((record) =>
          (record.event.kind === "effect" || record.event.kind === "release") &&
          record.event.reservation === reservation
        );
        assert.ok(ended || finished.has(`${session} ${reservation}`), `seed ${seed}: ${reservation} is lost`);
      }
      // Whoever has an open reservation's id (from its answer or from the list) can finish it.
      for (const [reservation, session] of open) {
        await host.commit(session, { reservation, error: "abandoned after the crash" });
      }
      assert.ok(open.size > 0, `seed ${seed}: no reservation was left open to finish`);
      console.log(
        `crash test: seed ${seed}, ${reserved.length} reserved, ${finished.size} finished, ${open.size} open`,
      );
      for await (const entry of kv.list<{ state: string }>({ prefix: ["pab", "fx"] })) {
        assert.equal(entry.value.state, "committed", `seed ${seed}: a key stayed reserved`);
      }
    } finally {
      kv.close();
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
