/**
 * Before it judges, a hosted session reads what other processes appended and, when a decision can depend on them,
 * the ledger's committed effects: a policy without ledger rules (`once`, `requires_prior`, `requires_no_prior`) skips
 * that read (and the read of the inputs, once it has read them: its decisions' writes check that none was appended
 * since), and one with them still sees an effect another process committed.
 */
import assert from "node:assert/strict";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { KvStore, type LedgerEffects, openStore, type PabStore } from "../adapters/store/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

/** A store that counts the reads of inputs and of effects. */
function countingStore(store: PabStore): { store: PabStore; reads: { inputs: number; effects: number } } {
  const reads = { inputs: 0, effects: 0 };
  const counted = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name === "inputs") {
        return (...args: Parameters<PabStore["inputs"]>) => {
          reads.inputs++;
          return target.inputs(...args);
        };
      }
      if (name === "effects") {
        return (ledger: string): LedgerEffects => {
          const effects = target.effects(ledger);
          return new Proxy(effects, {
            get(inner, key) {
              const member = Reflect.get(inner, key);
              if (key === "refresh") {
                return () => {
                  reads.effects++;
                  return inner.refresh();
                };
              }
              return typeof member === "function" ? member.bind(inner) : member;
            },
          });
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store: counted, reads };
}

Deno.test("SessionHost reads a ledger's effects before judging only for a policy with ledger rules", async () => {
  const plain = parsePolicy("version: 1\ntools:\n  read_inbox: {output: untrusted}\n  send_email: {output: trusted}\n");
  // Without ledger rules, the inputs are read once when the session is first used: each decision's write then checks
  // that none was appended since. With them, the inputs and effects are read before each decision too.
  for (const [policy, expected, inputs] of [[plain, 0, 1], [parsePolicy(SERVE_POLICY_YAML), 4, 4]] as const) {
    const { store, reads } = countingStore(await openStore(":memory:"));
    const host = new SessionHost(policy, store);
    const id = await host.create();
    for (let i = 0; i < 3; i++) {
      await host.result(id, { tool: "read_inbox", args: {}, output: `note ${i}` });
      await host.decide(id, { tool: "send_email", args: { to: "alice@corp.example" } });
    }
    assert.equal(reads.effects, expected);
    assert.equal(reads.inputs, inputs);
    store.close();
  }
});

Deno.test("SessionHost judges a once tool against an effect another process committed on a shared KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_sync_" });
  const policy = parsePolicy(SERVE_POLICY_YAML);
  const first = new KvStore(await Deno.openKv(`${dir}/shared.kv`), "first");
  const second = new KvStore(await Deno.openKv(`${dir}/shared.kv`), "second");
  try {
    const [here, there] = [new SessionHost(policy, first), new SessionHost(policy, second)];
    const mine = await here.create({ ledger: "team" });
    const theirs = await there.create({ ledger: "team" });
    assert.equal((await here.decide(mine, { tool: "publish_release", args: {} })).outcome, "allow");
    assert.equal((await there.decide(theirs, { tool: "publish_release", args: {} })).outcome, "allow");
    const reserved = await there.propose(theirs, { tool: "publish_release", args: {} });
    assert.equal(reserved.status, "reserved");
    if (reserved.status === "reserved") {
      await there.commit(theirs, { reservation: reserved.reservation.id, output: "ok" });
    }
    const after = await here.decide(mine, { tool: "publish_release", args: {} });
    assert.equal(after.outcome, "block");
    assert.deepEqual(after.gaps.map((gap) => gap.code), ["no-prior"]);
  } finally {
    first.close();
    second.close();
    await Deno.remove(dir, { recursive: true });
  }
});
