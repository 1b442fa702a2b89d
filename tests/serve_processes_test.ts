/**
 * Real `pab serve` processes sharing one Deno KV file: exactly one of 1,000
 * concurrent proposals of a `once` tool is reserved, and a restart keeps the
 * ledger.
 */
import assert from "node:assert/strict";
import { call, policyFolder, startPabServe } from "./_serve_fixtures.ts";
import { raceOnce } from "./_serve_race.ts";

Deno.test("pab serve: two processes on one KV file reserve a once tool exactly once among 1,000 proposals", async () => {
  const { dir, policy } = await policyFolder();
  try {
    const store = `${dir}/state.kv`;
    const servers = [
      await startPabServe(["--policy", policy, "--store", store]),
      await startPabServe(["--policy", policy, "--store", store]),
    ];
    try {
      const result = await raceOnce(servers.map((server) => server.url), 1000);
      assert.deepEqual(result, { statuses: { reserved: 1, blocked: 999 }, errors: 0, messages: [] });
    } finally {
      for (const server of servers) await server.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("pab serve: a restart keeps the ledger and the session", async () => {
  const { dir, policy } = await policyFolder();
  try {
    const store = `${dir}/state.kv`;
    const first = await startPabServe(["--policy", policy, "--store", store]);
    let id: string;
    try {
      id = String((await call(first.url, "/v1/sessions", {})).json.session);
      await call(first.url, `/v1/sessions/${id}/results`, { tool: "get_contacts", output: "bob@corp.example" });
      const proposed = await call(first.url, `/v1/sessions/${id}/propose`, { tool: "publish_release", args: {} });
      const reservation = (proposed.json.reservation as { id: string }).id;
      assert.equal((await call(first.url, `/v1/sessions/${id}/commit`, { reservation, output: "ok" })).status, 200);
    } finally {
      assert.match(await first.stop(), /pab serve: stopped\n$/);
    }
    const second = await startPabServe(["--policy", policy, "--store", store]);
    try {
      const again = await call(second.url, `/v1/sessions/${id}/propose`, { tool: "publish_release", args: {} });
      assert.equal(again.json.status, "blocked");
      assert.match(String(again.json.explanation), /\[no-prior\]/);
      const contact = await call(second.url, `/v1/sessions/${id}/decide`, {
        tool: "send_email",
        args: { to: "bob@corp.example" },
      });
      assert.equal((contact.json.decision as { outcome: string }).outcome, "allow");
      const audit = await call(second.url, `/v1/sessions/${id}/audit`);
      const kinds = (audit.json.events as { event: { kind: string; event?: { kind: string } } }[]).map((record) =>
        record.event.event ? `ledger:${record.event.event.kind}` : record.event.kind
      );
      assert.deepEqual(kinds, [
        "session",
        "result",
        "ledger:dispatch",
        "ledger:reserved",
        "decision",
        "reservation",
        "effect",
        "ledger:committed",
        "ledger:blocked",
        "decision",
        "decision",
      ]);
    } finally {
      await second.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
