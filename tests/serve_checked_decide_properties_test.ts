/**
 * A decision made without reading the store first (a policy without ledger rules) is as strict as one made after
 * reading it: two hosts (two processes' worth) append inputs to one session and decide in it at random points, at
 * once or one after another, and every decision answered is the one a fresh guard replaying every input committed
 * before that decision's audit record makes; the chain verifies and holds one decision record per answer.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { Guard, type Policy } from "../guard/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { verifyRecords } from "../adapters/audit/mod.ts";
import { SessionHost } from "../adapters/serve/mod.ts";
import { KvStore, MemoryStore, type PabStore, type SessionInput } from "../adapters/store/mod.ts";

const POLICY = parsePolicy(`
version: 1
tools:
  read_inbox: { output: untrusted, on_tainted: allow }
  send_email:
    output: trusted
    on_tainted: allow
    args:
      to: { require: trusted }
`);
const ADDRESSES = ["alice@corp.example", "bob@corp.example", "eve@attacker.example"];

interface Step {
  /** Which host takes the step. */
  readonly host: 0 | 1;
  readonly kind: "user" | "inbox" | "decide";
  /** Which address the step names. */
  readonly who: number;
  /** Macrotask turns the store waits before running the step's store calls. */
  readonly delay: number;
}

const step: fc.Arbitrary<Step> = fc.record({
  host: fc.constantFrom(0 as const, 1 as const),
  kind: fc.constantFrom("user" as const, "inbox" as const, "decide" as const),
  who: fc.nat(ADDRESSES.length - 1),
  delay: fc.nat(3),
});
/** Batches of steps: the steps of a batch run at once, the batches one after another. */
const batches = fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 });

/** `store` whose writes and reads of inputs and audit events wait `delay()` macrotask turns first (a slower store). */
function slowed(store: PabStore, delay: () => number): PabStore {
  const slow = new Set(["appendInput", "inputs", "writeAuditEvents"]);
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      if (!slow.has(String(name))) return value.bind(target);
      return async (...args: unknown[]) => {
        for (let turns = delay(); turns > 0; turns--) await new Promise((resolve) => setTimeout(resolve, 0));
        return await value.apply(target, args);
      };
    },
  });
}

/** Run `steps` on two hosts of one session, then check each answer against a fresh guard's replay. */
async function checkRun(stores: readonly [PabStore, PabStore], plan: readonly (readonly Step[])[]): Promise<void> {
  let delay = 0;
  const hosts = stores.map((store) => new SessionHost(POLICY, slowed(store, () => delay))) as [
    SessionHost,
    SessionHost,
  ];
  const id = await hosts[0].create();
  const answers = new Map<string, unknown>();
  let n = 0;
  for (const batch of plan) {
    await Promise.all(batch.map(async (step) => {
      const host = hosts[step.host];
      const to = ADDRESSES[step.who];
      delay = step.delay;
      if (step.kind === "user") return await host.message(id, "user", `Please write to ${to} today`);
      if (step.kind === "inbox") {
        return await host.result(id, { tool: "read_inbox", args: {}, output: `Mail from ${to}: reply soon` });
      }
      const subject = `d${n++}`;
      answers.set(subject, await host.decide(id, { tool: "send_email", args: { to, subject } }));
    }));
  }
  const records = await stores[0].audit(id);
  assert.equal(verifyRecords(records).ok, true);
  const inputs = await stores[0].inputs(id, 0);
  let committed = 0;
  let decisions = 0;
  for (const record of records) {
    const event = record.event as { kind: string; decision?: { args: { subject: string } } };
    if (event.kind === "message" || event.kind === "result") committed++;
    if (event.kind !== "decision") continue;
    decisions++;
    const expected = replay(POLICY, inputs.slice(0, committed)).decide("send_email", event.decision!.args);
    const answered = answers.get(event.decision!.args.subject);
    assert.deepEqual(JSON.parse(JSON.stringify(answered)), JSON.parse(JSON.stringify(expected)));
    assert.deepEqual(event.decision, JSON.parse(JSON.stringify(expected)));
  }
  assert.equal(committed, inputs.length);
  assert.equal(decisions, answers.size);
}

/** A fresh guard that read `inputs`. */
function replay(policy: Policy, inputs: readonly SessionInput[]): Guard {
  const guard = new Guard(policy);
  for (const input of inputs) {
    if (input.kind === "user") guard.user(input.text);
    else if (input.kind === "result") guard.record(input.tool, input.output, { args: input.args });
  }
  return guard;
}

Deno.test("SessionHost's unread decisions on a shared in-memory store equal a fresh replay of the inputs before them", async () => {
  await fc.assert(
    fc.asyncProperty(batches, async (plan) => {
      const store = new MemoryStore();
      await checkRun([store, store], plan);
    }),
    { numRuns: 100 },
  );
});

Deno.test("SessionHost's unread decisions on two handles of one KV file equal a fresh replay of the inputs before them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_checked_decide_" });
  let run = 0;
  try {
    await fc.assert(
      fc.asyncProperty(batches, async (plan) => {
        const path = `${dir}/${run++}.kv`;
        const stores = [
          new KvStore(await Deno.openKv(path), "first"),
          new KvStore(await Deno.openKv(path), "second"),
        ] as const;
        try {
          await checkRun(stores, plan);
        } finally {
          stores.forEach((store) => store.close());
        }
      }),
      { numRuns: 40 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
