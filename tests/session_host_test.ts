/**
 * SessionHost: sessions are isolated, and a session is the same from every
 * process that shares the store (inputs replayed, rulings spent once).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { parsePolicy } from "../guard/policy/text/mod.ts";
import { SERVE_POLICY_YAML } from "./_serve_fixtures.ts";

const policy = parsePolicy(SERVE_POLICY_YAML, { source: "serve.yaml" });

Deno.test("SessionHost keeps sessions apart: what one session read changes no decision in another", async () => {
  const store = await openStore();
  const host = new SessionHost(policy, store);
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.emailAddress(), fc.string({ minLength: 1, maxLength: 40 })),
        fc.constantFrom("user", "get_contacts"),
        async (value, source) => {
          const [a, b, untouched] = [await host.create(), await host.create(), await host.create()];
          if (source === "user") await host.message(a, "user", `write to ${value}`);
          else await host.result(a, { tool: "get_contacts", args: {}, output: value });
          await host.message(b, "user", "hello");
          await host.message(untouched, "user", "hello");
          const call = { tool: "send_email", args: { to: value } };
          const [inB, alone] = [await host.decide(b, call), await host.decide(untouched, call)];
          assert.deepEqual(
            { outcome: inB.outcome, gaps: inB.gaps, evidence: inB.evidence },
            { outcome: alone.outcome, gaps: alone.gaps, evidence: alone.evidence },
          );
        },
      ),
      { numRuns: 60 },
    );
    // And the property is not empty: in the session that read it, the value is vouched for.
    const a = await host.create();
    await host.result(a, { tool: "get_contacts", args: {}, output: "dana@corp.example" });
    const b = await host.create();
    assert.equal((await host.decide(a, { tool: "send_email", args: { to: "dana@corp.example" } })).outcome, "allow");
    assert.equal((await host.decide(b, { tool: "send_email", args: { to: "dana@corp.example" } })).outcome, "block");
  } finally {
    store.close();
  }
});

Deno.test("SessionHost on a shared store: another process sees the session's inputs and a ruling is spent once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pab_host_" });
  const [storeA, storeB] = [await openStore(`${dir}/s.kv`), await openStore(`${dir}/s.kv`)];
  const [a, b] = [new SessionHost(policy, storeA), new SessionHost(policy, storeB)];
  try {
    const id = await a.create();
    await a.result(id, { tool: "get_contacts", args: {}, output: "carol@corp.example" });
    assert.equal((await b.decide(id, { tool: "send_email", args: { to: "carol@corp.example" } })).outcome, "allow");
    const ruling = await a.ruling(id, { approver: "manager", tool: "refund", args: { amount: 7 } });
    const [first, second] = await Promise.allSettled([
      b.propose(id, { tool: "refund", args: { amount: 7 }, rulings: [ruling.id] }),
      a.propose(id, { tool: "refund", args: { amount: 7 }, rulings: [ruling.id] }),
    ]);
    const outcomes = [first, second].map((result) =>
      result.status === "fulfilled" ? result.value.status : (result.reason as { code: string }).code
    ).sort();
    assert.deepEqual(outcomes, ["ERR_RULING_SPENT", "reserved"]);
  } finally {
    storeA.close();
    storeB.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SessionHost: a reservation that lost a race to another process leaves no trace in the session", async () => {
  const racePolicy = parsePolicy(
    `
version: 1
tools:
  fetch_once: { output: untrusted, on_tainted: allow, once: feed.fetched }
  create_ticket: { output: trusted, on_tainted: allow, min_trust: attested }
`,
    { source: "race.yaml" },
  );
  const dir = await Deno.makeTempDir({ prefix: "pab_host_" });
  const [storeA, storeB] = [await openStore(`${dir}/s.kv`), await openStore(`${dir}/s.kv`)];
  const [a, b] = [new SessionHost(racePolicy, storeA), new SessionHost(racePolicy, storeB)];
  try {
    const id = await a.create();
    assert.equal((await a.propose(id, { tool: "fetch_once", args: {}, accept: true })).status, "reserved");
    const lost = await b.propose(id, { tool: "fetch_once", args: {}, accept: true });
    assert.equal(lost.status, "blocked");
    // Nothing untrusted was read in this session yet: a call that needs trusted context is still allowed in b.
    assert.equal((await b.decide(id, { tool: "create_ticket", args: {} })).outcome, "allow");
  } finally {
    storeA.close();
    storeB.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SessionHost: whichever process reserves and whichever finishes, a once tool runs once and no key stays held", async () => {
  const oncePolicy = parsePolicy(
    `
version: 1
tools:
  publish: { output: trusted, on_tainted: allow, once: "release.sent{channel}" }
  check: { output: trusted, on_tainted: allow, requires_no_prior: ["release.sent{channel}"] }
`,
    { source: "once.yaml" },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          tool: fc.constantFrom("publish", "check"),
          channel: fc.constantFrom("press", "blog"),
          reserveAt: fc.nat(2),
          finishAt: fc.nat(2),
          fails: fc.boolean(),
        }),
        { minLength: 1, maxLength: 12 },
      ),
      async (steps) => {
        const store = await openStore(":memory:");
        // Three "processes": hosts with their own session copies, on one store.
        const hosts = [0, 1, 2].map(() => new SessionHost(oncePolicy, store));
        try {
          const id = await hosts[0].create();
          const ran = new Map<string, number>();
          for (const [n, step] of steps.entries()) {
            const args = { channel: step.channel };
            const result = await hosts[step.reserveAt].propose(id, { tool: step.tool, args, reservation: `r${n}` });
            if (result.status !== "reserved") continue;
            if (step.tool === "publish" && !step.fails) ran.set(step.channel, (ran.get(step.channel) ?? 0) + 1);
            await hosts[step.finishAt].commit(id, {
              reservation: `r${n}`,
              ...(step.fails ? { error: "failed" } : { output: "ok" }),
            });
          }
          for (const count of ran.values()) assert.equal(count, 1);
          // Every reservation was finished: nothing is held, and what ran is committed for every process.
          const effects = store.effects(id);
          await effects.refresh();
          for (const channel of ["press", "blog"]) {
            const key = `release.sent{"channel":"${channel}"}`;
            assert.equal(effects.committed().has(key), ran.has(channel));
            if (!ran.has(channel)) {
              assert.equal(await effects.reserve([key], "probe"), true, `${key} is still held`);
              await effects.release([key], "probe");
            }
          }
          for (const host of hosts) {
            const again = await host.propose(id, { tool: "publish", args: { channel: "press" } });
            assert.equal(again.status === "reserved", !ran.has("press"));
            if (again.status === "reserved") await host.commit(id, { reservation: again.reservation.id, error: "x" });
          }
        } finally {
          store.close();
        }
      },
    ),
    { numRuns: 60 },
  );
});
