/**
 * SessionHost: sessions are isolated, and a session is the same from every
 * process that shares the store (inputs replayed, rulings spent once).
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import { SessionHost } from "../adapters/serve/mod.ts";
import { openStore } from "../adapters/store/mod.ts";
import { parsePolicy } from "../guard/mod.ts";
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

Deno.test("SessionHost rebuilds a session whose reservation lost a race, so the refused call leaves no trace in it", async () => {
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
